"""The import's reader: a file's records in chunks, each ready to store.

A chunk holds its accepted lines, its rejected ones and the canonical form of each distinct
puzzle with its key (`solver.keyed_forms`). For a large file, reading, parsing and canonical
forms are done in a child process, up to `READ_AHEAD` chunks ahead of the process that takes
them, and so is what the caller does with each chunk (`then`: `worker.bulk.producer` stores it
there): the calling process (`run`'s main process, `import`'s) only hands out the work, but
for the first chunks (below). From
`APART_FROM_CORES` cores, `then` runs in a second child, fed by the first: the one that stores
only writes, while the next chunks are made beside it. A small file is read in the calling
process: a child would take longer to start than the file to read. So are a large file's first
chunks (`HEAD_START` records), while its child starts: that takes about a second (a new
interpreter importing the project), and the solvers would wait for it. The child reads those
first records again, only to skip them, and stores nothing before the calling process has
stored its last.

Chunks come in file order, whichever process made them, and a fault of the whole file
(`SourceError`) comes after the chunks read before it, as it would in one process: what was
read before it is stored. The children stop when the parent stops reading, and by themselves
when the parent is gone (killed: a re-run reads the file again and stores nothing twice). The
project's errors met in a child (the file's, or those `then` reports) are raised in the
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
from worker import handover
from worker.files.sources import Accepted, Record, Rejected, read_puzzles

T = TypeVar("T")

READ_AHEAD = 2  # chunks the child may hold ready: memory stays bounded on huge files
READ_AHEAD_FROM = 1_000_000  # bytes from which a file is read in a child process
READER, THEN = "sudoku-reader", "sudoku-chunks"  # the children's names (`show_name`)
# Records of a large file made ready (and passed through `then`) by the calling process while
# its child starts: about a second's worth, the rest of the child's start.
HEAD_START = 16_000
# Cores from which `then` runs in a child of its own: on fewer, the solver's processes keep
# every core busy, and handing the chunks over would only add work.
APART_FROM_CORES = 4


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
    returns, in file order. A large file's are made in a child process after the first
    `HEAD_START` records, `then` too (a module's function, or a partial of one, that opens
    what it needs there)."""
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
    backend, parent, head_done = solver.backend(), os.getpid(), context.Event()
    apart = then is not _same and (os.cpu_count() or 1) >= APART_FROM_CORES
    read: Any = context.Queue(maxsize=READ_AHEAD) if apart else ready  # the chunks made
    made = _same if apart else then
    reading = (path, shown, (*sizes, HEAD_START), made, backend, read, parent, head_done)
    children = [_start(context, READER, _read_ahead, reading)]
    if apart:
        storing = (read, then, backend, ready, parent, head_done)
        children.append(_start(context, THEN, _then_ahead, storing))
    try:
        for records in _head(chunked(read_puzzles(path, shown), *sizes), HEAD_START):
            yield then(prepare(records))
        head_done.set()
        yield from _until_end(lambda: _next(ready, children, shown))
    finally:
        for child in children:  # the parent stopped early, or the children are done
            child.terminate()
            child.join()
        for channel in {ready, read}:
            channel.close()
            channel.cancel_join_thread()


def _head(chunks: Iterator[list[Record]], head: int) -> Iterator[list[Record]]:
    """The first chunks, up to `head` records or just past: the calling process's share of a
    large file (`HEAD_START`). What is left of `chunks` is the child's."""
    taken = 0
    while taken < head and (chunk := next(chunks, None)) is not None:
        yield chunk
        taken += len(chunk)


def _after_head(chunks: Iterator[list[Record]], head: int) -> Iterator[list[Record]]:
    """The chunks past the calling process's share (`_head`: read only to be skipped)."""
    for _ in _head(chunks, head):
        pass
    yield from chunks


def _start(context: Any, name: str, target: Callable[..., None], args: tuple[Any, ...]) -> Any:
    child = context.Process(target=target, args=args, name=name, daemon=True)
    child.start()
    return child


def _next(ready: Any, children: list[Any], shown: str) -> Any:
    """The last child's next item, however long it takes; an error once it is gone with
    nothing left to give, or once one before it that feeds it is gone before its end."""

    def gone(code: int | None) -> ChildProcessError:
        return ChildProcessError(
            f"{shown}: the process reading it stopped (exit code {code}); "
            "run the command again: what was stored stays, the rest is read again"
        )

    *feeding, last = children
    return handover.get_from_child(ready, last, gone, feeding)


def _read_ahead(
    path: Path,
    shown: str,
    sizes: tuple[int, int | None, int],
    then: Callable[[Chunk], Any],
    backend: str,
    ready: Any,
    parent: int,
    head_done: Any,
) -> None:
    """A child: every chunk of the file past the head (`sizes`: a chunk's, the first's, the
    head's) through `then`, then `_End`, or the error that stopped it."""
    size, first, head = sizes
    chunked_records = chunked(read_puzzles(path, shown), size, first)
    chunks = (prepare(records) for records in _after_head(chunked_records, head))
    _hand_over(chunks, then, backend, ready, parent, head_done)


def _then_ahead(
    prepared: Any,
    then: Callable[[Chunk], Any],
    backend: str,
    ready: Any,
    parent: int,
    head_done: Any,
) -> None:
    """A child: what `then` makes of each chunk the reading child made, then `_End`, or the
    error that stopped either."""
    chunks = _until_end(lambda: handover.get_while_parent(prepared, parent, _End()))
    _hand_over(chunks, then, backend, ready, parent, head_done)


def _until_end(take: Callable[[], Any]) -> Iterator[Any]:
    """What a child hands over, taken one by one, until its `_End`; its `_Failed` error raised
    here."""
    while not isinstance(item := take(), _End):
        if isinstance(item, _Failed):
            raise item.error
        yield item


def _hand_over(
    chunks: Iterable[Chunk],
    then: Callable[[Chunk], Any],
    backend: str,
    ready: Any,
    parent: int,
    head_done: Any,
) -> None:
    """In a child: each chunk through `then` (not before the parent has passed its head
    through it, `head_done`), handed over to the parent, then `_End`; or the error that stopped
    it. Ends early once the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops this one
    handover.show_name(multiprocessing.current_process().name)
    handover.exit_with_parent(parent)
    try:
        solver.use_backend(backend)
        for chunk in chunks:
            if not (
                handover.wait_while_parent(head_done, parent)
                and handover.put_while_parent(ready, then(chunk), parent)
            ):
                ready.cancel_join_thread()  # nobody will read what is buffered: exit anyway
                return
        handover.put_while_parent(ready, _End(), parent)
    except SudokuBatchError as exc:  # the file's, or what `then` reports: the parent's
        handover.put_while_parent(ready, _Failed(exc), parent)
    except Exception as exc:  # a fault of this program: its traceback, raised by the parent
        handover.put_while_parent(
            ready, _Failed(RuntimeError("".join(traceback.format_exception(exc)))), parent
        )
