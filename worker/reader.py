"""The import's reader: a file's records in chunks, each ready to store.

A chunk holds its accepted lines, its rejected ones and the canonical form of each distinct
puzzle (`solver.canonical_forms`). Reading, parsing and canonical forms cost about a third of
the CPU an import spends on each puzzle, so for a large file they are done in a child
process, up to `READ_AHEAD` chunks ahead of the process that stores them (`import` and
`run`: that one process is SQLite's only writer, and it can only write faster if it does
nothing else). A small file is read in the storing process: a child would take longer to
start than the file to read.

Chunks come in file order, whichever process made them, and a fault of the whole file
(`SourceError`) comes after the chunks read before it, as it would in one process: what was
read before it is stored. The child stops when the parent stops reading, and by itself when
the parent is gone (killed: a re-run reads the file again and stores nothing twice).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import solver
from worker.errors import SourceError
from worker.sources import Accepted, Record, Rejected, read_puzzles

READ_AHEAD = 2  # chunks the child may hold ready: memory stays bounded on huge files
READ_AHEAD_FROM = 1_000_000  # bytes from which a file is read in a child process
_WAIT = 1.0  # seconds between checks that the other process is still there


@dataclass(frozen=True)
class Chunk:
    """Records of a file ready to store: (line, givens) accepted, in file order; (line, raw
    text, reason, column) rejected; and givens -> canonical form for every accepted puzzle."""

    accepted: list[tuple[int, str]]
    rejected: list[tuple[int, str, str, int | None]]
    forms: dict[str, str]


@dataclass(frozen=True)
class _End:
    """The child read the whole file."""


@dataclass(frozen=True)
class _Failed:
    """The child stopped on this error (raised again in the parent)."""

    error: BaseException


def chunked(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    """Lists of up to `size` records, read lazily."""
    iterator = iter(records)
    while chunk := list(islice(iterator, size)):
        yield chunk


def prepare(records: list[Record]) -> Chunk:
    """One chunk of records, ready to store."""
    accepted = [(r.line, r.puzzle) for r in records if isinstance(r, Accepted)]
    rejected = [(r.line, r.raw, r.reason, r.column) for r in records if isinstance(r, Rejected)]
    return Chunk(accepted, rejected, solver.canonical_forms(givens for _, givens in accepted))


def read_chunks(path: Path, shown: str, size: int) -> Iterator[Chunk]:
    """The records of the file at `path` (named `shown` in messages), `size` a chunk, each
    chunk ready to store; a large file's are made in a child process."""
    if path.stat().st_size < READ_AHEAD_FROM:
        for records in chunked(read_puzzles(path, shown), size):
            yield prepare(records)
        return
    yield from _from_child(path, shown, size)


def _from_child(path: Path, shown: str, size: int) -> Iterator[Chunk]:
    context = multiprocessing.get_context("spawn")  # no fork of a process running threads
    ready: Any = context.Queue(maxsize=READ_AHEAD)
    args = (path, shown, size, solver.backend(), ready, os.getpid())
    child = context.Process(target=_read_ahead, args=args, name="sudoku-batch reader", daemon=True)
    child.start()
    try:
        while not isinstance(item := _next(ready, child, shown), _End):
            if isinstance(item, _Failed):
                raise item.error
            yield item
    finally:
        child.terminate()  # the parent stopped early, or the child is done
        child.join()
        ready.close()
        ready.cancel_join_thread()


def _next(ready: Any, child: Any, shown: str) -> Chunk | _End | _Failed:
    """The child's next item, however long it takes; an error once the child is gone with
    nothing left to give."""
    while True:
        try:
            item: Chunk | _End | _Failed = ready.get(timeout=_WAIT)
            return item
        except queue.Empty:
            if not child.is_alive() and ready.empty():  # what it sent before it ended is read
                raise ChildProcessError(
                    f"{shown}: the process reading it stopped (exit code {child.exitcode}); "
                    "run the command again: what was stored stays, the rest is read again"
                ) from None


def _read_ahead(path: Path, shown: str, size: int, backend: str, ready: Any, parent: int) -> None:
    """The child: every chunk of the file, then `_End`, or the error that stopped it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops this one
    try:
        solver.use_backend(backend)
        for records in chunked(read_puzzles(path, shown), size):
            if not _put(ready, prepare(records), parent):
                ready.cancel_join_thread()  # nobody will read what is buffered: exit anyway
                return
        _put(ready, _End(), parent)
    except SourceError as exc:  # a fault of the file: the parent reports it as its own
        _put(ready, _Failed(exc), parent)
    except Exception as exc:  # a fault of this program: its traceback, raised by the parent
        _put(ready, _Failed(RuntimeError("".join(traceback.format_exception(exc)))), parent)


def _put(ready: Any, item: object, parent: int) -> bool:
    """Hand `item` over, waiting while the parent has READ_AHEAD chunks unread; False once
    the parent is gone (this process then ends)."""
    while os.getppid() == parent:
        try:
            ready.put(item, timeout=_WAIT)
            return True
        except queue.Full:
            continue
    return False
