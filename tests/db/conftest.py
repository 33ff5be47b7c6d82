"""Fixtures of the storage tests: a migrated database, a session, puzzles and result rows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from db.engine import make_engine, session_factory
from db.migrate import upgrade
from db.models import RESULT_COLUMNS
from db.results import ResultRow


def grid(n: int) -> str:
    """A distinct 81-character puzzle for each n (not a valid Sudoku: storage does not care)."""
    digits = ""
    while n:
        n, digit = divmod(n, 9)
        digits += "123456789"[digit]
    return digits.ljust(81, ".")


def result_row(puzzle_id: int, **overrides: Any) -> ResultRow:
    """A result row as worker.batch.solve_batch makes them, a solved puzzle's (technique_counts:
    a dict is written as JSON text); a column not named here is NULL."""
    row: dict[str, Any] = dict.fromkeys(RESULT_COLUMNS)
    row |= {
        "puzzle_id": puzzle_id,
        "status": "solved",
        "solution": "123456789" * 9,
        "reason": None,
        "solved_by_elimination": True,
        "hardest_technique": "naked_single",
        "technique_counts": {"naked_single": 30},
        "recursion_depth": 0,
        "guesses": 0,
        "backtracks": 0,
        "nodes": 1,
        "difficulty": "easy",
        "difficulty_score": 1.0,
        "ep": 1.0,
        "ed": 1.0,
        "rating_state": "exact",
        "rating_tier": "bulk",
        "rating_profile": "classic",
        "is_minimal": True,
        "solver_version": "test",
        "solve_ms": 1.5,
        "worker_host": "test-host",
        "solved_at": datetime(2024, 1, 1, tzinfo=UTC),
    }
    row.update(overrides)
    if isinstance(row["technique_counts"], dict):
        row["technique_counts"] = json.dumps(row["technique_counts"])
    return ResultRow(**row)


def ended_on_deadlock(loser: Session, winner: Session) -> None:
    """Make the server end `loser` when the two sessions wait for each other (PostgreSQL): a
    session looks for a deadlock once its wait is deadlock_timeout old, so `loser`, which
    starts waiting first, looks after `winner` waits too, and is the one ended."""
    loser.execute(text("SET deadlock_timeout = '2s'"))
    winner.execute(text("SET deadlock_timeout = '20s'"))


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on a database migrated to head, on SQLite and on PostgreSQL."""
    upgrade(database_url)
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A session on the migrated database; the test commits when it wants to."""
    with session_factory(engine)() as session:
        yield session
