"""Removing what a collection holds: `delete` takes the whole collection, `--replace` and a
failed or empty import its contents.

A collection owns its lines (`collection_puzzles`), its rejected lines and its batches; they
go with it. Puzzles and results are shared: a puzzle is stored once whichever collections hold
it, and its result is the solver's verdict on those 81 characters, valid for any collection.
They stay, even when no collection holds the puzzle any more, so importing it again later
solves nothing (`puzzles` is "every distinct puzzle ever imported"). `prune_orphans` reclaims
their space (`sudoku-batch db prune`): the puzzles no line holds, with what refers to them.

Every function takes a Session and never commits. Lines go first: deleting a batch first
would set `batch_id` to NULL on each of its lines, one update per line.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from sqlalchemy import ColumnElement, Table, delete, select, text, update
from sqlalchemy.orm import Session

from db.bulk import dialect_of
from db.counters import COUNTERS, collections_table
from db.errors import UnknownCollection
from db.models import (
    Batch,
    BatchPuzzle,
    Collection,
    CollectionPuzzle,
    Puzzle,
    RejectedLine,
    Result,
    SolvingPath,
    Submission,
)

lines_table = cast(Table, CollectionPuzzle.__table__)
rejected_table = cast(Table, RejectedLine.__table__)
batches_table = cast(Table, Batch.__table__)
submissions_table = cast(Table, Submission.__table__)


class Removed(NamedTuple):
    """What a collection held: rows removed from each of its tables."""

    lines: int
    rejected: int
    batches: int


def find_collection(session: Session, name: str) -> Collection:
    """The collection called `name`; `UnknownCollection` if there is none."""
    found = session.scalars(select(Collection).where(Collection.name == name)).one_or_none()
    if found is None:
        raise UnknownCollection(f"no collection named {name!r}")
    return found


def _delete(session: Session, table: Table, *where: ColumnElement[bool]) -> int:
    """Delete the rows of `table` matching `where` (Core: no ORM bookkeeping per row)."""
    result = session.connection().execute(delete(table).where(*where))
    return result.rowcount


def empty_collection(session: Session, collection_id: int) -> Removed:
    """Remove the collection's lines, rejected lines and batches (and the submissions of a
    producer collection), and zero its counters."""
    _delete(session, submissions_table, submissions_table.c.collection_id == collection_id)
    removed = Removed(
        *(
            _delete(session, table, table.c.collection_id == collection_id)
            for table in (lines_table, rejected_table, batches_table)
        )
    )
    zero = dict.fromkeys(COUNTERS, 0)
    session.execute(update(collections_table).where(collections_table.c.id == collection_id), zero)
    return removed


def delete_collection(session: Session, name: str) -> Removed:
    """Delete the collection called `name` with its lines, rejected lines and batches (not its
    puzzles nor their results: see the module); what it held."""
    found = find_collection(session, name)
    removed = empty_collection(session, found.id)
    _delete(session, collections_table, collections_table.c.id == found.id)
    session.expunge(found)
    return removed


def drop_if_empty(session: Session, collection_id: int) -> bool:
    """Delete the collection if it holds no line at all (an empty file, or an import that
    failed before its first line); True when it did, and its name is free again."""
    table = collections_table.c
    return bool(
        _delete(session, collections_table, table.id == collection_id, table.lines_read == 0)
    )


class Pruned(NamedTuple):
    """What `prune_orphans` removed: rows of each table."""

    puzzles: int
    results: int
    paths: int


def prune_orphans(session: Session) -> Pruned:
    """Remove the puzzles no collection's line holds any more, with their results, solving
    paths and places in rating batches (those first: they refer to the puzzles).

    No foreign key keeps a line from naming a puzzle deleted here (docs: Architecture,
    "References kept by the code"), so no import may store puzzles meanwhile: on PostgreSQL
    the puzzles are locked against writes until commit (an import's puzzles go first, so an
    import under way is waited for, and one that starts waits); SQLite takes one writer at a
    time anyway."""
    if dialect_of(session) == "postgresql":
        session.execute(text("LOCK TABLE puzzles IN SHARE ROW EXCLUSIVE MODE"))
    held = select(CollectionPuzzle.puzzle_id)
    paths = _delete(session, cast(Table, SolvingPath.__table__), SolvingPath.puzzle_id.not_in(held))
    _delete(session, cast(Table, BatchPuzzle.__table__), BatchPuzzle.puzzle_id.not_in(held))
    results = _delete(session, cast(Table, Result.__table__), Result.puzzle_id.not_in(held))
    puzzles = _delete(session, cast(Table, Puzzle.__table__), Puzzle.id.not_in(held))
    return Pruned(puzzles, results, paths)
