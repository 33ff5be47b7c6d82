"""The `puzzle_results` view: one row per accepted line, with its puzzle and its result.

The view itself is created by the Alembic revision (``CREATE VIEW``); this module only
describes its columns so code can ``select()`` from it, each with its model column's comment
(or its own, where it shows something else) for the browser and the SQL reference. The
`Table` lives in its own `MetaData`, so `create_all` and autogenerate never mistake it for a
table.
"""

from __future__ import annotations

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

view_metadata = MetaData()

# Each column of the view and the model column it shows (its type comes from there), in the
# order of the revision's SELECT.
SHOWN: tuple[tuple[str, InstrumentedAttribute[object]], ...] = (
    ("collection_id", Collection.id),
    ("collection", Collection.name),
    ("line", CollectionPuzzle.line),
    ("is_duplicate", CollectionPuzzle.is_duplicate),
    ("batch_id", Batch.id),
    ("batch_status", Batch.status),
    ("batch_error", Batch.error),
    ("puzzle_id", Puzzle.id),
    ("puzzle", Puzzle.givens),
    ("givens_count", Puzzle.givens_count),
    *(
        (name, getattr(Result, name))
        for name in (
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
        )
    ),
    ("canonical", Puzzle.canonical),
    ("isomorph_of", Puzzle.id),  # see OWN_COMMENTS
    ("is_minimal", Result.is_minimal),
)

puzzle_results = Table(
    VIEW_NAME,
    view_metadata,
    *(
        Column(name, column.type, comment=OWN_COMMENTS.get(name, column.comment))
        for name, column in SHOWN
    ),
    comment=DESCRIPTION,
)
