"""Read helpers over the tables and the `puzzle_results` view (bound parameters only)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    RowMapping,
    Select,
    case,
    cast,
    false,
    func,
    null,
    select,
    true,
)
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.types import TypeEngine

from db.counters import COUNTERS
from db.models import (
    PENDING,
    Batch,
    Collection,
    CollectionPuzzle,
    Puzzle,
    RejectedLine,
    Result,
    SolvingPath,
)
from db.tiers import PENDING as PENDING_RATING
from db.tiers import RATING_STATES, RERATE
from db.views import puzzle_results
from solver import LABELS, STATUSES

ORDERABLE = (
    "difficulty_score",
    "recursion_depth",
    "guesses",
    "backtracks",
    "nodes",
    "solve_ms",
    "givens_count",
    "line",
    "ep",
    "ed",
)

DISTRIBUTIONS = (
    "difficulty",
    "difficulty_score",
    "recursion_depth",
    "status",
    "hardest_technique",
    "rating_state",
)


# What the summary counts a collection's distinct puzzles by, each a column and its values
# (solver.STATUSES, solver.LABELS, db.tiers.RATING_STATES): one pass over the collection's lines,
# a sum a value, grouped only by what made the results. A GROUP BY of every column would sort
# every line first (docs: Benchmarks).
_COUNTED: tuple[tuple[str, InstrumentedAttribute[Any], tuple[Any, ...]], ...] = (
    ("statuses", Result.status, STATUSES),
    ("difficulty", Result.difficulty, LABELS),
    ("ratings", Result.rating_state, RATING_STATES),
    ("minimal", Result.is_minimal, (True,)),
)
_MADE_BY = (Result.rating_profile, Result.solver_version, Result.rating_tier)


def _result_counts(session: Session, collection_ids: list[int]) -> dict[int, dict[str, Any]]:
    """collection id -> for each `_COUNTED` name, value -> distinct puzzles (values of none
    left out), and `rated_with`: what made its results, (profile, solver version, tier,
    distinct puzzles), the most common first (the tier of a result of an earlier release: '?')."""
    sums = [
        func.sum(case((column == value, 1), else_=0))
        for _, column, values in _COUNTED
        for value in values
    ]
    stmt = (
        select(CollectionPuzzle.collection_id, *_MADE_BY, func.count(), *sums)
        .join(Result, Result.puzzle_id == CollectionPuzzle.puzzle_id)
        .where(CollectionPuzzle.collection_id.in_(collection_ids))
        .where(CollectionPuzzle.is_duplicate.is_(False))
        .group_by(CollectionPuzzle.collection_id, *_MADE_BY)
    )
    tallies = {cid: {name: Counter[str]() for name, _, _ in _COUNTED} for cid in collection_ids}
    made: dict[int, list[tuple[Any, ...]]] = {cid: [] for cid in collection_ids}
    for cid, profile, version, tier, count, *counts in session.execute(stmt):
        made[cid].append((profile, version, tier or "?", count))
        found = iter(counts)
        for name, _, values in _COUNTED:
            for value in values:
                tallies[cid][name][str(value)] += next(found)
    return {
        cid: {
            **{name: {k: n for k, n in tally.items() if n} for name, tally in tallies[cid].items()},
            "rated_with": sorted(made[cid], key=lambda r: (-r[3], r[:3])),
        }
        for cid in collection_ids
    }


def _classes(session: Session, collection_ids: list[int]) -> dict[int, int]:
    """collection id -> its distinct puzzles up to symmetry (distinct canonical forms). Each
    collection's forms are grouped, then the groups counted: a COUNT(DISTINCT ...) would sort
    every line's form (about a third slower on both databases; docs: Benchmarks)."""
    forms = (
        select(CollectionPuzzle.collection_id)
        .join(Puzzle, Puzzle.id == CollectionPuzzle.puzzle_id)
        .where(CollectionPuzzle.collection_id.in_(collection_ids), Puzzle.canonical.is_not(None))
        .group_by(CollectionPuzzle.collection_id, Puzzle.canonical)
        .subquery()
    )
    stmt = select(forms.c.collection_id, func.count()).group_by(forms.c.collection_id)
    counts = dict.fromkeys(collection_ids, 0)
    counts.update({cid: n for cid, n in session.execute(stmt)})
    return counts


