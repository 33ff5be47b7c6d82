"""Importing a collection: puzzles, lines, rejected lines and the batches of work.

Every function takes a Session and never commits: the producer commits each chunk, then
enqueues the `BatchWork` it got back. Each write is idempotent: feeding the same records
again inserts nothing and counts nothing twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any, cast

from sqlalchemy import Table, func, insert, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from db.bulk import dialect_of, insert_rows
from db.counters import advance
from db.errors import CollectionConflict, StorageError
from db.known import LOOKUP_PAGE, Forms, Known, held_by, puzzles_of, stored_lines
from db.models import (
    PENDING,
    PRODUCER,
    Batch,
    BatchPuzzle,
    Collection,
    CollectionPuzzle,
    Puzzle,
    RejectedLine,
)
from db.raw_text import clean_raw_text
from db.removal import empty_collection
from db.tiers import BATCH_KINDS, IMPORT

__all__ = [  # CollectionConflict too: importers catch it from here
    "BatchWork",
    "CollectionConflict",
    "add_records",
    "batches_by_id",
    "get_or_create_collection",
    "mark_queued",
    "unfinished_batches",
    "unqueue_pending",
]

lines_table = cast(Table, CollectionPuzzle.__table__)
rejected_table = cast(Table, RejectedLine.__table__)
LINE_COLUMNS = ("collection_id", "line", "puzzle_id", "batch_id", "is_duplicate")
REJECTED_COLUMNS = ("collection_id", "line", "column", "raw_text", "reason")


@dataclass(frozen=True)
class BatchWork:
    """One batch to solve: exactly what goes into a task message."""

    batch_id: int
    collection_id: int
    puzzles: list[tuple[int, str]]  # (puzzle_id, givens), in line order
    keep_paths: bool = False  # its collection keeps solving paths (import --paths)
    kind: str = IMPORT  # db.tiers.BATCH_KINDS

    def __post_init__(self) -> None:
        if self.kind not in BATCH_KINDS:
            raise ValueError(f"batch kind {self.kind!r}: expected one of {', '.join(BATCH_KINDS)}")

    def to_message(self) -> dict[str, Any]:
        """The JSON-ready task message of architecture.md (`keep_paths` only when true, `kind`
        only when not an import's: messages of earlier releases still decode)."""
        message: dict[str, Any] = {
            "batch_id": self.batch_id,
            "collection_id": self.collection_id,
            "puzzles": [[puzzle_id, givens] for puzzle_id, givens in self.puzzles],
        }
        if self.keep_paths:
            message["keep_paths"] = True
        if self.kind != IMPORT:
            message["kind"] = self.kind
        return message


def get_or_create_collection(
    session: Session,
    name: str,
    source_file: str,
    content_hash: str,
    *,
    replace: bool = False,
    keep_paths: bool = False,
) -> Collection:
    """The collection called `name` for the file with this sha256, created if new (with
    `keep_paths`, it keeps its solved puzzles' solving paths from now on).

    The same content finds the collection as it was (an interrupted import resumes). Other
    content takes its place when the collection holds no line yet (an empty or failed
    import) or with `replace` (its lines, rejected lines and batches are removed first);
    otherwise it raises `CollectionConflict`.
    """
    values = {"name": name, "source_file": source_file, "content_hash": content_hash}
    dialect_insert = postgresql.insert if dialect_of(session) == "postgresql" else sqlite.insert
    session.execute(dialect_insert(Collection).values(values).on_conflict_do_nothing())
    stmt = select(Collection).where(Collection.name == name)
    found = session.scalars(stmt.execution_options(populate_existing=True)).one()
    if keep_paths and not found.keeps_paths:
        found.keeps_paths = True
    if found.origin == PRODUCER:
        raise CollectionConflict(
            f"collection {name!r} holds puzzles pushed by producers: import the file under "
            "another name (--collection)"
        )
    if found.content_hash == content_hash:
        return found
    if not (replace or found.lines_read == 0):
        raise CollectionConflict(
            f"collection {name!r} was imported from {found.source_file} "
            f"(sha256 {found.content_hash[:12]}...), and {source_file} has other content "
            f"(sha256 {content_hash[:12]}...): import it under another name (--collection), "
            "or replace the collection (--replace)"
        )
    empty_collection(session, found.id)
    session.execute(
        update(Collection)
        .where(Collection.id == found.id)
        .values(source_file=source_file, content_hash=content_hash, imported_at=func.now())
    )
    return session.get_one(Collection, found.id, populate_existing=True)


@dataclass
class _Lines:
    """A chunk's lines to store: `[line, puzzle_id, batch_id, is_duplicate, givens]` each,
    and the indices of those whose puzzle is new to the collection and not solved yet."""

    rows: list[list[Any]]
    todo: list[int]
    new: int  # lines holding a puzzle the collection did not hold before


def _classify(accepted: list[tuple[int, str]], known: Known, stored: set[int]) -> _Lines:
    """Each line's puzzle and whether it is a duplicate. Chunks are stored whole and in file
    order, so a puzzle the collection holds sits on an earlier line than any line not stored."""
    ids, held = known.ids, known.held
    seen: set[int] = set()  # puzzle ids on earlier lines of this chunk
    lines = _Lines([], [], 0)
    for line, givens in accepted:
        puzzle_id = ids[givens]
        duplicate = puzzle_id in held or puzzle_id in seen
        seen.add(puzzle_id)
        if line in stored:
            continue
        if not duplicate:
            lines.new += 1
            if puzzle_id not in known.solved:
                lines.todo.append(len(lines.rows))
        lines.rows.append([line, puzzle_id, None, duplicate, givens])
    return lines


def _lines_of(
    session: Session,
    collection_id: int,
    accepted: list[tuple[int, str]],
    puzzles: tuple[Known, list[int]] | None,
    forms: Forms | None,
) -> _Lines:
    """Store the new puzzles of these lines (in line order, with their canonical `forms` when
    known), unless `puzzles` says they are stored (`db.known.stored_puzzles`); the lines to
    store."""
    if not accepted:
        return _Lines([], [], 0)
    wrong = next((givens for _, givens in accepted if len(givens) != 81), None)
    if wrong is not None:
        raise ValueError(f"givens must be 81 characters, got {len(wrong)}: {wrong[:90]!r}")
    if puzzles is None:
        known = puzzles_of(session, collection_id, accepted, forms)
    else:
        known = held_by(session, collection_id, *puzzles)
    stored = stored_lines(session, collection_id, accepted[0][0], accepted[-1][0])
    return _classify(accepted, known, stored)


def _make_batches(
    session: Session, collection_id: int, lines: _Lines, batch_size: int, keep_paths: bool
) -> list[BatchWork]:
    """Cut the lines to solve into batches, setting their batch_id before insertion
    (an UPDATE afterwards would cost four index entries and a foreign-key check per line)."""
    parts = [
        [lines.rows[i] for i in lines.todo[start : start + batch_size]]
        for start in range(0, len(lines.todo), batch_size)
    ]
    if not parts:
        return []
    new_batches = insert(Batch).returning(Batch.id, sort_by_parameter_order=True)
    values = [{"collection_id": collection_id, "size": len(part)} for part in parts]
    batch_ids = session.scalars(new_batches, values).all()
    work = []
    for batch_id, part in zip(batch_ids, parts, strict=True):
        for row in part:
            row[2] = batch_id
        puzzles = [(row[1], row[4]) for row in part]
        work.append(BatchWork(batch_id, collection_id, puzzles, keep_paths))
    return work


def _add_rejected(
    session: Session, collection_id: int, rejected: Iterable[tuple[int, str, str, int | None]]
) -> int:
    rows = [
        (collection_id, line, column, clean_raw_text(raw), reason)
        for line, raw, reason, column in rejected
    ]
    if not rows:
        return 0
    return insert_rows(
        session, rejected_table, REJECTED_COLUMNS, rows, conflict=("collection_id", "line")
    )


def add_records(
    session: Session,
    collection_id: int,
    accepted: list[tuple[int, str]],
    rejected: list[tuple[int, str, str, int | None]],
    batch_size: int,
    puzzles: tuple[Known, list[int]] | None = None,
    *,
    forms: Forms | None = None,
    keep_paths: bool = False,
) -> list[BatchWork]:
    """Store one chunk of a file's records; the new batches to enqueue after commit (their
    paths kept with `keep_paths`, as the collection asks).

    `accepted` holds (line, givens) already normalised to 81 characters; `rejected` holds
    (line, raw_text, reason, column). Chunks must arrive in line order for duplicates to be
    told apart from first occurrences. `puzzles`: what `db.known.stored_puzzles` said of
    these puzzles, when the caller stored them already; `forms`: the canonical form of every
    accepted puzzle and its key, when the caller made them (`worker.files.reader`).
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    lines = _lines_of(session, collection_id, sorted(accepted), puzzles, forms)
    work = _make_batches(session, collection_id, lines, batch_size, keep_paths)
    rows = ((collection_id, *row[:4]) for row in lines.rows)
    inserted = insert_rows(
        session, lines_table, LINE_COLUMNS, rows, conflict=("collection_id", "line")
    )
    if inserted != len(lines.rows):  # only a concurrent import of the same file gets here
        raise StorageError(
            f"collection {collection_id}: lines were added while this chunk was written; "
            "import a collection from one process at a time"
        )
    n_rejected = _add_rejected(session, collection_id, rejected)
    advance(
        session,
        collection_id,
        lines_read=len(lines.rows) + n_rejected,
        accepted=lines.new,
        duplicates=len(lines.rows) - lines.new,
        rejected=n_rejected,
        total=lines.new,
        done=lines.new - len(lines.todo),
    )
    return work


def unfinished_batches(
    session: Session,
    collection_id: int,
    *,
    never_queued: bool = False,
    kinds: Iterable[str] = BATCH_KINDS,
) -> Iterator[BatchWork]:
    """The pending batches of these `kinds` of a collection with their puzzles (only those
    never sent to the queue, with `never_queued`), to solve or enqueue again."""
    where = [
        Batch.collection_id == collection_id,
        Batch.status == PENDING,
        Batch.kind.in_(list(kinds)),
    ]
    if never_queued:
        where.append(Batch.queued_at.is_(None))
    return _works(session, where)


def batches_by_id(session: Session, batch_ids: Iterable[int]) -> list[BatchWork]:
    """The named batches with their puzzles, whatever their status."""
    ids = sorted(set(batch_ids))
    return [
        work
        for start in range(0, len(ids), LOOKUP_PAGE)
        for work in _works(session, [Batch.id.in_(ids[start : start + LOOKUP_PAGE])])
    ]


def _works(session: Session, where: list[Any]) -> Iterator[BatchWork]:
    """The batches matching `where`, each with its puzzles: an import batch's in line order
    (its lines), then the rerate and deep batches' (batch_puzzles), by puzzle id."""
    lines = (
        select(
            Batch.id,
            Batch.collection_id,
            Collection.keeps_paths,
            Batch.kind,
            CollectionPuzzle.puzzle_id,
            Puzzle.givens,
        )
        .join(CollectionPuzzle, CollectionPuzzle.batch_id == Batch.id)
        .join(Puzzle, Puzzle.id == CollectionPuzzle.puzzle_id)
        .join(Collection, Collection.id == Batch.collection_id)
        .where(*where, Batch.kind == IMPORT)
        .order_by(Batch.id, CollectionPuzzle.line)
    )
    rated = (
        select(
            Batch.id,
            Batch.collection_id,
            Collection.keeps_paths,
            Batch.kind,
            BatchPuzzle.puzzle_id,
            Puzzle.givens,
        )
        .join(BatchPuzzle, BatchPuzzle.batch_id == Batch.id)
        .join(Puzzle, Puzzle.id == BatchPuzzle.puzzle_id)
        .join(Collection, Collection.id == Batch.collection_id)
        .where(*where, Batch.kind != IMPORT)
        .order_by(Batch.id, BatchPuzzle.puzzle_id)
    )
    for stmt in (lines, rated):
        rows = session.execute(stmt.execution_options(yield_per=10_000))
        for (batch_id, collection_id, paths, kind), group in groupby(rows, key=lambda r: r[:4]):
            puzzles = [(pid, givens) for *_, pid, givens in group]
            yield BatchWork(batch_id, collection_id, puzzles, paths, kind)


def unqueue_pending(session: Session) -> int:
    """Mark every pending batch as never sent (its message was purged): the workers'
    lost-batch check leaves it alone, and importing its file again sends it. How many."""
    stmt = (
        update(Batch)
        .where(Batch.status == PENDING, Batch.queued_at.is_not(None))
        .values(queued_at=None)
        .returning(Batch.id)
    )
    return len(session.scalars(stmt).all())


def mark_queued(session: Session, batch_ids: Iterable[int]) -> None:
    """Record that these batches were sent to the queue now."""
    ids = list(batch_ids)
    for start in range(0, len(ids), LOOKUP_PAGE):
        page = ids[start : start + LOOKUP_PAGE]
        session.execute(update(Batch).where(Batch.id.in_(page)).values(queued_at=func.now()))


# PostgreSQL's autovacuum analyzes a table again once a tenth of its rows changed (the default
# autovacuum_analyze_scale_factor), some time later; an import of as many lines does it at once.
ANALYZE_SHARE = 0.1
_COUNTED_ROWS = text("SELECT reltuples FROM pg_class WHERE oid = CAST(:table AS regclass)")


def refresh_statistics(session: Session, collection_id: int) -> bool:
    """On PostgreSQL, ANALYZE `collection_puzzles` when the collection's lines are a tenth or
    more of the rows its statistics last counted (or it was never analyzed); whether it did.
    Right after a bulk import the planner would take a large collection for a few hundred
    lines (no statistics of `collection_id` yet) and join it to its results by an index probe
    a line, with sorts on disk: the closing summary took twice as long (docs: Benchmarks).
    Not committed: the caller commits."""
    if dialect_of(session) != "postgresql":
        return False
    table = CollectionPuzzle.__tablename__
    counted = session.scalar(_COUNTED_ROWS, {"table": table})
    lines = session.scalar(select(Collection.lines_read).where(Collection.id == collection_id))
    never = counted is None or counted < 0  # -1: the table was never analyzed
    if lines is None or (not never and lines < ANALYZE_SHARE * counted):
        return False
    session.execute(text(f"ANALYZE {table}"))
    return True
