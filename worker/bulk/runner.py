"""The embedded path: solve batches in a local process pool while the import goes on.

No servers: the main process hands each batch to the pool as soon as the transaction that
created it has committed (a large file is read and stored by a process of its own,
`worker.bulk.producer`). The main process only coordinates; who stores the results depends
on the database:

- SQLite takes one writer at a time: a process of its own stores them
  (`worker.bulk.writer`), the pool's rows passed on to it. Pool processes
  writing too would only take turns on the same lock, each re-reading the pages the others
  changed (docs: Architecture).
- PostgreSQL takes many: each pool process stores the batch it solved, on its own connection
  (`solve_and_store`); the few batches cut into parts come back to the main process, which
  stores them once all their parts are in.
- SQLite in memory, which no other process can open: the main process stores them.

The pool processes run at a lower priority than the main process. Killed or interrupted, a
re-run resumes from the database: finished batches are never solved again.

Work is split by cost, not by count: while the pool has idle processes, a batch is cut into
one part for each (every part-th puzzle, so that hard ones spread out), stored once all its
parts are back; a small collection of hard puzzles keeps every core busy. The puzzles the
bulk path leaves pending come back as deep batches of one puzzle each (`deep`), for the
second phase (`run_deep`), the hardest-looking first.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from sqlalchemy.orm import Session, sessionmaker

import solver
from db.engine import is_embedded, sessions_at, shared_url
from db.imports import BatchWork
from db.ratings import record_work
from db.results import failure_reason
from db.tiers import DEFAULT_PLAN, RatingPlan
from worker.batch import Solved, solve_work
from worker.bulk.writer import Finished, NotStored, Stored, Writer, store

OnSolved = Callable[[int], None]
# what a pool process hands back: a part solved; or, stored, its deep work
Done = Solved | list[BatchWork]
# Batches queued per pool process: enough that the pool never waits while the main process
# imports the next chunk, few enough that memory stays bounded on huge collections.
IN_FLIGHT_PER_WORKER = 4


# Not the batch's fault (a killed pool process, a database that refused the write): the run
# stops, the batch stays pending and a re-run solves it.
NOT_THE_BATCH = (BrokenProcessPool, NotStored)

POOL_NICENESS = 5  # pool processes yield to the main process when the cores are busy


def _start_pool_process(backend: str) -> None:
    """Each pool process: below the writer in priority, on the configured solver backend (a
    spawned process does not inherit the parent's choice)."""
    os.nice(POOL_NICENESS)
    solver.use_backend(backend)


def solve_and_store(
    work: BatchWork, url: str, *, node_budget: int | None, plan: RatingPlan
) -> Done:
    """In a pool process: solve a whole batch and store it in one transaction, on this
    process's own engine; the deep batches its pending ratings need. A failure to store is
    `NotStored`; one to solve goes on as itself (the batch's own)."""
    solved = solve_work(work, node_budget=node_budget, plan=plan)
    try:
        with sessions_at(url)() as session:
            deep = record_work(session, work, solved.rows, solved.paths)
            session.commit()
    except Exception as error:
        raise NotStored(f"batch {work.batch_id} was not stored: {failure_reason(error)}") from error
    return deep


def split(work: BatchWork, parts: int) -> list[BatchWork]:
    """The batch cut into `parts` (at most one a puzzle): every part-th puzzle each."""
    parts = max(1, min(parts, len(work.puzzles)))
    return [replace(work, puzzles=work.puzzles[k::parts]) for k in range(parts)]


@dataclass
class _Batch:
    """A batch whose parts are in the pool: what came back so far."""

    work: BatchWork
    parts: int
    back: int = 0  # parts back, solved or failed
    solved: list[Solved] = field(default_factory=list)
    deep: list[BatchWork] | None = None  # stored by its pool process: the deep work it made
    error: BaseException | None = None


class LocalPool:
    """A process pool fed one batch at a time, with a bounded number of batches in flight."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        workers: int,
        node_budget: int | None = None,
        on_solved: OnSolved | None = None,
        on_dispatched: OnSolved | None = None,
        plan: RatingPlan = DEFAULT_PLAN,
    ) -> None:
        self.sessions = sessions
        self.workers = workers
        self.node_budget = node_budget
        self.plan = plan
        self.on_solved = on_solved or (lambda _n: None)
        self.on_dispatched = on_dispatched or (lambda _total: None)  # puzzles handed out so far
        self.dispatched = 0
        self.deep: list[BatchWork] = []  # deep batches stored batches asked for, not yet run
        url, embedded = shared_url(sessions), is_embedded(sessions.kw["bind"])
        self.url = None if embedded else url  # where pool processes store what they solve
        # SQLite's one writer of results: a process of its own (None: this one stores them)
        self._writer = Writer(url) if embedded and url is not None else None
        self._limit = IN_FLIGHT_PER_WORKER * workers
        self._pool = ProcessPoolExecutor(
            workers, initializer=_start_pool_process, initargs=(solver.backend(),)
        )
        self._inflight: dict[Future[Done], _Batch] = {}

    def dispatch(self, work: BatchWork) -> None:
        """Queue one batch (in parts while processes idle); first stores what is finished, and
        waits while the pool is full."""
        self._store({future for future in self._inflight if future.done()})
        if self._writer is not None:
            self._count(self._writer.collect(block=False))
        while len(self._inflight) >= self._limit:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)
        parts = split(work, self.workers - len(self._inflight))
        batch = _Batch(work, len(parts))
        budget, plan = self.node_budget, self.plan
        if len(parts) == 1 and self.url is not None:
            stored = self._pool.submit(
                solve_and_store, work, self.url, node_budget=budget, plan=plan
            )
            self._inflight[stored] = batch
        else:
            for part in parts:
                solved: Future[Done] = self._pool.submit(
                    solve_work, part, node_budget=budget, plan=plan
                )
                self._inflight[solved] = batch
        self.dispatched += len(work.puzzles)

    def dispatch_all(self, works: Iterable[BatchWork]) -> None:
        for work in works:
            self.dispatch(work)
        self.on_dispatched(self.dispatched)

    def drain(self) -> None:
        """Wait for every batch in flight and for it to be stored."""
        while self._inflight:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)
        while self._writer is not None and self._writer.pending:
            self._count(self._writer.collect(block=True))

    def close(self, *, cancel: bool = False) -> None:
        """Stop the pool and the writer; cancelled batches, and those the writer had not
        committed, stay pending in the database for a re-run."""
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)
        if self._writer is not None:
            self._writer.close(cancel=cancel)

    def _store(self, finished: set[Future[Done]]) -> None:
        """Store the batches whose last part is back and that their pool process did not
        store: to the writer, or here in one transaction (each batch's write is idempotent); a
        batch whose solving raised is recorded failed. An error that is not the batch's fault
        stops the run once the others are stored."""
        complete = self._complete(finished)
        stop = [b.error for b in complete if isinstance(b.error, NOT_THE_BATCH)]
        here = [
            Finished(b.work, b.solved, None if b.error is None else failure_reason(b.error))
            for b in complete
            if b.deep is None and not isinstance(b.error, NOT_THE_BATCH)
        ]
        if self._writer is not None:
            for batch in here:
                self._writer.send(batch)
        elif here:
            with self.sessions() as session:
                stored = [store(session, batch) for batch in here]
                session.commit()
            self._count(stored)
        # stored by their pool processes (PostgreSQL)
        self._count(
            [
                Stored(b.work.batch_id, len(b.work.puzzles), b.deep or [])
                for b in complete
                if b.deep is not None
            ]
        )
        if stop:
            raise stop[0]
        while self._writer is not None and self._writer.pending > self._limit:
            self._count(self._writer.collect(block=True))

    def _count(self, stored: list[Stored]) -> None:
        """Batches stored: their deep work kept for later, their puzzles counted solved."""
        for batch in stored:
            self.deep += batch.deep
            if batch.solved:
                self.on_solved(batch.solved)

    def _complete(self, finished: set[Future[Done]]) -> list[_Batch]:
        """Take these parts out of the pool's hands; the batches whose last part is back."""
        complete: list[_Batch] = []
        for future in finished:
            batch = self._inflight.pop(future)
            error = future.exception()
            if error is not None:
                batch.error = batch.error or error
            elif isinstance(done := future.result(), Solved):
                batch.solved.append(done)
            else:
                batch.deep = done  # its pool process stored it
            batch.back += 1
            if batch.back == batch.parts:
                complete.append(batch)
        return complete

    def run_deep(self, on_solved: OnSolved, more: Iterable[BatchWork] = ()) -> int:
        """The second phase: rate the deep batches stored batches asked for, and `more` (an
        earlier run's, left unfinished), each puzzle alone within the deep budget, until none
        is left; `on_solved` counts them. Returns how many there were."""
        todo = {work.batch_id: work for work in [*more, *self.deep]}
        self.deep = []
        self.on_solved = on_solved
        for work in todo.values():
            self.dispatch(work)
        self.drain()
        return len(todo)


@contextmanager
def local_pool(
    sessions: sessionmaker[Session],
    workers: int,
    node_budget: int | None = None,
    on_solved: OnSolved | None = None,
    on_dispatched: OnSolved | None = None,
    plan: RatingPlan = DEFAULT_PLAN,
) -> Iterator[LocalPool]:
    """A LocalPool; on leaving, every batch dispatched is stored (or, on an error or an
    interrupt, the batches not finished are cancelled and stay pending for a re-run)."""
    pool = LocalPool(sessions, workers, node_budget, on_solved, on_dispatched, plan)
    try:
        yield pool
        pool.drain()
    except BaseException:
        pool.close(cancel=True)
        raise
    pool.close()
