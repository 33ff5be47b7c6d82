"""The embedded path: solve batches in a local process pool while the import goes on.

No servers: the main process reads the file, imports it and hands each batch to the pool as
soon as the transaction that created it has committed. Each pool process does what a Celery
worker does: `solve_batch`, then `record_batch` in its own transaction on its own connection
(SQLite in WAL mode takes one writer at a time; the others wait their turn, up to its busy
timeout). Killed or interrupted, a re-run resumes from the database: finished batches are
never solved again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

import sqlalchemy.exc
from sqlalchemy.orm import Session, sessionmaker

from db.engine import make_engine, session_factory
from db.imports import BatchWork
from db.results import record_batch, record_batch_failure
from worker.batch import solve_batch

OnSolved = Callable[[int], None]
# Batches queued per pool process: enough that the pool never waits while the main process
# imports the next chunk, few enough that memory stays bounded on huge collections.
IN_FLIGHT_PER_WORKER = 4
# Not the batch's fault: the run stops, the batch stays pending and a re-run solves it.
NOT_THE_BATCH = (BrokenProcessPool, sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)

_pool_sessions: sessionmaker[Session] | None = None  # in a pool process: its own engine


def _open_pool_process(url: str) -> None:
    """A pool process's start: an engine of its own (the parent's connections stay unused)."""
    global _pool_sessions
    _pool_sessions = session_factory(make_engine(url))


def solve_and_record(work: BatchWork, node_budget: int | None) -> int:
    """In a pool process: solve one batch and store it in one transaction; rows inserted."""
    assert _pool_sessions is not None, "called outside a LocalPool process"
    rows = solve_batch(work.collection_id, work.puzzles, node_budget=node_budget)
    with _pool_sessions() as session:
        inserted = record_batch(session, work.batch_id, rows)
        session.commit()
    return inserted


class LocalPool:
    """A process pool fed one batch at a time, with a bounded number of batches in flight."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        workers: int,
        node_budget: int | None = None,
        on_solved: OnSolved | None = None,
    ) -> None:
        self.sessions = sessions
        self.workers = workers
        self.node_budget = node_budget
        self.on_solved = on_solved or (lambda _n: None)
        self.dispatched = 0  # puzzles handed to the pool
        url = sessions.kw["bind"].url.render_as_string(hide_password=False)
        self._pool = ProcessPoolExecutor(workers, initializer=_open_pool_process, initargs=(url,))
        self._inflight: dict[Future[int], BatchWork] = {}

    def dispatch(self, work: BatchWork) -> None:
        """Queue one batch; first stores what is finished, and waits while the pool is full."""
        self._store({future for future in self._inflight if future.done()})
        while len(self._inflight) >= IN_FLIGHT_PER_WORKER * self.workers:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)
        future = self._pool.submit(solve_and_record, work, self.node_budget)
        self._inflight[future] = work
        self.dispatched += len(work.puzzles)

    def dispatch_all(self, works: Iterable[BatchWork]) -> None:
        for work in works:
            self.dispatch(work)

    def drain(self) -> None:
        """Wait for every batch in flight and store it."""
        while self._inflight:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)

    def close(self, *, cancel: bool = False) -> None:
        """Stop the pool; cancelled batches stay pending in the database for a re-run."""
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)

    def _store(self, finished: set[Future[int]]) -> None:
        """Account for finished batches: a batch whose solving raised is marked failed; an
        error that is not the batch's fault stops the run once the others are recorded."""
        done = [(future, self._inflight.pop(future)) for future in finished]
        failed = [(work, future.exception()) for future, work in done if future.exception()]
        stop = [error for _, error in failed if isinstance(error, NOT_THE_BATCH)]
        if len(stop) < len(failed):
            with self.sessions() as session:
                for work, error in failed:
                    if not isinstance(error, NOT_THE_BATCH):
                        reason = f"{type(error).__name__}: {error}"
                        record_batch_failure(session, work.batch_id, reason)
                session.commit()
        if stop:
            raise stop[0]
        for _, work in done:
            self.on_solved(len(work.puzzles))
