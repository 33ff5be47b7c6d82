"""Read helpers over the tables and the `puzzle_results` view (bound parameters only)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import RowMapping, Select, func, select
from sqlalchemy.orm import Session

from db.counters import COUNTERS
from db.models import Collection, CollectionPuzzle, RejectedLine, Result
from db.views import puzzle_results

ORDERABLE = (
    "difficulty_score",
    "recursion_depth",
    "guesses",
    "backtracks",
    "nodes",
    "solve_ms",
    "givens_count",
    "line",
)

DISTRIBUTIONS = ("difficulty", "recursion_depth", "status", "hardest_technique")


def _difficulty_counts(session: Session, collection_ids: list[int]) -> dict[int, dict[str, int]]:
    stmt = (
        select(CollectionPuzzle.collection_id, Result.difficulty, func.count())
        .join(Result, Result.puzzle_id == CollectionPuzzle.puzzle_id)
        .where(CollectionPuzzle.collection_id.in_(collection_ids))
        .where(CollectionPuzzle.is_duplicate.is_(False), Result.difficulty.is_not(None))
        .group_by(CollectionPuzzle.collection_id, Result.difficulty)
    )
    counts: dict[int, dict[str, int]] = {cid: {} for cid in collection_ids}
    for collection_id, label, count in session.execute(stmt):
        counts[collection_id][str(label)] = count
    return counts


def collection_status(session: Session, name: str | None = None) -> list[dict[str, Any]]:
    """Per collection (or only `name`), by name: id, name, source_file, the counters
    (lines_read, accepted, duplicates, rejected, total, done, failed), remaining
    (total - done - failed) and difficulty (label -> distinct puzzles)."""
    stmt = select(Collection).order_by(Collection.name)
    if name is not None:
        stmt = stmt.where(Collection.name == name)
    collections = list(session.scalars(stmt))
    labels = _difficulty_counts(session, [c.id for c in collections])
    return [
        {
            "id": c.id,
            "name": c.name,
            "source_file": c.source_file,
            **{counter: getattr(c, counter) for counter in COUNTERS},
            "remaining": c.total - c.done - c.failed,
            "difficulty": labels[c.id],
        }
        for c in collections
    ]


def distribution(session: Session, collection: str, column: str) -> dict[Any, int]:
    """value -> distinct puzzles of a collection with a result, for one result column."""
    if column not in DISTRIBUTIONS:
        raise ValueError(f"no distribution of {column!r}; allowed: {', '.join(DISTRIBUTIONS)}")
    key = puzzle_results.c[column]
    stmt = (
        select(key, func.count())
        .where(puzzle_results.c.collection == collection)
        .where(puzzle_results.c.is_duplicate.is_(False), puzzle_results.c.status.is_not(None))
        .group_by(key)
    )
    return {value: count for value, count in session.execute(stmt)}


def rejected_lines(session: Session, collection_id: int, limit: int = 10) -> list[RowMapping]:
    """The first `limit` rejected lines of a collection: line, column, reason, raw_text."""
    stmt = (
        select(RejectedLine.line, RejectedLine.column, RejectedLine.reason, RejectedLine.raw_text)
        .where(RejectedLine.collection_id == collection_id)
        .order_by(RejectedLine.line)
        .limit(limit)
    )
    return list(session.execute(stmt).mappings())


def _filters(
    stmt: Select[Any],
    collection: str | None,
    difficulty: str | None,
    status: str | None,
    elimination_only: bool | None,
    min_depth: int | None,
) -> Select[Any]:
    view = puzzle_results.c
    if collection is not None:
        stmt = stmt.where(view.collection == collection)
    if difficulty is not None:
        stmt = stmt.where(view.difficulty == difficulty)
    if status is not None:
        stmt = stmt.where(view.status == status)
    if elimination_only is not None:
        stmt = stmt.where(view.solved_by_elimination.is_(elimination_only))
    if min_depth is not None:
        stmt = stmt.where(view.recursion_depth >= min_depth)
    return stmt


def find_results(
    session: Session,
    *,
    collection: str | None = None,
    difficulty: str | None = None,
    status: str | None = None,
    elimination_only: bool | None = None,
    min_depth: int | None = None,
    order_by: str = "difficulty_score",
    descending: bool = True,
    limit: int = 50,
) -> list[RowMapping]:
    """Rows of `puzzle_results` (duplicate lines left out) matching every filter given."""
    if order_by not in ORDERABLE:
        raise ValueError(f"cannot order by {order_by!r}; allowed: {', '.join(ORDERABLE)}")
    key = puzzle_results.c[order_by]
    stmt = select(puzzle_results).where(puzzle_results.c.is_duplicate.is_(False))
    stmt = _filters(stmt, collection, difficulty, status, elimination_only, min_depth)
    stmt = stmt.order_by(
        (key.desc() if descending else key.asc()).nulls_last(),
        puzzle_results.c.collection,
        puzzle_results.c.line,
    ).limit(limit)
    return list(session.execute(stmt).mappings())


def stream_results(session: Session, collection: str) -> Iterator[RowMapping]:
    """Every line of a collection in line order, fetched 1,000 at a time (server-side
    cursor on PostgreSQL), for export."""
    stmt = (
        select(puzzle_results)
        .where(puzzle_results.c.collection == collection)
        .order_by(puzzle_results.c.line)
        .execution_options(yield_per=1_000)
    )
    yield from session.execute(stmt).mappings()


def progress(session: Session, collection_id: int) -> tuple[int, int]:
    """(puzzles finished: done + failed, total distinct puzzles) of a collection."""
    row = session.execute(
        select(Collection.done + Collection.failed, Collection.total).where(
            Collection.id == collection_id
        )
    ).one()
    return int(row[0]), int(row[1])
