"""SQLite's one writer of results in `run`: a process of its own, so that `run`'s main
process only coordinates.

SQLite takes one writer at a time. `run`'s results on it are stored by this process: each
pool process hands it the part of a batch it solved (`Part`), straight, without passing
through the main process; the writer gathers a batch's parts (`Gathering`) and the main
process reads back, once committed, what each batch gave (`Stored`: the puzzles solved, the
deep batches it asked for). Whatever batches are whole since the last commit are stored in
one transaction (each batch's write is idempotent, as in a Celery worker): the further the
pool gets ahead, the fewer the commits.

Killed, or stopped by the database's error (`NotStored`, raised in the main process), the
writer loses only what it had not committed: those batches stay pending and a re-run solves
them. It stops by itself once the main process is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.orm import Session

from db.engine import sessions_at
from db.errors import StorageError
from db.imports import BatchWork
from db.ratings import record_work, settle_failed
from db.results import failure_reason, record_batch_failure
from db.tiers import IMPORT
from worker.batch import Solved
from worker.handover import (
    exit_with_parent,
    get_from_child,
    get_while_parent,
    put_while_parent,
    show_name,
)

COMMIT_PARTS = 20  # parts of batches taken in for one transaction at most
_STOP = None  # sent by the main process: store what came before, then end
NAME = "sudoku-results"  # the process's name (multiprocessing's, and `show_name`)


class NotStored(StorageError):
    """Solved batches that could not be stored (the database's error, as text): not their
    fault, so they stay pending for a re-run."""


@dataclass(frozen=True)
class Part:
    """One part of a batch cut into `parts` (`work` holds the part's puzzles): its `Solved`,
    or why solving it failed (then the whole batch is recorded failed)."""

    work: BatchWork
    parts: int
    solved: Solved | None
    failure: str | None = None


@dataclass(frozen=True)
class Finished:
    """A batch whose parts are all back: each part's `Solved`, or why solving it failed (then
    it is recorded failed)."""

    work: BatchWork
    parts: list[Solved]
    failure: str | None = None


class Gathering:
    """Parts of batches, kept until each batch is whole."""

    def __init__(self) -> None:
        self._parts: dict[int, list[Part]] = {}

    def add(self, parts: Iterable[Part]) -> list[Finished]:
        """Take in these parts; the batches they made whole."""
        whole: list[Finished] = []
        for part in parts:
            have = self._parts.setdefault(part.work.batch_id, [])
            have.append(part)
            if len(have) == part.parts:
                del self._parts[part.work.batch_id]
                whole.append(_finished(have))
        return whole


def _finished(parts: list[Part]) -> Finished:
    """A batch from all its parts: failed if any part failed."""
    puzzles = [puzzle for part in parts for puzzle in part.work.puzzles]
    work = replace(parts[0].work, puzzles=puzzles)
    failure = next((part.failure for part in parts if part.failure is not None), None)
    return Finished(work, [part.solved for part in parts if part.solved is not None], failure)


@dataclass(frozen=True)
class Stored:
    """A batch committed: how many of its puzzles count as solved (none if it failed) and the
    deep batches its pending ratings need."""

    batch_id: int
    solved: int
    deep: list[BatchWork]


def store(session: Session, finished: Finished) -> Stored:
    """Record one finished batch (not committed): its rows, or its failure."""
    work = finished.work
    if finished.failure is None:
        rows = [row for part in finished.parts for row in part.rows]
        paths = [path for part in finished.parts for path in part.paths]
        return Stored(work.batch_id, len(work.puzzles), record_work(session, work, rows, paths))
    if work.kind == IMPORT:
        record_batch_failure(session, work.batch_id, finished.failure)
    else:
        settle_failed(session, work, finished.failure)
    return Stored(work.batch_id, 0, [])


class Writer:
    """The main process's side: expect batches, collect what was stored. The pool processes
    hand their parts to `inbox`; the main process only the parts whose process failed."""

    def __init__(self, url: str) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a process running threads
        self._inbox: Any = context.Queue()
        self._outbox: Any = context.Queue()
        args = (url, self._inbox, self._outbox, os.getpid())
        self._process = context.Process(target=_serve, args=args, name=NAME, daemon=True)
        self._process.start()
        self.pending = 0  # batches expected, not yet reported stored

    @property
    def inbox(self) -> Any:
        """Where parts go: passed to each pool process when it starts."""
        return self._inbox

    def expect(self) -> None:
        """One more batch will come, in parts, from the pool."""
        self.pending += 1

    def send(self, part: Part) -> None:
        self._inbox.put(part)

    def collect(self, *, block: bool) -> list[Stored]:
        """What was stored since the last call (with `block`, at least one report, waiting for
        it); the writer's error, raised here, if it stopped on one."""
        reports = [get_from_child(self._outbox, self._process, _gone)] if block else []
        while True:
            try:
                reports.append(self._outbox.get_nowait())
            except queue.Empty:
                break
        stored: list[Stored] = []
        for report in reports:
            if isinstance(report, BaseException):
                raise report
            stored += report
        self.pending -= len(stored)
        return stored

    def close(self, *, cancel: bool = False) -> None:
        """Stop the writer: once it has stored what it was sent, or at once with `cancel`
        (what it had not committed stays pending)."""
        if not cancel and self._process.is_alive():
            self._inbox.put(_STOP)
            self._process.join()
        self._process.terminate()
        self._process.join()
        for channel in (self._inbox, self._outbox):
            channel.close()
            channel.cancel_join_thread()


def _gone(code: int | None) -> NotStored:
    return NotStored(
        f"the process storing results stopped (exit code {code}); run the command again: "
        "what was stored stays, the rest is solved again"
    )


def _serve(url: str, inbox: Any, outbox: Any, parent: int) -> None:
    """The writer: store the batches made whole, a transaction at a time, until told to stop;
    on the database's error, report it and end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops this one
    show_name(NAME)
    exit_with_parent(parent)  # a pool process killed mid-part leaves a part that never ends
    sessions = sessions_at(url)
    gathering = Gathering()
    while (first := get_while_parent(inbox, parent, _STOP)) is not _STOP:
        came = [first, *_waiting(inbox)]
        finished = gathering.add(item for item in came if item is not _STOP)
        try:
            with sessions() as session:
                stored = [store(session, item) for item in finished]
                session.commit()
        except Exception as error:
            ids = ", ".join(str(item.work.batch_id) for item in finished)
            reason = f"batches {ids} were not stored: {failure_reason(error)}"
            put_while_parent(outbox, NotStored(reason), parent)
            return
        if stored and not put_while_parent(outbox, stored, parent):
            return  # the main process is gone
        if _STOP in came:
            return


def _waiting(inbox: Any) -> list[Part | None]:
    """What else is waiting, up to a transaction's worth."""
    items: list[Part | None] = []
    while len(items) < COMMIT_PARTS - 1:
        try:
            items.append(inbox.get_nowait())
        except queue.Empty:
            break
    return items
