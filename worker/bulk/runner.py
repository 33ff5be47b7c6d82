"""The embedded path: solve batches in a local process pool while the import goes on.

No servers: the main process hands each batch to the pool as soon as the transaction that
created it has committed (a large file is read and stored by processes of its own,
`worker.bulk.producer`). The main process only coordinates; who stores the results depends
on the database:

- SQLite takes one writer at a time: a process of its own stores them
  (`worker.bulk.writer`), each pool process handing it what it solved, straight: the main
  process never touches a row. Pool processes writing too would only take turns on the same
  lock, each re-reading the pages the others changed (docs: Architecture).
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
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

import solver
from db.engine import is_embedded, sessions_at, shared_url
from db.imports import BatchWork
from db.ratings import record_work
from db.results import failure_reason
from db.tiers import DEFAULT_PLAN, RatingPlan
from worker.batch import solve_work
from worker.bulk.writer import Gathering, NotStored, Part, Stored, Writer, store
from worker.handover import exit_with_parent, show_name

OnSolved = Callable[[int], None]
# what a pool process hands back: a part solved; or, stored, its deep work; or nothing (its
# part went to the writer)
Done = Part | list[BatchWork] | None
# Batches queued per pool process: enough that the pool never waits while the main process
# imports the next chunk, few enough that memory stays bounded on huge collections.
IN_FLIGHT_PER_WORKER = 4


# Not the batch's fault (a killed pool process, a database that refused the write): the run
# stops, the batch stays pending and a re-run solves it.
NOT_THE_BATCH = (BrokenProcessPool, NotStored)

POOL_NICENESS = 5  # pool processes yield to the main process when the cores are busy
POOL_NAME = "sudoku-pool"  # each pool process's name where the system shows it (`show_name`)


_to_writer: Any = None  # in a pool process: the writer's inbox, where there is a writer


def _start_pool_process(backend: str, to_writer: Any, parent: int) -> None:
    """Each pool process: below the writer in priority, on the configured solver backend (a
    spawned process does not inherit the parent's choice), handing its parts to the writer
    (`to_writer`, its inbox) where there is one, ending with its parent (`parent`, its pid:
    killed, it leaves no pool process waiting for work that will never come)."""
    global _to_writer
    os.nice(POOL_NICENESS)
    show_name(POOL_NAME)
    exit_with_parent(parent)
    solver.use_backend(backend)
    if to_writer is not None:
        # On leaving, do not wait to hand over what is still buffered: a pool that ends
        # normally has seen every part stored; one cancelled must not hang on a writer gone.
        to_writer.cancel_join_thread()
    _to_writer = to_writer


def solve_part(
    work: BatchWork, parts: int, *, node_budget: int | None, plan: RatingPlan
) -> Part | None:
    """In a pool process: one of a batch's `parts` solved, or why solving it failed (the
    batch's own fault); handed to the writer where there is one (then None comes back)."""
    try:
        part = Part(work, parts, solve_work(work, node_budget=node_budget, plan=plan))
    except Exception as error:
        part = Part(work, parts, None, failure_reason(error))
    if _to_writer is None:
        return part
    _to_writer.put(part)
    return None


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
        to_writer = None if self._writer is None else self._writer.inbox
        self._pool = ProcessPoolExecutor(
            workers,
            initializer=_start_pool_process,
            initargs=(solver.backend(), to_writer, os.getpid()),
        )
        self._inflight: dict[Future[Done], Part] = {}  # each part in the pool (not yet solved)
        self._gathering = Gathering()  # the parts that came back here, by batch

    def dispatch(self, work: BatchWork) -> None:
        """Queue one batch (in parts while processes idle); first stores what is finished, and
        waits while the pool, or the writer, is full."""
        self._store({future for future in self._inflight if future.done()})
        while len(self._inflight) >= self._limit:
            self._store(wait(self._inflight, return_when=FIRST_COMPLETED).done)
        if self._writer is not None:
            self._count(self._writer.collect(block=False))
            while self._writer.pending >= 2 * self._limit:  # the pool's and as many again
                self._count(self._writer.collect(block=True))
            self._writer.expect()
        parts = split(work, self.workers - len(self._inflight))
        budget, plan = self.node_budget, self.plan
        for part in parts:
            if len(parts) == 1 and self.url is not None:
                done: Future[Done] = self._pool.submit(
                    solve_and_store, work, self.url, node_budget=budget, plan=plan
                )
            else:
                done = self._pool.submit(
                    solve_part, part, len(parts), node_budget=budget, plan=plan
                )
            self._inflight[done] = Part(part, len(parts), None)
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
        """Take these parts out of the pool's hands and store the batches they made whole
        that no other process stores: here, in one transaction (each batch's write is
        idempotent). A part whose solving raised has its batch recorded failed. An error that
        is not the batch's fault stops the run once the others are stored."""
        parts: list[Part] = []
        stored: list[Stored] = []
        stop: list[BaseException] = []
        for future in finished:
            part = self._inflight.pop(future)
            error = future.exception()
            if isinstance(error, NOT_THE_BATCH):
                stop.append(error)
            elif error is not None:
                parts.append(replace(part, failure=failure_reason(error)))
            elif isinstance(done := future.result(), Part):
                parts.append(done)
            elif done is not None:  # stored by its pool process (PostgreSQL): its deep work
                stored.append(Stored(part.work.batch_id, len(part.work.puzzles), done))
        if self._writer is not None:  # the writer gathers them with the others
            for part in parts:
                self._writer.send(part)
        elif here := self._gathering.add(parts):
            with self.sessions() as session:
                stored += [store(session, batch) for batch in here]
                session.commit()
        self._count(stored)
        if stop:
            raise stop[0]

    def _count(self, stored: list[Stored]) -> None:
        """Batches stored: their deep work kept for later, their puzzles counted solved."""
        for batch in stored:
            self.deep += batch.deep
            if batch.solved:
                self.on_solved(batch.solved)

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
