"""The Celery task: decode a batch message, solve it, store it, send on the deep batches its
pending ratings need. Thin on purpose.

Idempotent: results are keyed by puzzle and the batch flips to `done` once, so a
redelivered batch (acks_late after a crash) changes nothing and counts nothing twice; the deep
batches are made in the same transaction (stamped sent, so a worker's lost-batch check sends
one again should this process die before sending it), and a puzzle never gets two.
"""

from __future__ import annotations

import logging
from typing import Any

import kombu.exceptions
import redis.exceptions
import sqlalchemy.exc
from celery import Task
from celery.exceptions import Reject
from celery.signals import task_failure, worker_init, worker_process_init

from db.errors import UnknownBatch
from db.ratings import record_work, settle_failed
from db.results import failure_reason, record_batch_failure
from db.tiers import IMPORT
from worker.app import app
from worker.batch import solve_work
from worker.database import open_session, reset_engine
from worker.errors import MessageError
from worker.messages import TASK_NAME, batch_sender, decode_batch
from worker.overrides import REQUEST
from worker.settings import get_settings
from worker.startup import refuse_unless_ready

log = logging.getLogger(__name__)

# Retried with backoff: the database or broker being briefly away. Never retried: bad
# messages (rejected) and bad puzzles (stored with their status, not raised).
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
    ConnectionError,
)

_settings = get_settings()
_send = batch_sender(app)  # waits out a broker restart: a deep batch is not left unsent


@app.task(
    Request=REQUEST.implementation,  # worker/overrides.py
    bind=True,
    name=TASK_NAME,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,  # 1 s, 2 s, 4 s ... exponential
    retry_backoff_max=_settings.retry_backoff_max,  # kept below the visibility timeout
    retry_jitter=True,  # spread the retries of many workers after an outage
    max_retries=_settings.task_max_retries,  # bounds transient retries and worker-lost retries
    default_retry_delay=2,  # a batch whose process was killed runs again after 2 s, not 180 s
)
def solve_batch_task(self: Task, **message: Any) -> int:
    """Solve one batch and store its rows in one transaction, then send the deep batches its
    pending ratings need; returns how many puzzles it rated."""
    try:
        work = decode_batch(message)
    except MessageError as exc:
        log.error("rejected message %s: %s", self.request.id, exc)
        raise Reject(str(exc), requeue=False) from exc
    solved = solve_work(work, node_budget=_settings.node_budget, plan=_settings.rating)
    with open_session() as session:
        try:
            deep = record_work(session, work, *solved, queued=True)
        except UnknownBatch:  # its collection was deleted or replaced since it was queued
            log.warning("batch %s is gone (collection deleted or replaced): dropped", work.batch_id)
            return 0
        session.commit()
    for later in deep:
        _send(later)
    if deep:
        log.info("batch %s: %d puzzles left pending for the deep tier", work.batch_id, len(deep))
    return len(work.puzzles)


@task_failure.connect(sender=solve_batch_task)
def _record_failed_batch(
    sender: Task | None = None,
    exception: BaseException | None = None,
    kwargs: dict[str, Any] | None = None,
    **_: Any,
) -> None:
    """A batch out of retries (or over its time limits) is marked failed, not lost; a deep
    batch's pending ratings become final estimates (beyond what the deep tier could do)."""
    batch_id = (kwargs or {}).get("batch_id")
    if not isinstance(batch_id, int) or isinstance(exception, Reject):
        return  # a rejected message is malformed: its batch_id may name another, good batch
    reason = failure_reason(exception)
    try:
        with open_session() as session:
            try:
                work = decode_batch(kwargs or {})
            except MessageError:
                work = None
            if work is None or work.kind == IMPORT:
                record_batch_failure(session, batch_id, reason)
            else:
                settle_failed(session, work, reason)
            session.commit()
    except sqlalchemy.exc.SQLAlchemyError:
        log.exception("could not mark batch %s failed; it stays pending for a re-run", batch_id)
    else:
        log.error("batch %s failed for good: %s", batch_id, reason)


@worker_init.connect
def _check_before_start(sender: Any = None, **_: Any) -> None:
    """Once per worker, before it takes a batch: the configured solver backend (its pool
    processes, forked afterwards, inherit it), the database and the broker; a worker that
    cannot work refuses to start in one line (`worker.startup`)."""
    refuse_unless_ready(sender.app, _settings)


@worker_process_init.connect
def _fresh_engine_per_process(**_: Any) -> None:
    """A forked pool process must not share the parent's database connections."""
    reset_engine(after_fork=True)
