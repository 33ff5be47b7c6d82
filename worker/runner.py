"""The embedded path: solve a collection's unfinished batches in a local process pool.

No servers: the main process writes SQLite (one writer) and the pool processes run the same
`solve_batch` the Celery workers run. Killed or interrupted, a re-run resumes from the
database: finished batches are never solved again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from sqlalchemy.orm import Session, sessionmaker

from db.imports import BatchWork, unfinished_batches
from db.results import record_batch, record_batch_failure
from worker.batch import Row, solve_batch

OnSolved = Callable[[int], None]


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
        self._pool = ProcessPoolExecutor(max_workers=workers)
        self._inflight: dict[Future[list[Row]], BatchWork] = {}

    def dispatch(self, work: BatchWork) -> None:
        """Queue one batch; waits for a slot so memory stays bounded on huge collections."""
        while len(self._inflight) >= 2 * self.workers:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)
        future = self._pool.submit(
            solve_batch, work.collection_id, work.puzzles, node_budget=self.node_budget
        )
        self._inflight[future] = work

    def drain(self) -> None:
        """Wait for every batch in flight and store it."""
        while self._inflight:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)

    def close(self, *, cancel: bool = False) -> None:
        """Stop the pool; cancelled batches stay pending in the database for a re-run."""
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)

    def _store(self, finished: set[Future[list[Row]]]) -> None:
        for future in finished:
            work = self._inflight.pop(future)
            error = future.exception()
            if isinstance(error, BrokenProcessPool):
                raise error  # a killed pool process: not the batch's fault; a re-run resumes
            with self.sessions() as session:
                if error is None:
                    record_batch(session, work.batch_id, future.result())
                else:
                    record_batch_failure(session, work.batch_id, f"{type(error).__name__}: {error}")
                session.commit()
            self.on_solved(len(work.puzzles))


def pending_work(sessions: sessionmaker[Session], collection_ids: Iterable[int]) -> list[BatchWork]:
    """Every unfinished batch of these collections (what is left to solve)."""
    with sessions() as session:
        return [work for cid in collection_ids for work in unfinished_batches(session, cid)]


def solve_pending(
    sessions: sessionmaker[Session],
    works: Iterable[BatchWork],
    *,
    workers: int,
    node_budget: int | None = None,
    on_solved: OnSolved | None = None,
) -> None:
    """Solve these batches in a local pool and store each as it finishes."""
    pool = LocalPool(sessions, workers, node_budget, on_solved)
    try:
        for work in works:
            pool.dispatch(work)
        pool.drain()
    except BaseException:
        pool.close(cancel=True)
        raise
    pool.close()
