"""The public task `sudoku.solve`: puzzle strings pushed by producers, stored in groups.

The worker's main process groups the messages (`worker.grouping`); a pool process runs
`store_group` on each group, in one transaction: it parses every string, stores the new
puzzles, solves those that have no result yet (in one call of the solver), stores their
results, then the lines, rejected strings and submissions of the whole group. Only the
last part locks the collection (`db.submissions.store_pushed`); a puzzle being stored by
two groups at once is solved by one of them, the other waits for its commit. A database
outage is waited out here, with backoff, before the group goes back to the queue. With a
result backend configured, each message's result (a dict per puzzle, a list for a list) is
then its task result.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from celery import Task, states

from db.errors import CollectionConflict, DuplicateDelivery
from db.results import ResultRow
from db.submissions import Parsed, Pushed, pushed_results, store_pushed, stored_tasks
from worker.app import app
from worker.batch import result_rows, solve_timed
from worker.database import open_session
from worker.files.sources import Accepted, judge_all_pushed
from worker.messages import PUSH_TASK_NAME, batch_sender, decode_push
from worker.overrides import STRATEGY
from worker.settings import get_settings
from worker.tasks.solve import TRANSIENT_ERRORS

log = logging.getLogger(__name__)

_settings = get_settings()
_send = batch_sender(app)  # the deep batches of pending ratings, after commit
RETRIED: tuple[type[BaseException], ...] = (*TRANSIENT_ERRORS, DuplicateDelivery)


def parse_all(texts: Iterable[str]) -> dict[str, Parsed]:
    """What each of these pushed strings is: a puzzle's normalised givens, or why it is not
    one (`worker.files.sources.judge_all_pushed`)."""
    return {
        text: Parsed(judged.puzzle)
        if isinstance(judged, Accepted)
        else Parsed(None, judged.reason, judged.column)
        for text, judged in judge_all_pushed(texts).items()
    }


def store_group(group: list[Pushed]) -> dict[str, str | None]:
    """Store a group of messages in one transaction, waiting out a database outage (up to
    `task_max_retries` attempts, with backoff); task id -> None when stored, or why it was
    refused (a collection name held by an imported file)."""
    delay = 1.0
    for attempt in range(_settings.task_max_retries + 1):
        try:
            return _store(group)
        except RETRIED as exc:
            if attempt == _settings.task_max_retries:
                raise
            log.warning(
                "storing %d messages failed (%s); retrying in %.0f s", len(group), exc, delay
            )
            time.sleep(delay * random.uniform(0.5, 1.0))  # jitter: workers retry at other times
            delay = min(delay * 2, float(_settings.retry_backoff_max))
    raise AssertionError("unreachable")  # pragma: no cover


def _store(group: list[Pushed]) -> dict[str, str | None]:
    plan = _settings.rating

    def results(puzzles: Sequence[tuple[int, str]]) -> list[ResultRow]:
        """The result rows of these (puzzle id, givens), solved now, all at once (the bulk
        path's budgets: a group is a batch)."""
        return result_rows(puzzles, solve_timed(puzzles, _settings.node_budget, plan), plan)

    with open_session() as session:
        done = stored_tasks(session, [pushed.task_id for pushed in group])
        todo = [pushed for pushed in group if pushed.task_id not in done]
        parsed = parse_all(text for pushed in todo for text in pushed.strings)
        stored = store_pushed(session, todo, parsed, results)
        session.commit()
    for later in stored.deep:
        _send(later)
    outcome: dict[str, str | None] = dict.fromkeys(done)
    for pushed in todo:
        refusal = outcome[pushed.task_id] = stored.refused.get(pushed.task_id)
        if refusal is not None:
            log.error("message %s refused: %s", pushed.task_id, refusal)
    if app.conf.result_backend:
        _publish(group, outcome)
    return outcome


def _publish(group: list[Pushed], outcome: dict[str, str | None]) -> None:
    """Each message's result as its Celery task result (JSON), for `AsyncResult.get()`."""
    with open_session() as session:
        stored = [pushed.task_id for pushed in group if outcome.get(pushed.task_id) is None]
        shown = pushed_results(session, stored)
    for pushed in group:
        refusal = outcome.get(pushed.task_id)
        if refusal is not None:
            app.backend.mark_as_failure(pushed.task_id, CollectionConflict(refusal))
            continue
        results = shown.get(pushed.task_id, [])
        value: Any = results[0] if pushed.one and results else results
        app.backend.store_result(pushed.task_id, value, states.SUCCESS)


class PushTask(Task):  # type: ignore[misc]  # celery is untyped
    """`sudoku.solve`, whose messages a worker groups (`worker.grouping`)."""

    Strategy = STRATEGY.implementation  # worker/overrides.py
    settings = _settings
    group_runner = staticmethod(store_group)
    outage_errors = RETRIED


@app.task(base=PushTask, bind=True, name=PUSH_TASK_NAME)
def solve_pushed(self: Task, *args: Any, **kwargs: Any) -> Any:
    """Store one message by itself (a grouping worker never calls this: see the module)."""
    pushed = decode_push(str(self.request.id), list(args), kwargs)
    return store_group([pushed])
