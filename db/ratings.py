"""Rating puzzles again: the deep tier's batches, re-rating, and replacing results.

A puzzle the bulk path left `pending` (db.tiers) is rated again alone, in a `deep` batch of its
own, within the deep budget; `sudoku-batch rerate` rates puzzles again, with today's settings,
in `rerate` batches. The puzzles of both kinds are listed in `batch_puzzles`. Every write is
idempotent: a batch's results are replaced only in the transaction that flips the batch from
pending to done (a redelivered batch changes nothing), a deep batch replaces only a rating still
pending from the same profile and solver version (a rating only goes from pending to final),
and no puzzle gets a second deep batch while one is pending. Neither kind moves a collection's
counters: its puzzles were counted when their lines were. Every function takes a Session and
never commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, delete, exists, insert, or_, select, update
from sqlalchemy.orm import Session

from db.imports import BatchWork, mark_queued
from db.known import LOOKUP_PAGE
from db.models import (
    DONE,
    FAILED,
    PENDING,
    Batch,
    BatchPuzzle,
    Collection,
    CollectionPuzzle,
    Puzzle,
    Result,
)
from db.paths import PathRow, insert_paths, paths_table
from db.results import ResultRow, finish_batch, insert_results, record_batch, results_table
from db.tiers import DEEP_BATCH, ESTIMATED, FAST, IMPORT, RERATE
from db.tiers import PENDING as PENDING_RATING

# Why `rerate` picks a result: made with other settings (another profile, or SE's chains on
# where they are off now or the other way round), by another solver version, or estimated.
RERATE_REASONS = ("settings", "version", "estimated")


def _held(puzzle_id: Any, kind: str) -> ColumnElement[bool]:
    """Whether a pending batch of `kind` already holds the puzzle."""
    return exists().where(
        BatchPuzzle.puzzle_id == puzzle_id,
        Batch.id == BatchPuzzle.batch_id,
        Batch.status == PENDING,
        Batch.kind == kind,
    )


def _pages(ids: Iterable[int]) -> Iterable[list[int]]:
    ordered = sorted(set(ids))
    for start in range(0, len(ordered), LOOKUP_PAGE):
        yield ordered[start : start + LOOKUP_PAGE]


def queue_pending(
    session: Session,
    collection_id: int,
    puzzle_ids: Iterable[int] | None = None,
    *,
    queued: bool = False,
) -> list[BatchWork]:
    """A deep batch (one puzzle each) of the collection for every puzzle of `puzzle_ids` (of the
    collection, when None) whose rating is pending and that no pending deep batch holds, those
    that look hardest (their interim score) first; stamped sent now with `queued` (the caller
    sends them after commit; the workers' lost-batch check sends again one that never
    arrives)."""
    pending = (
        select(Result.puzzle_id, Puzzle.givens, Result.difficulty_score)
        .join(Puzzle, Puzzle.id == Result.puzzle_id)
        .where(Result.rating_state == PENDING_RATING, ~_held(Result.puzzle_id, DEEP_BATCH))
    )
    if puzzle_ids is None:
        lines = select(CollectionPuzzle.puzzle_id).where(
            CollectionPuzzle.collection_id == collection_id
        )
        found = list(session.execute(pending.where(Result.puzzle_id.in_(lines))).all())
    else:
        found = [
            row
            for page in _pages(puzzle_ids)
            for row in session.execute(pending.where(Result.puzzle_id.in_(page))).all()
        ]
    found.sort(key=lambda row: (-(row[2] or 0.0), row[0]))
    parts = [[(puzzle_id, givens)] for puzzle_id, givens, _ in found]
    return new_batches(session, collection_id, DEEP_BATCH, parts, queued=queued)


def new_batches(
    session: Session,
    collection_id: int,
    kind: str,
    parts: Sequence[Sequence[tuple[int, str]]],
    *,
    queued: bool = False,
) -> list[BatchWork]:
    """A batch of `kind` of the collection for each part ((puzzle id, givens) each), its puzzles
    in batch_puzzles; stamped sent now with `queued`."""
    if not parts:
        return []
    values = [{"collection_id": collection_id, "size": len(part), "kind": kind} for part in parts]
    made = insert(Batch).returning(Batch.id, sort_by_parameter_order=True)
    batch_ids = session.scalars(made, values).all()
    if queued:
        mark_queued(session, batch_ids)
    members = [
        {"batch_id": batch_id, "puzzle_id": puzzle_id}
        for batch_id, part in zip(batch_ids, parts, strict=True)
        for puzzle_id, _ in part
    ]
    session.execute(insert(BatchPuzzle), members)
    paths = bool(
        session.scalar(select(Collection.keeps_paths).where(Collection.id == collection_id))
    )
    return [
        BatchWork(batch_id, collection_id, list(part), paths, kind)
        for batch_id, part in zip(batch_ids, parts, strict=True)
    ]


def record_work(
    session: Session,
    work: BatchWork,
    rows: Sequence[ResultRow],
    paths: Sequence[PathRow] = (),
    *,
    queued: bool = False,
) -> list[BatchWork]:
    """Store a solved batch of any kind (an import's with `db.results.record_batch`); the deep
    batches its pending ratings need, to send after commit (stamped sent with `queued`)."""
    if work.kind == IMPORT:
        record_batch(session, work.batch_id, rows, paths)
        stored: Iterable[ResultRow] = rows
    else:
        stored = _replace(session, work, rows, paths)
    pending = [row.puzzle_id for row in stored if row.rating_state == PENDING_RATING]
    return queue_pending(session, work.collection_id, pending, queued=queued) if pending else []


def _replace(
    session: Session, work: BatchWork, rows: Sequence[ResultRow], paths: Sequence[PathRow]
) -> list[ResultRow]:
    """Replace the results of a rerate or deep batch, if this call flips it to done; the rows
    that replaced one. A deep batch replaces only a rating still pending from its own profile
    and solver version (one re-rated since is left alone)."""
    if finish_batch(session, work.batch_id, DONE, None) is None or not rows:
        return []
    replaced: set[int] = set()
    for page in _pages(row.puzzle_id for row in rows):
        gone = delete(results_table).where(results_table.c.puzzle_id.in_(page))
        if work.kind == DEEP_BATCH:
            gone = gone.where(
                results_table.c.rating_state == PENDING_RATING,
                results_table.c.rating_profile == rows[0].rating_profile,
                results_table.c.solver_version == rows[0].solver_version,
            )
        replaced.update(session.scalars(gone.returning(results_table.c.puzzle_id)))
    kept = [row for row in rows if row.puzzle_id in replaced]
    insert_results(session, kept)
    for page in _pages(replaced):
        session.execute(delete(paths_table).where(paths_table.c.puzzle_id.in_(page)))
    insert_paths(session, [path for path in paths if path.puzzle_id in replaced])
    return kept


def settle_failed(session: Session, work: BatchWork, error: str) -> bool:
    """A rerate or deep batch given up on (out of retries, or over its time limit): marked
    failed with `error`, and a deep batch's ratings, still pending, become final estimates
    (beyond what the deep tier could do here); True when this call flipped it."""
    if finish_batch(session, work.batch_id, FAILED, error) is None:
        return False
    if work.kind == DEEP_BATCH:
        for page in _pages(pid for pid, _ in work.puzzles):
            session.execute(
                update(Result)
                .where(Result.puzzle_id.in_(page), Result.rating_state == PENDING_RATING)
                .values(rating_state=ESTIMATED)
            )
    return True


def stale(profile: str, exact: bool, version: str, reasons: Iterable[str]) -> ColumnElement[bool]:
    """The results `rerate` picks for `reasons` (RERATE_REASONS), against today's settings: the
    rating `profile`, SE's chains on (`exact`) or off, and the solver `version`."""
    picks: list[ColumnElement[bool]] = []
    for reason in reasons:
        if reason == "settings":
            mode = Result.rating_tier == FAST if exact else Result.rating_tier != FAST
            picks.append(or_(Result.rating_profile != profile, Result.rating_tier.is_(None), mode))
        elif reason == "version":
            picks.append(Result.solver_version != version)
        elif reason == "estimated":
            picks.append(Result.rating_state == ESTIMATED)
        else:
            raise ValueError(f"no rerate reason {reason!r}: expected {', '.join(RERATE_REASONS)}")
    return or_(*picks)


def queue_rerate(
    session: Session,
    collection_id: int,
    picked: ColumnElement[bool],
    batch_size: int,
    *,
    queued: bool = False,
) -> list[BatchWork]:
    """Rerate batches of up to `batch_size` puzzles for the collection's puzzles whose result
    `picked` (``stale``) selects and that no pending rerate batch holds."""
    lines = select(CollectionPuzzle.puzzle_id).where(
        CollectionPuzzle.collection_id == collection_id
    )
    found = session.execute(
        select(Result.puzzle_id, Puzzle.givens)
        .join(Puzzle, Puzzle.id == Result.puzzle_id)
        .where(Result.puzzle_id.in_(lines), picked, ~_held(Result.puzzle_id, RERATE))
        .order_by(Result.puzzle_id)
    ).all()
    rows = [(puzzle_id, givens) for puzzle_id, givens in found]
    parts = [rows[start : start + batch_size] for start in range(0, len(rows), batch_size)]
    return new_batches(session, collection_id, RERATE, parts, queued=queued)
