"""Push puzzle strings from your own application and read their results back: `Client`.

    from worker.client import Client

    with Client() as client:                       # SUDOKU_BROKER_URL, SUDOKU_DATABASE_URL
        receipts = client.submit(puzzles, collection="web")
        for result in client.wait(receipts):       # rides out a database outage
            print(result["puzzle"], result["status"], result["difficulty"])

`submit` packs the strings into `sudoku.solve` messages of SUDOKU_BATCH_SIZE puzzles (the
task any Celery client may send: docs/guide/application.md) and returns one
`Receipt` per string. The workers store each string (a puzzle, or a rejected line with its
reason) and its result in SQL; `wait` and `results` read them there (`wait_stored` only
waits, for a bulk push whose results are read in SQL). A puzzle that needs more work than the
bulk path's budget is stored with its rating `pending` and rated again alone by the deep tier:
`pending` says which, and `wait(..., final=True)` waits for them. SQL is the system of record:
`missing` tells which messages never arrived (say a Redis without persistence lost them)
and `resend` sends those again, under their own task ids, so nothing is stored twice.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterable
from functools import partial
from itertools import islice
from types import TracebackType
from typing import Any, NamedTuple

import kombu.exceptions
import sqlalchemy.exc
from celery import Celery
from sqlalchemy import Engine

from db.engine import make_engine, session_factory, shown_url
from db.submissions import (
    DEFAULT_COLLECTION,
    Wanted,
    missing_tasks,
    parse_receipt_id,
    pushed_results,
    receipt_id,
    results_of,
)
from db.tiers import PENDING as PENDING_RATING
from db.urls import mask_url
from solver.errors import SudokuBatchError
from worker import settings
from worker.app import producer_app
from worker.files.sources import pushed_puzzle
from worker.messages import PUBLISH_RETRY, PUSH_TASK_NAME, broker_unavailable

log = logging.getLogger("sudoku_batch.client")

DATABASE_ERRORS = (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)
PATIENCE = 300.0  # seconds a wait rides out an unreachable database before it gives up
POLL = 0.1  # seconds between two looks at the database while waiting
BACKOFF_MAX = 10.0  # longest pause between two tries of an unreachable database


class WaitTimeout(SudokuBatchError, TimeoutError):
    """`Client.wait` ran out of time before every message was stored."""


class Receipt(NamedTuple):
    """One pushed string: the message (task id) and position it went in, the string as
    given, and where it goes. `id` names it for `results` and `sudoku-batch result`."""

    task_id: str
    position: int
    puzzle: str
    collection: str = DEFAULT_COLLECTION
    reference: str | None = None
    one: bool = False  # sent alone, not in a list

    @property
    def id(self) -> str:
        return receipt_id(self.task_id, self.position)


class Client:
    """A producer: sends puzzle strings to the workers' queue, reads results from SQL.

    Every argument defaults to its setting (SUDOKU_BROKER_URL, SUDOKU_DATABASE_URL,
    SUDOKU_QUEUE, SUDOKU_BATCH_SIZE); the database is opened only to read results."""

    def __init__(
        self,
        broker_url: str | None = None,
        database_url: str | None = None,
        *,
        queue: str | None = None,
        message_size: int | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.broker_url = broker_url or settings.broker_url()
        self.queue = queue or settings.queue()
        self.message_size = message_size or settings.batch_size()
        self._database_url = database_url
        self._celery: Celery | None = None
        self._engine: Engine | None = None
        self.on_wait = on_wait or (lambda note: log.warning("%s", note))

    # --- sending ----------------------------------------------------------------------

    @property
    def celery(self) -> Celery:
        if self._celery is None:
            self._celery = producer_app(self.broker_url, self.queue)
        return self._celery

    def submit(
        self,
        puzzles: str | Iterable[str],
        *,
        collection: str | None = None,
        reference: str | None = None,
    ) -> list[Receipt]:
        """Send the puzzles (one string, or any iterable of them, read once) in messages of
        `message_size`; a receipt per string, in order. Waits out a broker restart."""
        name = collection or DEFAULT_COLLECTION
        if isinstance(puzzles, str):
            receipt = Receipt(str(uuid.uuid4()), 0, puzzles, name, reference, one=True)
            self._send([receipt])
            return [receipt]
        receipts: list[Receipt] = []
        strings = iter(puzzles)
        while chunk := list(islice(strings, self.message_size)):
            task_id = str(uuid.uuid4())
            message = [Receipt(task_id, k, text, name, reference) for k, text in enumerate(chunk)]
            self._send(message)
            receipts.extend(message)
        return receipts

    def _send(self, message: list[Receipt]) -> None:
        first = message[0]
        kwargs: dict[str, Any] = {"collection": first.collection}
        if first.reference is not None:
            kwargs["reference"] = first.reference
        strings: Any = first.puzzle if first.one else [r.puzzle for r in message]
        try:
            self.celery.send_task(
                PUSH_TASK_NAME,
                args=[strings],
                kwargs=kwargs,
                task_id=first.task_id,
                queue=self.queue,
                retry=True,
                retry_policy=PUBLISH_RETRY,
            )
        except kombu.exceptions.OperationalError as exc:
            raise broker_unavailable(self.celery, exc) from exc

    def resend(self, receipts: Iterable[Receipt]) -> list[Receipt]:
        """Send again the messages of these receipts that were never stored (lost with the
        broker's memory); the receipts resent. A message stored meanwhile is skipped by the
        workers, so this never stores a string twice."""
        by_task = _by_task(receipts)
        lost = self._patiently(lambda session: missing_tasks(session, by_task))
        for task_id in lost:
            self._send(sorted(by_task[task_id], key=lambda r: r.position))
        return [r for task_id in lost for r in by_task[task_id]]

    # --- reading ----------------------------------------------------------------------

    def missing(self, receipts: Iterable[Receipt]) -> list[Receipt]:
        """The receipts whose message is not stored yet (queued, or lost)."""
        by_task = _by_task(receipts)
        lost = self._patiently(lambda session: missing_tasks(session, by_task))
        return [r for task_id in lost for r in by_task[task_id]]

    def wait(
        self,
        receipts: Iterable[Receipt],
        *,
        timeout: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        resend_after: float | None = None,
        final: bool = False,
    ) -> list[dict[str, Any] | None]:
        """Wait until the workers stored every receipt's message; their results, in order.
        `progress(stored, total)` is called as messages land; `WaitTimeout` after `timeout`
        seconds (None: no limit). An unreachable database is retried with backoff, saying
        so through `on_wait`, for up to PATIENCE seconds at a time. With `resend_after`, the
        messages still missing when none of them was stored for that many seconds are sent
        again (a broker may have lost them; one stored meanwhile is skipped by the workers).
        With `final`, it waits on until no rating among them is pending (the deep tier rates
        those again alone), saying through `on_wait` how many are left."""
        items = list(receipts)
        deadline = None if timeout is None else time.monotonic() + timeout
        # Each message's results are read as soon as it is stored, while the workers go on
        # with the others: reading them all after the last one would add its own time.
        shown: dict[str, list[dict[str, Any]]] = {}
        self._wait(items, timeout, progress, resend_after, shown)
        results = [_shown_at(shown, receipt) for receipt in items]
        said = 0
        while final and (left := [k for k, r in enumerate(results) if _is_pending(r)]):
            if len(left) != said:
                self.on_wait(f"{len(left):,} ratings pending: the deep tier rates them again")
                said = len(left)
            if deadline is not None and time.monotonic() > deadline:
                raise WaitTimeout(
                    f"{len(left):,} ratings still pending after {timeout} s (is a worker "
                    "taking the deep tier's queue?)"
                )
            time.sleep(POLL)
            again = self.results([items[k] for k in left])
            for k, result in zip(left, again, strict=True):
                results[k] = result
        return results

    def pending(self, receipts: Iterable[Receipt]) -> list[Receipt]:
        """The receipts whose puzzle's rating is pending: stored within the bulk path's work
        budget, to be rated again alone within the deep budget (`wait(..., final=True)`)."""
        items = list(receipts)
        return [
            r for r, result in zip(items, self.results(items), strict=True) if _is_pending(result)
        ]

    def wait_stored(
        self,
        receipts: Iterable[Receipt],
        *,
        timeout: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        resend_after: float | None = None,
    ) -> None:
        """`wait`, reading nothing back: for a bulk push whose results are read in SQL (or
        later, with `results`), as `sudoku-batch import --wait` does for a file."""
        self._wait(list(receipts), timeout, progress, resend_after, None)

    def _wait(
        self,
        items: list[Receipt],
        timeout: float | None,
        progress: Callable[[int, int], None] | None,
        resend_after: float | None,
        shown: dict[str, list[dict[str, Any]]] | None,
    ) -> None:
        """Poll until every message of `items` is stored, adding their results to `shown`
        (unless None) as they land."""
        by_task = _by_task(items)
        pending = list(by_task)
        deadline = None if timeout is None else time.monotonic() + timeout
        quiet_since = time.monotonic()
        while pending:
            read = partial(_stored_results, tasks=pending, read=shown is not None)
            left, stored = self._patiently(read)
            if shown is not None:
                shown.update(stored)
            if len(left) < len(pending):
                quiet_since = time.monotonic()
            elif resend_after is not None and time.monotonic() - quiet_since >= resend_after:
                self.on_wait(
                    f"{len(left):,} messages not stored after {resend_after:.0f} s without "
                    "progress: sending them again"
                )
                for task_id in left:
                    self._send(sorted(by_task[task_id], key=lambda r: r.position))
                quiet_since = time.monotonic()
            pending = left
            if progress is not None:
                progress(len(by_task) - len(pending), len(by_task))
            if not pending:
                break
            if deadline is not None and time.monotonic() > deadline:
                raise WaitTimeout(
                    f"{len(pending):,} of {len(by_task):,} messages not stored after {timeout} s"
                    " (is a worker running on this queue?)"
                )
            time.sleep(POLL)

    def results(self, items: Iterable[Receipt | str]) -> list[dict[str, Any] | None]:
        """The result of each item, in order: a receipt or its id (what became of that
        string), or a puzzle string (its result, however it came); None when there is none
        yet, or for a string that is neither. A result holds the status (`rejected` for a
        string that is not a puzzle, with its reason), the solution and every metric and
        rating of `puzzle_results`."""
        wanted = [_wanted(item) for item in items]
        known = [item for item in wanted if item is not None]
        found = iter(self._patiently(partial(results_of, wanted=known)))
        return [None if item is None else next(found) for item in wanted]

    def _patiently(self, read: Callable[[Any], Any]) -> Any:
        """`read(session)` on the database, retried with backoff while it is unreachable."""
        delay, waited = 0.5, 0.0
        while True:
            try:
                with session_factory(self.engine)() as session:
                    return read(session)
            except DATABASE_ERRORS as exc:
                if waited >= PATIENCE:
                    raise
                reason = " ".join(str(getattr(exc, "orig", exc)).split())[:200]
                where = mask_url(shown_url(self.engine))
                self.on_wait(
                    f"database {where} unreachable ({reason}); waiting, next try in {delay:.0f} s"
                )
                time.sleep(delay)
                waited += delay
                delay = min(delay * 2, BACKOFF_MAX)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = make_engine(self._database_url or settings.database_url())
        return self._engine

    # --- lifetime ---------------------------------------------------------------------

    def close(self) -> None:
        """Release the broker and database connections."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._celery is not None:
            self._celery.close()
            self._celery = None

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _stored_results(
    session: Any, tasks: list[str], read: bool
) -> tuple[list[str], dict[str, list[dict[str, Any]]]]:
    """(those of these messages not stored yet, the results of those that are, if `read`)."""
    missing = missing_tasks(session, tasks)
    if not read:
        return missing, {}
    left = set(missing)
    return missing, pushed_results(session, [task for task in tasks if task not in left])


def _is_pending(result: dict[str, Any] | None) -> bool:
    return result is not None and result.get("rating_state") == PENDING_RATING


def _shown_at(shown: dict[str, list[dict[str, Any]]], receipt: Receipt) -> dict[str, Any] | None:
    """The result of one receipt among its message's results (None if it has none)."""
    found = shown.get(receipt.task_id, [])
    return found[receipt.position] if receipt.position < len(found) else None


def _by_task(receipts: Iterable[Receipt]) -> dict[str, list[Receipt]]:
    grouped: dict[str, list[Receipt]] = {}
    for receipt in receipts:
        grouped.setdefault(receipt.task_id, []).append(receipt)
    return grouped


def _wanted(item: Receipt | str) -> Wanted | None:
    """What to look up for a receipt, a receipt id or a puzzle string (None: neither)."""
    if isinstance(item, Receipt):
        return item.task_id, item.position
    return parse_receipt_id(item) or pushed_puzzle(item)
