"""What the database already knows of a chunk of accepted lines, its new puzzles stored first.

`puzzles_of` stores the chunk's new puzzles and tells each puzzle's id, which have a result and
which the collection already holds. On PostgreSQL the puzzles are first taken as all new: their
ids drawn from the table's sequence, the rows COPied straight into `puzzles` (about two thirds of
the server's CPU of an `INSERT ... SELECT` from a stage: no stage, no sort, nothing returned). When
one is stored already, or being stored by another transaction, that is undone and, as on
SQLite, the chunk goes through a temporary stage table and one set-based statement. A puzzle
stored now has neither a result nor a line, so the lookups below run only for puzzles seen
before (none in a first import), each an index scan: `IN (...)` pages on SQLite, `= ANY(array)`
on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Collection as Sized
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, any_, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

import solver
from db.bulk import copy_new, dialect_of, driver_connection, insert_new, not_stored, stage_rows
from db.models import CollectionPuzzle, Puzzle, Result

LOOKUP_PAGE = 2_000  # values per `IN (...)`: far below SQLite's 32,766 bound parameters
STAGE = "_stage_lines"
PUZZLE_COLUMNS = ("givens", "givens_count", "canonical", "canonical_key")  # the stage's, less line
# The stage's line: on SQLite the rowid, so the table is read in line order for free.
_LINE = {"sqlite": "integer PRIMARY KEY", "postgresql": "integer NOT NULL"}


def _stage_columns(dialect: str) -> dict[str, str]:
    """The stage's columns (name -> SQL type): the line, then `PUZZLE_COLUMNS` typed as the
    model types them on this dialect."""
    compiler = {"sqlite": sqlite.dialect, "postgresql": postgresql.dialect}[dialect]()
    columns = Puzzle.__table__.c
    typed = {
        name: columns[name].type.compile(dialect=compiler)
        + ("" if columns[name].nullable else " NOT NULL")
        for name in PUZZLE_COLUMNS
    }
    return {"line": _LINE[dialect], **typed}


STAGE_COLUMNS = {dialect: _stage_columns(dialect) for dialect in _LINE}
# Identifiers are constants of this module and the models; no value is written into SQL.
# The stage holds each puzzle of the chunk once, on its first line.
_INSERT = (
    f"INSERT INTO {Puzzle.__tablename__} ({', '.join(PUZZLE_COLUMNS)}) "  # noqa: S608
    f"SELECT {', '.join(PUZZLE_COLUMNS)} FROM {STAGE} AS s"
)
# No conflict target: the givens' uniqueness is a unique index on SQLite, an exclusion
# constraint on PostgreSQL (db.models.GIVENS_EXCLUSION), which no target can name.
NEW_PUZZLES = f"{_INSERT} WHERE true ORDER BY line ON CONFLICT DO NOTHING RETURNING givens, id"
# PostgreSQL, when the COPY of the chunk's puzzles as all new was refused (db.bulk.insert_new):
# a plain insert behind an anti-join; on a clash with another transaction, ON CONFLICT DO NOTHING.
UNSEEN_PUZZLES = (
    f"{_INSERT} WHERE {not_stored(Puzzle.__tablename__, ['givens'])} "
    "ORDER BY line RETURNING givens, id"
)


Forms = Mapping[str, tuple[str, int]]  # givens -> (canonical form, its key): solver.keyed_forms
# PostgreSQL's name for the sequence of a serial column, which `puzzles` draws its ids from
# (checked against the server's in the tests: tests/db/test_imports.py).
PUZZLE_IDS = f"{Puzzle.__tablename__}_id_seq"
NEW_IDS = f"SELECT nextval('{PUZZLE_IDS}') FROM generate_series(1, %s)"  # noqa: S608


def givens_count(givens: str) -> int:
    """The given digits of normalised givens ('.' for an empty cell, `solver.normalize`)."""
    return len(givens) - givens.count(".")


class Known(NamedTuple):
    """The puzzles of a chunk: givens -> id for each, the ids that have a result, and the
    ids the collection holds on a stored line."""

    ids: dict[str, int]
    solved: set[int]
    held: set[int]


def puzzles_of(
    session: Session,
    collection_id: int,
    accepted: list[tuple[int, str]],
    forms: Forms | None = None,
) -> Known:
    """Store the new puzzles of these (line, givens); what is known of every one of them."""
    known, earlier = stored_puzzles(session, accepted, forms)
    return held_by(session, collection_id, known, earlier)


def stored_puzzles(
    session: Session, accepted: list[tuple[int, str]], forms: Forms | None = None
) -> tuple[Known, list[int]]:
    """Store the new puzzles of these (line, givens), in line order; each one's id and those
    that have a result (`held` left empty: no collection is asked), and the ids of the
    puzzles stored before this call (the only ones a collection may hold). Each new puzzle is
    stored with its canonical form and that form's key: from `forms` (made by the caller),
    else made here (`solver.keyed_forms`, microseconds a puzzle)."""
    if forms is None:
        forms = solver.keyed_forms(givens for _, givens in accepted)
    first: dict[str, int] = {}  # each puzzle's first line, in line order
    for line, givens in accepted:
        first.setdefault(givens, line)
    new = _copied_as_new(session, first, forms) if dialect_of(session) == "postgresql" else None
    known = Known(_inserted(session, first, forms) if new is None else new, set(), set())
    seen_before = list({givens for _, givens in accepted if givens not in known.ids})
    ids: dict[str, int] = {}
    for page in _pages(session, seen_before):
        stmt = select(Puzzle.givens, Puzzle.id).where(_member(session, Puzzle.givens, page))
        ids.update(session.execute(stmt).all())
    known.ids.update(ids)
    for page in _pages(session, ids.values()):
        has_result = select(Result.puzzle_id).where(_member(session, Result.puzzle_id, page))
        known.solved.update(session.scalars(has_result))
    return known, list(ids.values())


def _copied_as_new(session: Session, first: dict[str, int], forms: Forms) -> dict[str, int] | None:
    """COPY the puzzles (givens -> first line, in line order) into `puzzles` as all new, their
    ids drawn from its sequence in that order: givens -> id, or None (nothing stored) when one
    is stored already or being stored by another transaction (PostgreSQL)."""
    if not first:
        return {}
    with driver_connection(session).cursor() as cursor:
        cursor.execute(NEW_IDS, (len(first),))
        ids = dict(zip(first, (puzzle_id for (puzzle_id,) in cursor), strict=True))
    rows = _puzzle_rows(ids, forms)
    if not copy_new(session, Puzzle.__tablename__, ("id", *PUZZLE_COLUMNS), rows):
        return None
    return ids


def _puzzle_rows(keys: dict[str, int], forms: Forms) -> list[tuple[Any, ...]]:
    """Each puzzle's row, its key (id or first line) first, then `PUZZLE_COLUMNS`' values."""
    return [(key, givens, givens_count(givens), *forms[givens]) for givens, key in keys.items()]


def _inserted(session: Session, first: dict[str, int], forms: Forms) -> dict[str, int]:
    """Store the puzzles (givens -> first line) not stored yet, through the stage table:
    givens -> id of each one stored now."""
    dialect = dialect_of(session)
    stage_rows(session, STAGE, STAGE_COLUMNS[dialect], _puzzle_rows(first, forms))
    cursor = driver_connection(session).cursor()  # sqlite3's is no context manager
    try:
        if dialect == "postgresql":
            insert_new(cursor, UNSEEN_PUZZLES, NEW_PUZZLES)
        else:
            cursor.execute(NEW_PUZZLES)
        return dict(cursor.fetchall())
    finally:
        cursor.close()


def held_by(session: Session, collection_id: int, known: Known, earlier: list[int]) -> Known:
    """`known` with the puzzles among `earlier` that the collection holds on a stored line."""
    held: set[int] = set()
    for page in _pages(session, earlier):
        in_collection = select(CollectionPuzzle.puzzle_id).where(
            CollectionPuzzle.collection_id == collection_id,
            _member(session, CollectionPuzzle.puzzle_id, page),
        )
        held.update(session.scalars(in_collection))
    return Known(known.ids, known.solved, held)


def stored_lines(session: Session, collection_id: int, first: int, last: int) -> set[int]:
    """The lines from `first` to `last` the collection already holds (a replayed chunk)."""
    stmt = select(CollectionPuzzle.line).where(
        CollectionPuzzle.collection_id == collection_id,
        CollectionPuzzle.line.between(first, last),
    )
    return set(session.scalars(stmt))


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
