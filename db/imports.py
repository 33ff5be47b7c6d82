"""Importing a collection: puzzles, lines, rejected lines and the batches of work.

Every function takes a Session and never commits: the producer commits each chunk, then
enqueues the `BatchWork` it got back. Each write is idempotent: feeding the same records
again inserts nothing and counts nothing twice.
"""

from __future__ import annotations

from collections.abc import Collection as Sized
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, any_, bindparam, func, insert, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from db.bulk import dialect_of, insert_ignore
from db.counters import advance
from db.errors import CollectionConflict, StorageError
from db.models import Batch, Collection, CollectionPuzzle, Puzzle, RejectedLine, Result

__all__ = [  # CollectionConflict too: importers catch it from here
    "BatchWork",
    "CollectionConflict",
    "add_records",
    "clean_raw_text",
    "get_or_create_collection",
    "mark_queued",
    "unfinished_batches",
]

RAW_TEXT_LIMIT = 200
LOOKUP_PAGE = 2_000  # ids per `IN (...)`: far below SQLite's 32,766 bound parameters

puzzles_table = cast(Table, Puzzle.__table__)
lines_table = cast(Table, CollectionPuzzle.__table__)
rejected_table = cast(Table, RejectedLine.__table__)


@dataclass(frozen=True)
class BatchWork:
    """One batch to solve: exactly what goes into a task message."""

    batch_id: int
    collection_id: int
    puzzles: list[tuple[int, str]]  # (puzzle_id, givens), in line order

    def to_message(self) -> dict[str, Any]:
        """The JSON-ready task message of architecture.md."""
        return {
            "batch_id": self.batch_id,
            "collection_id": self.collection_id,
            "puzzles": [[puzzle_id, givens] for puzzle_id, givens in self.puzzles],
        }


def get_or_create_collection(
    session: Session, name: str, source_file: str, content_hash: str
) -> Collection:
    """The collection called `name`, created if new; `CollectionConflict` if it holds
    another file (same name, different sha256)."""
    values = {"name": name, "source_file": source_file, "content_hash": content_hash}
    insert_ignore(session, cast(Table, Collection.__table__), [values], conflict=("name",))
    found = session.scalars(select(Collection).where(Collection.name == name)).one()
    if found.content_hash != content_hash:
        raise CollectionConflict(
            f"collection {name!r} was imported from {found.source_file} "
            f"(sha256 {found.content_hash[:12]}...), and {source_file} has other content "
            f"(sha256 {content_hash[:12]}...): import it under another name"
        )
    return found


def _pages(session: Session, items: Sized[Any]) -> Iterator[list[Any]]:
    """The items in pages for `_member` (one page on PostgreSQL: an array is one parameter)."""
    ordered = list(items)
    size = len(ordered) or 1 if dialect_of(session) == "postgresql" else LOOKUP_PAGE
    for start in range(0, len(ordered), size):
        yield ordered[start : start + size]


def _member(session: Session, column: Any, values: list[Any]) -> ColumnElement[bool]:
    """`column IN (values)`; on PostgreSQL `= ANY(array)`, one parameter however many."""
    if dialect_of(session) == "postgresql":
        result: ColumnElement[bool] = column == any_(
            bindparam(None, values, type_=ARRAY(column.type))
        )
        return result
    membership: ColumnElement[bool] = column.in_(values)
    return membership


def _puzzle_ids(session: Session, givens: set[str]) -> dict[str, int]:
    """Insert the puzzles not yet known; givens -> id for all of them."""
    for grid in givens:
        if len(grid) != 81:
            raise ValueError(f"givens must be 81 characters, got {len(grid)}: {grid[:90]!r}")
    rows = [{"givens": g, "givens_count": 81 - g.count(".")} for g in sorted(givens)]
    insert_ignore(session, puzzles_table, rows, conflict=("givens",))
    ids: dict[str, int] = {}
    for page in _pages(session, givens):
        ids.update(
            session.execute(
                select(Puzzle.givens, Puzzle.id).where(_member(session, Puzzle.givens, page))
            ).all()
        )
    return ids


def _solved(session: Session, puzzle_ids: Sized[int]) -> set[int]:
    found: set[int] = set()
    for page in _pages(session, puzzle_ids):
        found.update(
            session.scalars(
                select(Result.puzzle_id).where(_member(session, Result.puzzle_id, page))
            )
        )
    return found


def _first_lines(session: Session, collection_id: int, puzzle_ids: Sized[int]) -> dict[int, int]:
    """puzzle_id -> its first line already stored in the collection."""
    first: dict[int, int] = {}
    for page in _pages(session, puzzle_ids):
        stmt = (
            select(CollectionPuzzle.puzzle_id, func.min(CollectionPuzzle.line))
            .where(CollectionPuzzle.collection_id == collection_id)
            .where(_member(session, CollectionPuzzle.puzzle_id, page))
            .group_by(CollectionPuzzle.puzzle_id)
        )
        first.update(session.execute(stmt).all())
    return first


