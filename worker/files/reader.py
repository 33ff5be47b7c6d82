"""The import's reader: a file's records in chunks, each ready to store.

A chunk holds its accepted lines, its rejected ones and the canonical form of each distinct
puzzle with its key (`solver.keyed_forms`). For a large file, reading, parsing, canonical forms
and what the caller does with each chunk (`then`: `worker.bulk.producer` stores it there) are
done in a child process, up to `READ_AHEAD` chunks ahead of the process that takes them: that one
(`run`'s main process, `import`'s) then only hands out the work. A small file is read in the
calling process: a child would take longer to start than the file to read.

Chunks come in file order, whichever process made them, and a fault of the whole file
(`SourceError`) comes after the chunks read before it, as it would in one process: what was
read before it is stored. The child stops when the parent stops reading, and by itself when
the parent is gone (killed: a re-run reads the file again and stores nothing twice). The
project's errors met in the child (the file's, or those `then` reports) are raised in the
parent as they are, any other as a RuntimeError holding the child's traceback.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar, overload

import solver
from solver.errors import SudokuBatchError
from worker.files.sources import Accepted, Record, Rejected, read_puzzles
from worker.handover import get_from_child, put_while_parent

T = TypeVar("T")

READ_AHEAD = 2  # chunks the child may hold ready: memory stays bounded on huge files
READ_AHEAD_FROM = 1_000_000  # bytes from which a file is read in a child process


@dataclass(frozen=True)
class Chunk:
    """Records of a file ready to store: (line, givens) accepted, in file order; (line, raw
    text, reason, column) rejected; and givens -> (canonical form, its key) for every accepted
    puzzle."""

    accepted: list[tuple[int, str]]
    rejected: list[tuple[int, str, str, int | None]]
    forms: dict[str, tuple[str, int]]


@dataclass(frozen=True)
class _End:
    """The child read the whole file."""


@dataclass(frozen=True)
class _Failed:
    """The child stopped on this error (raised again in the parent)."""

    error: BaseException


def chunked(
    records: Iterable[Record], size: int, first: int | None = None
) -> Iterator[list[Record]]:
    """Lists of up to `size` records, read lazily; from `first` records, where given, each
    list twice the last up to `size` (the first chunks stored soon, the later ones in large
    transactions)."""
    iterator = iter(records)
    count = min(first or size, size)
    while chunk := list(islice(iterator, count)):
        yield chunk
        count = min(2 * count, size)


def prepare(records: list[Record]) -> Chunk:
    """One chunk of records, ready to store."""
    accepted = [(r.line, r.puzzle) for r in records if isinstance(r, Accepted)]
    rejected = [(r.line, r.raw, r.reason, r.column) for r in records if isinstance(r, Rejected)]
    return Chunk(accepted, rejected, solver.keyed_forms(givens for _, givens in accepted))


def _same(chunk: Chunk) -> Chunk:
    return chunk


@overload
def read_chunks(
    path: Path, shown: str, size: int, *, first: int | None = None
) -> Iterator[Chunk]: ...
@overload
def read_chunks(
    path: Path, shown: str, size: int, then: Callable[[Chunk], T], *, first: int | None = None
) -> Iterator[T]: ...
def read_chunks(
    path: Path,
    shown: str,
    size: int,
    then: Callable[[Chunk], Any] = _same,
    *,
    first: int | None = None,
) -> Iterator[Any]:
    """The records of the file at `path` (named `shown` in messages), `size` a chunk (growing
    from `first`: `chunked`), each chunk ready to store and passed through `then`: what it
    returns, in file order. A large file's are made in a child process, `then` too (a
    module's function, or a partial of one, that opens what it needs there)."""
    if not reads_in_child(path):
        for records in chunked(read_puzzles(path, shown), size, first):
            yield then(prepare(records))
        return
    yield from _from_child(path, shown, (size, first), then)


def reads_in_child(path: Path) -> bool:
    """Whether the file at `path` is read in a child process."""
    return path.stat().st_size >= READ_AHEAD_FROM


def _from_child(
    path: Path, shown: str, sizes: tuple[int, int | None], then: Callable[[Chunk], Any]
) -> Iterator[Any]:
    context = multiprocessing.get_context("spawn")  # no fork of a process running threads
    ready: Any = context.Queue(maxsize=READ_AHEAD)
    args = (path, shown, sizes, then, solver.backend(), ready, os.getpid())
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


def _next(ready: Any, child: Any, shown: str) -> Any:
    """The child's next item, however long it takes; an error once the child is gone with
    nothing left to give."""

    def gone(code: int | None) -> ChildProcessError:
        return ChildProcessError(
            f"{shown}: the process reading it stopped (exit code {code}); "
            "run the command again: what was stored stays, the rest is read again"
        )

    return get_from_child(ready, child, gone)


def _read_ahead(
    path: Path,
    shown: str,
    sizes: tuple[int, int | None],
    then: Callable[[Chunk], Any],
    backend: str,
    ready: Any,
    parent: int,
) -> None:
    """The child: every chunk of the file through `then`, then `_End`, or the error that
    stopped it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops this one
    try:
        solver.use_backend(backend)
        for records in chunked(read_puzzles(path, shown), *sizes):
            if not put_while_parent(ready, then(prepare(records)), parent):
                ready.cancel_join_thread()  # nobody will read what is buffered: exit anyway
                return
        put_while_parent(ready, _End(), parent)
    except SudokuBatchError as exc:  # the file's fault, or what `then` reports: the parent's
        put_while_parent(ready, _Failed(exc), parent)
    except Exception as exc:  # a fault of this program: its traceback, raised by the parent
        put_while_parent(
            ready, _Failed(RuntimeError("".join(traceback.format_exception(exc)))), parent
        )
