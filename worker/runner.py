"""The embedded path: solve batches in a local process pool while the import goes on.

No servers: the main process reads the file, imports it, hands each batch to the pool as
soon as the transaction that created it has committed, and stores the rows the pool sends
back (`record_batch`, as a Celery worker does). It is the only writer: SQLite takes one writer
at a time, and three writers on two cores keep preempting whichever holds the lock. The pool
processes only solve (`solve_batch`), at a lower priority than the process that feeds them
and stores their work. Killed or interrupted, a re-run resumes from the database: finished
batches are never solved again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from sqlalchemy.orm import Session, sessionmaker

import solver
from db.imports import BatchWork
from db.results import failure_reason, record_batch, record_batch_failure
from worker.batch import Solved, solve_work

OnSolved = Callable[[int], None]
# Batches queued per pool process: enough that the pool never waits while the main process
# imports the next chunk, few enough that memory stays bounded on huge collections.
IN_FLIGHT_PER_WORKER = 4
# Not the batch's fault (a killed pool process): the run stops, the batch stays pending and a
# re-run solves it.
NOT_THE_BATCH = (BrokenProcessPool,)

POOL_NICENESS = 5  # pool processes yield to the main process when the cores are busy


def _start_pool_process(backend: str) -> None:
    """Each pool process: below the writer in priority, on the configured solver backend (a
    spawned process does not inherit the parent's choice)."""
    os.nice(POOL_NICENESS)
    solver.use_backend(backend)


class LocalPool:
    """A process pool fed one batch at a time, with a bounded number of batches in flight."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        workers: int,
        node_budget: int | None = None,
        on_solved: OnSolved | None = None,
        on_dispatched: OnSolved | None = None,
        profile: str = solver.DEFAULT_PROFILE,
        chain_budget: int = 0,
    ) -> None:
        self.sessions = sessions
        self.workers = workers
        self.node_budget = node_budget
        self.profile = profile
        self.chain_budget = chain_budget
        self.on_solved = on_solved or (lambda _n: None)
        self.on_dispatched = on_dispatched or (lambda _total: None)  # puzzles handed out so far
        self.dispatched = 0
        self._pool = ProcessPoolExecutor(
            workers, initializer=_start_pool_process, initargs=(solver.backend(),)
        )
        self._inflight: dict[Future[Solved], BatchWork] = {}

    def dispatch(self, work: BatchWork) -> None:
        """Queue one batch; first stores what is finished, and waits while the pool is full."""
        self._store({future for future in self._inflight if future.done()})
        while len(self._inflight) >= IN_FLIGHT_PER_WORKER * self.workers:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)
        future = self._pool.submit(
            solve_work,
            work,
            node_budget=self.node_budget,
            profile=self.profile,
            chain_budget=self.chain_budget,
        )
        self._inflight[future] = work
        self.dispatched += len(work.puzzles)

    def dispatch_all(self, works: Iterable[BatchWork]) -> None:
        for work in works:
            self.dispatch(work)
        self.on_dispatched(self.dispatched)

    def drain(self) -> None:
        """Wait for every batch in flight and store it."""
        while self._inflight:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)

    def close(self, *, cancel: bool = False) -> None:
        """Stop the pool; cancelled batches stay pending in the database for a re-run."""
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)

    def _store(self, finished: set[Future[Solved]]) -> None:
        """Store finished batches in one transaction (each batch's write is idempotent); a
        batch whose solving raised is marked failed. An error that is not the batch's fault
        stops the run once the others are stored."""
        if not finished:
            return
        done = [(future, self._inflight.pop(future)) for future in finished]
        stop = [f.exception() for f, _ in done if isinstance(f.exception(), NOT_THE_BATCH)]
        with self.sessions() as session:
            for future, work in done:
                error = future.exception()
                if error is None:
                    record_batch(session, work.batch_id, *future.result())
                elif not isinstance(error, NOT_THE_BATCH):
                    record_batch_failure(session, work.batch_id, failure_reason(error))
            session.commit()
        if stop:
            raise stop[0]  # type: ignore[misc]
        for _, work in done:
            self.on_solved(len(work.puzzles))


@contextmanager
def local_pool(
    sessions: sessionmaker[Session],
    workers: int,
    node_budget: int | None = None,
    on_solved: OnSolved | None = None,
    on_dispatched: OnSolved | None = None,
    profile: str = solver.DEFAULT_PROFILE,
    chain_budget: int = 0,
) -> Iterator[LocalPool]:
    """A LocalPool; on leaving, every batch dispatched is stored (or, on an error or an
    interrupt, the batches not finished are cancelled and stay pending for a re-run)."""
    pool = LocalPool(
        sessions, workers, node_budget, on_solved, on_dispatched, profile, chain_budget
    )
    try:
        yield pool
        pool.drain()
    except BaseException:
        pool.close(cancel=True)
        raise
    pool.close()