def _stored_lines(session: Session, collection_id: int, lines: list[int]) -> set[int]:
    """The lines among `lines` the collection already holds (a replayed chunk)."""
    stored: set[int] = set()
    for page in _pages(session, lines):
        stmt = select(CollectionPuzzle.line).where(
            CollectionPuzzle.collection_id == collection_id,
            _member(session, CollectionPuzzle.line, page),
        )
        stored.update(session.scalars(stmt))
    return stored


def _make_batches(
    session: Session,
    collection_id: int,
    todo: list[dict[str, Any]],
    batch_size: int,
    givens_of: dict[int, str],
) -> list[BatchWork]:
    """Cut the line rows to solve into batches, setting their batch_id before insertion
    (an UPDATE afterwards would cost four index entries and a foreign-key check per line)."""
    work = []
    for start in range(0, len(todo), batch_size):
        part = todo[start : start + batch_size]
        batch_id = session.execute(
            insert(Batch).values(collection_id=collection_id, size=len(part)).returning(Batch.id)
        ).scalar_one()
        for row in part:
            row["batch_id"] = batch_id
        puzzles = [(row["puzzle_id"], givens_of[row["puzzle_id"]]) for row in part]
        work.append(BatchWork(batch_id, collection_id, puzzles))
    return work


def clean_raw_text(raw: str) -> str:
    """The text cut to 200 characters, NUL and undecodable bytes escaped for PostgreSQL."""
    text = raw[:RAW_TEXT_LIMIT].replace("\x00", "\\x00")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _add_rejected(
    session: Session, collection_id: int, rejected: Iterable[tuple[int, str, str, int | None]]
) -> int:
    rows = [
        {
            "collection_id": collection_id,
            "line": line,
            "raw_text": clean_raw_text(raw),
            "reason": reason,
            "column": column,
        }
        for line, raw, reason, column in rejected
    ]
    return len(
        insert_ignore(
            session, rejected_table, rows, conflict=("collection_id", "line"), returning=("line",)
        )
    )


def add_records(
    session: Session,
    collection_id: int,
    accepted: list[tuple[int, str]],
    rejected: list[tuple[int, str, str, int | None]],
    batch_size: int,
) -> list[BatchWork]:
    """Store one chunk of a file's records; the new batches to enqueue after commit.

    `accepted` holds (line, givens) already normalised to 81 characters; `rejected` holds
    (line, raw_text, reason, column). Chunks must arrive in line order for duplicates to be
    told apart from first occurrences.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    ids = _puzzle_ids(session, {givens for _, givens in accepted})
    solved = _solved(session, ids.values())
    first = _first_lines(session, collection_id, ids.values())
    for line, givens in accepted:
        first[ids[givens]] = min(first.get(ids[givens], line), line)
    stored = _stored_lines(session, collection_id, [line for line, _ in accepted])
    rows = [
        {
            "collection_id": collection_id,
            "line": line,
            "puzzle_id": ids[givens],
            "is_duplicate": line != first[ids[givens]],
            "batch_id": None,
        }
        for line, givens in sorted(accepted)
        if line not in stored
    ]
    new = [row for row in rows if not row["is_duplicate"]]
    todo = [row for row in new if row["puzzle_id"] not in solved]
    givens_of = {pid: givens for givens, pid in ids.items()}
    work = _make_batches(session, collection_id, todo, batch_size, givens_of)
    inserted = insert_ignore(
        session, lines_table, rows, conflict=("collection_id", "line"), returning=("line",)
    )
    if len(inserted) != len(rows):  # only a concurrent import of the same file gets here
        raise StorageError(
            f"collection {collection_id}: lines were added while this chunk was written; "
            "import a collection from one process at a time"
        )
    n_rejected = _add_rejected(session, collection_id, rejected)
    advance(
        session,
        collection_id,
        lines_read=len(rows) + n_rejected,
        accepted=len(new),
        duplicates=len(rows) - len(new),
        rejected=n_rejected,
        total=len(new),
        done=len(new) - len(todo),
    )
    return work


def unfinished_batches(
    session: Session, collection_id: int, *, never_queued: bool = False
) -> Iterator[BatchWork]:
    """The pending batches of a collection with their puzzles (only those never sent to the
    queue, with `never_queued`), to solve or enqueue again."""
    stmt = (
        select(Batch.id, CollectionPuzzle.puzzle_id, Puzzle.givens)
        .join(CollectionPuzzle, CollectionPuzzle.batch_id == Batch.id)
        .join(Puzzle, Puzzle.id == CollectionPuzzle.puzzle_id)
        .where(Batch.collection_id == collection_id, Batch.status == "pending")
        .order_by(Batch.id, CollectionPuzzle.line)
        .execution_options(yield_per=10_000)
    )
    if never_queued:
        stmt = stmt.where(Batch.queued_at.is_(None))
    rows = session.execute(stmt)
    for batch_id, group in groupby(rows, key=lambda row: row[0]):
        yield BatchWork(batch_id, collection_id, [(pid, givens) for _, pid, givens in group])


def mark_queued(session: Session, batch_ids: Iterable[int]) -> None:
    """Record that these batches were sent to the queue now."""
    ids = list(batch_ids)
    for start in range(0, len(ids), LOOKUP_PAGE):
        page = ids[start : start + LOOKUP_PAGE]
        session.execute(update(Batch).where(Batch.id.in_(page)).values(queued_at=func.now()))
