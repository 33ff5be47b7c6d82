"""The `puzzle_results` view: one row per accepted line, with its puzzle and its result.

`SHOWN` lists the view's columns, each with the model column it shows (its type and its
comment, or the view's own where it shows something else, for the browser and the SQL
reference) and its SQL: `create_view_sql()` writes the view's `CREATE VIEW` from it. Every
column of `results` shows, a column added to the model included (at the end), except those
`HIDDEN` names. The view itself is created by the Alembic revisions, each with its own frozen
copy of that SQL (a revision is a snapshot in time); a test checks that the database at head
holds the view `create_view_sql()` writes from today's models. The `Table` lives in its own
`MetaData`, so `create_all` and autogenerate never mistake it for a table.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Column, MetaData, Table
from sqlalchemy.orm import InstrumentedAttribute

from db.models import Batch, Collection, CollectionPuzzle, Puzzle, Result

VIEW_NAME = "puzzle_results"
DESCRIPTION = (  # the view's comment on PostgreSQL (set by the latest revision to change it)
    "One row per accepted line of every collection: its puzzle and, once solved, its result "
    "(the result's columns are NULL until then)."
)
# What a view column means where its model column says something else.
OWN_COMMENTS = {
    "batch_id": "The batch that solves it; NULL for a line that repeats an earlier one and "
    "for a puzzle solved before the import.",
    "isomorph_of": "The earliest-imported puzzle (puzzles.id) of this puzzle's class of "
    "isomorphs, when that is another puzzle; NULL otherwise.",
}
# The columns of `results` the view leaves out: the puzzle's id shows as `puzzles.id`, and the
# host that solved it is the operators' business.
HIDDEN = ("puzzle_id", "worker_host")
# The tables the view reads, each under its alias; the view's FROM clause joins them.
ALIASES = {
    "collection_puzzles": "cp",
    "collections": "c",
    "puzzles": "p",
    "results": "r",
    "batches": "b",
}
FROM = """FROM collection_puzzles AS cp
JOIN collections AS c ON c.id = cp.collection_id
JOIN puzzles AS p ON p.id = cp.puzzle_id
LEFT JOIN results AS r ON r.puzzle_id = cp.puzzle_id
LEFT JOIN batches AS b ON b.id = cp.batch_id"""
ISOMORPH_OF = (  # the earliest puzzle of the same canonical form, when it is another
    "(SELECT min(q.id) FROM puzzles AS q WHERE q.canonical_key = p.canonical_key "
    "AND q.canonical = p.canonical AND q.id < p.id)"
)


class Shown(NamedTuple):
    """A column of the view: its name, the model column it shows (its type and comment), and
    its SQL where that is not the model column itself."""

    name: str
    column: InstrumentedAttribute[object]
    sql: str | None = None

    def select_item(self) -> str:
        """The column in the view's SELECT list."""
        name, column, sql = self  # (read as `self.column`, a model attribute is a descriptor)
        if sql is not None:
            return f"{sql} AS {name}"
        own = f"{ALIASES[column.class_.__tablename__]}.{column.key}"
        return own if column.key == name else f"{own} AS {name}"


def _results(*names: str) -> tuple[Shown, ...]:
    return tuple(Shown(name, getattr(Result, name)) for name in names)


# The view's columns in the order of its SELECT: as the revisions made them, then the columns
# of `results` added since, in the model's order.
_LAID_OUT = (
    Shown("collection_id", Collection.id),
    Shown("collection", Collection.name),
    Shown("line", CollectionPuzzle.line),
    Shown("is_duplicate", CollectionPuzzle.is_duplicate),
    Shown("batch_id", CollectionPuzzle.batch_id),  # see OWN_COMMENTS
    Shown("batch_status", Batch.status),
    Shown("batch_error", Batch.error),
    Shown("puzzle_id", Puzzle.id),
    Shown("puzzle", Puzzle.givens),
    Shown("givens_count", Puzzle.givens_count),
    *_results(
        "status",
        "solution",
        "reason",
        "solved_by_elimination",
        "hardest_technique",
        "technique_counts",
        "recursion_depth",
        "guesses",
        "backtracks",
        "nodes",
        "difficulty",
        "difficulty_score",
        "ep",
        "ed",
        "solver_version",
        "solve_ms",
        "solved_at",
        "rating_state",
        "rating_tier",
        "rating_profile",
    ),
    Shown("canonical", Puzzle.canonical),
    Shown("canonical_key", Puzzle.canonical_key),
    Shown("isomorph_of", Puzzle.id, ISOMORPH_OF),  # see OWN_COMMENTS
    *_results("is_minimal"),
)
_PLACED = {shown.name for shown in _LAID_OUT} | set(HIDDEN)
SHOWN: tuple[Shown, ...] = _LAID_OUT + _results(
    *(column.name for column in Result.__table__.columns if column.name not in _PLACED)
)


def create_view_sql() -> str:
    """The view's `CREATE VIEW`, as a revision that makes it again should write it."""
    items = ",\n       ".join(shown.select_item() for shown in SHOWN)
    return f"CREATE VIEW {VIEW_NAME} AS\nSELECT {items}\n{FROM}\n"


view_metadata = MetaData()

puzzle_results = Table(
    VIEW_NAME,
    view_metadata,
    *(
        Column(name, column.type, comment=OWN_COMMENTS.get(name, column.comment))
        for name, column, _ in SHOWN
    ),
    comment=DESCRIPTION,
)
