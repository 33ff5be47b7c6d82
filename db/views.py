"""The `puzzle_results` view: one row per accepted line, with its puzzle and its result.

The view itself is created by the Alembic revision (``CREATE VIEW``); this module only
describes its columns so code can ``select()`` from it. The `Table` lives in its own
`MetaData`, so `create_all` and autogenerate never mistake it for a table.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
)

from db.models import Id, Json, Timestamp

VIEW_NAME = "puzzle_results"

view_metadata = MetaData()

puzzle_results = Table(
    VIEW_NAME,
    view_metadata,
    Column("collection_id", Integer),
    Column("collection", String(200)),
    Column("line", Integer),
    Column("is_duplicate", Boolean),
    Column("batch_id", Id),
    Column("batch_status", String(16)),
    Column("batch_error", Text),
    Column("puzzle_id", Id),
    Column("puzzle", String(81)),
    Column("givens_count", SmallInteger),
    Column("status", String(16)),
    Column("solution", String(81)),
    Column("reason", Text),
    Column("solved_by_elimination", Boolean),
    Column("hardest_technique", String(32)),
    Column("technique_counts", Json),
    Column("recursion_depth", Integer),
    Column("guesses", Integer),
    Column("backtracks", Integer),
    Column("nodes", Integer),
    Column("difficulty", String(16)),
    Column("difficulty_score", Float),
    Column("ep", Float),
    Column("ed", Float),
    Column("solver_version", String(32)),
    Column("solve_ms", Float),
    Column("solved_at", Timestamp),
)