def collection_status(
    session: Session, name: str | None = None, ids: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """Per collection (or only `name`, or only those of `ids`), by name: id, name, source_file,
    the counters (lines_read, accepted, duplicates, rejected, total, done, failed), remaining
    (total - done - failed), classes (distinct puzzles up to symmetry), statuses (result
    status -> distinct puzzles; they add up to done), difficulty (label -> distinct puzzles;
    they add up to statuses' solved), minimal (solved puzzles that are minimal), ratings
    (rating state -> distinct puzzles; they add up to statuses' solved) and rated_with (what
    made its results: profile, solver version, tier, puzzles)."""
    stmt = select(Collection).order_by(Collection.name)
    if name is not None:
        stmt = stmt.where(Collection.name == name)
    if ids is not None:
        stmt = stmt.where(Collection.id.in_(ids))
    collections = list(session.scalars(stmt))
    found = [c.id for c in collections]
    counts = _result_counts(session, found)
    classes = _classes(session, found)
    return [
        {
            "id": c.id,
            "name": c.name,
            "source_file": c.source_file,
            **{counter: getattr(c, counter) for counter in COUNTERS},
            "remaining": c.total - c.done - c.failed,
            "classes": classes[c.id],
            "statuses": counts[c.id]["statuses"],
            "difficulty": counts[c.id]["difficulty"],
            "minimal": counts[c.id]["minimal"].get(str(True), 0),
            "ratings": counts[c.id]["ratings"],
            "rated_with": counts[c.id]["rated_with"],
        }
        for c in collections
    ]


def collection_exists(session: Session, name: str) -> bool:
    """Whether a collection of that name was imported."""
    return session.scalar(select(Collection.id).where(Collection.name == name)) is not None


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


def scores_by_label(session: Session, collection: str) -> dict[tuple[float, str], int]:
    """(difficulty_score, difficulty) -> distinct puzzles of a collection with that pair."""
    view = puzzle_results.c
    stmt = (
        select(view.difficulty_score, view.difficulty, func.count())
        .where(view.collection == collection, view.is_duplicate.is_(False))
        .where(view.difficulty_score.is_not(None))
        .group_by(view.difficulty_score, view.difficulty)
    )
    return {(score, label): count for score, label, count in session.execute(stmt)}


def rejected_lines(session: Session, collection_id: int, limit: int = 10) -> list[RowMapping]:
    """The first `limit` rejected lines of a collection: line, column, reason, raw_text."""
    stmt = (
        select(RejectedLine.line, RejectedLine.column, RejectedLine.reason, RejectedLine.raw_text)
        .where(RejectedLine.collection_id == collection_id)
        .order_by(RejectedLine.line)
        .limit(limit)
    )
    return list(session.execute(stmt).mappings())


@dataclass(frozen=True)
class Filters:
    """What `find_results` keeps: each filter given (None: any), all of them at once."""

    collection: str | None = None
    difficulty: str | None = None
    status: str | None = None
    rating_state: str | None = None
    rating_profile: str | None = None
    elimination_only: bool | None = None
    min_depth: int | None = None
    min_score: float | None = None
    max_score: float | None = None
    technique: str | None = None  # fired at least once on the puzzle's path

    def where(self) -> list[ColumnElement[bool]]:
        """The conditions on `puzzle_results`, bound parameters only."""
        view = puzzle_results.c
        equal = ("collection", "difficulty", "status", "rating_state", "rating_profile")
        out = [view[name] == getattr(self, name) for name in equal if getattr(self, name)]
        if self.elimination_only is not None:
            out.append(view.solved_by_elimination.is_(self.elimination_only))
        if self.min_depth is not None:
            out.append(view.recursion_depth >= self.min_depth)
        if self.min_score is not None:
            out.append(view.difficulty_score >= self.min_score)
        if self.max_score is not None:
            out.append(view.difficulty_score <= self.max_score)
        if self.technique is not None:
            # a JSON key (SQLite: json_extract; PostgreSQL: ->>), NULL where it is absent
            out.append(view.technique_counts[self.technique].as_integer().is_not(None))
        return out


def find_results(
    session: Session,
    filters: Filters = Filters(),
    *,
    order_by: str = "difficulty_score",
    descending: bool = True,
    limit: int = 50,
    one_per_class: bool = False,
) -> list[RowMapping]:
    """Rows of `puzzle_results` (duplicate lines left out) matching every filter given; with
    `one_per_class`, only the first matching line (by collection, then line) of each canonical
    form: one puzzle per class of isomorphs."""
    if order_by not in ORDERABLE:
        raise ValueError(f"cannot order by {order_by!r}; allowed: {', '.join(ORDERABLE)}")
    view = puzzle_results.c
    stmt = select(puzzle_results).where(view.is_duplicate.is_(False), *filters.where())
    rows: Any = puzzle_results
    if one_per_class:
        rank = func.row_number().over(
            partition_by=view.canonical, order_by=(view.collection, view.line)
        )
        ranked = stmt.add_columns(rank.label("class_rank")).subquery()
        rows = ranked
        stmt = select(*(ranked.c[c.name] for c in view)).where(ranked.c.class_rank == 1)
    key = rows.c[order_by]
    stmt = stmt.order_by(
        (key.desc() if descending else key.asc()).nulls_last(), rows.c.collection, rows.c.line
    ).limit(limit)
    return list(session.execute(stmt).mappings())


_rejected = RejectedLine.__table__.c
# What export writes for each line: the view's columns, then whether the line was rejected and,
# if so, the column of its first offending character and its text (its reason is `reason`).
EXPORTED: tuple[tuple[str, TypeEngine[Any]], ...] = (
    *((column.name, column.type) for column in puzzle_results.c),
    ("rejected", Boolean()),
    ("column", _rejected.column.type),
    ("raw_text", _rejected.raw_text.type),
)
_paths = SolvingPath.__table__.c
# What `export --paths` adds: the solving path's steps (JSON) and whether the ladder stalled.
PATH_COLUMNS: tuple[tuple[str, TypeEngine[Any]], ...] = (
    ("path_steps", _paths.steps.type),
    ("path_stalled", _paths.stalled.type),
)


def exported(paths: bool = False) -> tuple[tuple[str, TypeEngine[Any]], ...]:
    """The export's columns: `EXPORTED`, then `PATH_COLUMNS` with `paths`."""
    return EXPORTED + PATH_COLUMNS if paths else EXPORTED


def _rejected_rows(collection: str, paths: bool) -> Select[Any]:
    """A collection's rejected lines with the export's columns (NULL where they do not apply)."""
    shown: dict[str, Any] = {
        "collection_id": Collection.id,
        "collection": Collection.name,
        "line": _rejected.line,
        "reason": _rejected.reason,
        "rejected": true(),
        "column": _rejected.column,
        "raw_text": _rejected.raw_text,
    }
    columns: list[ColumnElement[Any]] = [
        (shown[name] if name in shown else cast(null(), type_)).label(name)
        for name, type_ in exported(paths)
    ]
    return (
        select(*columns)
        .join_from(RejectedLine, Collection, Collection.id == _rejected.collection_id)
        .where(Collection.name == collection)
    )


def stream_results(
    session: Session, collection: str, *, rejected: bool = False, paths: bool = False
) -> Iterator[RowMapping]:
    """Every accepted line of a collection (and every rejected one, with `rejected`), in line
    order, with the columns of `exported(paths)`, fetched 1,000 at a time (server-side cursor
    on PostgreSQL), for export."""
    view = puzzle_results.c
    accepted = select(
        *view,
        false().label("rejected"),
        cast(null(), _rejected.column.type).label("column"),
        cast(null(), _rejected.raw_text.type).label("raw_text"),
    ).where(view.collection == collection)
    if paths:
        accepted = accepted.add_columns(
            _paths.steps.label("path_steps"), _paths.stalled.label("path_stalled")
        ).outerjoin(SolvingPath, SolvingPath.puzzle_id == view.puzzle_id)
    if rejected:
        every = accepted.union_all(_rejected_rows(collection, paths)).order_by("line")
        yield from session.execute(every.execution_options(yield_per=1_000)).mappings()
    else:
        stmt = accepted.order_by(view.line)
        yield from session.execute(stmt.execution_options(yield_per=1_000)).mappings()


def pending_ratings(session: Session, collection_ids: list[int]) -> int:
    """The distinct puzzles of these collections whose rating is pending (the deep tier's)."""
    held = select(CollectionPuzzle.puzzle_id).where(
        CollectionPuzzle.collection_id.in_(collection_ids)
    )
    stmt = select(func.count()).where(
        Result.puzzle_id.in_(held), Result.rating_state == PENDING_RATING
    )
    return int(session.scalar(stmt) or 0)


def rerate_left(session: Session, collection_ids: list[int]) -> int:
    """The puzzles of these collections' pending rerate batches."""
    stmt = select(func.coalesce(func.sum(Batch.size), 0)).where(
        Batch.collection_id.in_(collection_ids), Batch.status == PENDING, Batch.kind == RERATE
    )
    return int(session.scalar(stmt) or 0)


def progress(session: Session, collection_id: int) -> tuple[int, int]:
    """(puzzles finished: done + failed, total distinct puzzles) of a collection."""
    row = session.execute(
        select(Collection.done + Collection.failed, Collection.total).where(
            Collection.id == collection_id
        )
    ).one()
    return int(row[0]), int(row[1])
