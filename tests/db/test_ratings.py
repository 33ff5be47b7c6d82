"""Rating again: deep batches for pending ratings, replacing results, re-rating, all idempotent."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from db.imports import BatchWork, add_records, get_or_create_collection, unfinished_batches
from db.models import Batch, BatchPuzzle, Collection, Result
from db.ratings import queue_pending, queue_rerate, record_work, settle_failed, stale
from db.results import ResultRow
from db.tiers import DEEP_BATCH, RERATE
from tests.db.conftest import grid, result_row

LATER = datetime(2025, 6, 1, tzinfo=UTC)


@pytest.fixture
def work(session: Session) -> BatchWork:
    """A committed collection of 4 distinct puzzles in one import batch."""
    c = get_or_create_collection(session, "c", "c.txt", "a" * 64)
    (batch,) = add_records(session, c.id, [(i, grid(i)) for i in range(1, 5)], [], batch_size=4)
    session.commit()
    return batch


def pending_row(puzzle_id: int, **overrides: object) -> ResultRow:
    """A result left pending by the bulk path: an interim estimate."""
    return result_row(
        puzzle_id, **({"rating_state": "pending", "difficulty_score": 8.4} | overrides)
    )


def imported(session: Session, work: BatchWork, pending: int = 1) -> list[BatchWork]:
    """Store the import batch with its first `pending` puzzles left pending; the deep batches."""
    rows = [
        pending_row(pid) if k < pending else result_row(pid)
        for k, (pid, _) in enumerate(work.puzzles)
    ]
    deep = record_work(session, work, rows)
    session.commit()
    return deep


def stored(session: Session, puzzle_id: int) -> Result:
    return session.get_one(Result, puzzle_id, populate_existing=True)


def count(session: Session, model: type) -> int:
    return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_a_pending_rating_gets_one_deep_batch_however_often_its_batch_is_stored(
    session: Session, work: BatchWork
) -> None:
    """The import batch's pending puzzle gets a deep batch of its own, in the same transaction;
    the same batch stored again (a redelivery) makes none."""
    (deep,) = imported(session, work)
    assert (deep.kind, deep.puzzles, deep.collection_id) == (
        DEEP_BATCH,
        [work.puzzles[0]],
        work.collection_id,
    )
    assert imported(session, work) == []
    assert count(session, BatchPuzzle) == 1


def test_a_deep_batch_replaces_a_pending_rating_once(session: Session, work: BatchWork) -> None:
    """The deep tier's result takes the pending one's place; delivered again, its batch being
    done, it changes nothing (not even the time it was made)."""
    (deep,) = imported(session, work)
    pid = deep.puzzles[0][0]
    exact = result_row(pid, rating_tier="deep", difficulty_score=10.3, solved_at=LATER)
    assert record_work(session, deep, [exact]) == []
    session.commit()
    first = stored(session, pid)
    assert (first.rating_state, first.rating_tier, first.difficulty_score) == (
        "exact",
        "deep",
        10.3,
    )
    again = result_row(pid, rating_tier="deep", difficulty_score=9.9)
    record_work(session, deep, [again])
    session.commit()
    assert stored(session, pid).difficulty_score == 10.3
    assert count(session, Result) == 4
    collection = session.get_one(Collection, work.collection_id, populate_existing=True)
    assert (collection.done, collection.total) == (4, 4)  # counted once, with its line


def test_a_deep_batch_leaves_alone_a_rating_re_rated_since(
    session: Session, work: BatchWork
) -> None:
    """A rating only goes from pending to final: once a rerate on another profile replaced the
    pending result, the late deep batch of the old profile replaces nothing."""
    (deep,) = imported(session, work)
    pid = deep.puzzles[0][0]
    (rerate,) = queue_rerate(
        session, work.collection_id, stale("sukaku", True, "test", ["settings"]), 10
    )
    sukaku = [
        result_row(p, rating_profile="sukaku", difficulty_score=7.7) for p, _ in rerate.puzzles
    ]
    record_work(session, rerate, sukaku)
    session.commit()
    record_work(session, deep, [result_row(pid, rating_tier="deep", difficulty_score=10.3)])
    session.commit()
    assert (stored(session, pid).rating_profile, stored(session, pid).difficulty_score) == (
        "sukaku",
        7.7,
    )


def test_a_deep_batch_given_up_on_leaves_a_final_estimate(
    session: Session, work: BatchWork
) -> None:
    """Out of retries or over its time limit, a deep batch is failed and its puzzle's interim
    rating becomes final: estimated, never pending for ever."""
    (deep,) = imported(session, work)
    assert settle_failed(session, deep, "SoftTimeLimitExceeded: 240 s")
    session.commit()
    assert stored(session, deep.puzzles[0][0]).rating_state == "estimated"
    assert session.get_one(Batch, deep.batch_id).status == "failed"
    assert not settle_failed(session, deep, "again")  # flipped once


def test_pending_ratings_that_no_deep_batch_holds_get_one(
    session: Session, work: BatchWork
) -> None:
    """After a deep batch was given up on (or its collection deleted), the puzzle's pending
    rating is found again and given a new deep batch; only one while it is pending."""
    (deep,) = imported(session, work)
    session.delete(session.get_one(Batch, deep.batch_id))
    session.commit()
    (again,) = queue_pending(session, work.collection_id)
    assert again.puzzles == deep.puzzles
    assert queue_pending(session, work.collection_id) == []


def test_rerate_picks_results_of_other_settings_versions_or_estimates(
    session: Session, work: BatchWork
) -> None:
    """Each reason picks its own results against today's settings; a puzzle already in a
    pending rerate batch is not picked twice."""
    rows = [
        result_row(1, rating_profile="sukaku"),
        result_row(2, solver_version="old"),
        result_row(3, rating_state="estimated"),
        result_row(4, rating_tier="fast"),
    ]
    record_work(session, work, rows)
    session.commit()
    pids = {n: pid for n, (pid, _) in enumerate(work.puzzles, 1)}

    def picked(*reasons: str) -> set[int]:
        found = queue_rerate(
            session, work.collection_id, stale("classic", True, "test", reasons), 10
        )
        session.rollback()
        return {pid for batch in found for pid, _ in batch.puzzles}

    assert picked("settings") == {pids[1], pids[4]}
    assert picked("version") == {pids[2]}
    assert picked("estimated") == {pids[3]}
    assert picked("settings", "version", "estimated") == set(pids.values())
    assert queue_rerate(
        session, work.collection_id, stale("classic", False, "test", ["settings"]), 2
    )
    session.commit()
    held = stale("classic", False, "test", ["settings"])  # fast now: every exact-mode result
    assert queue_rerate(session, work.collection_id, held, 2) == []


def test_unfinished_rating_batches_come_back_with_their_puzzles_and_kind(
    session: Session, work: BatchWork
) -> None:
    """An interrupted rerate or deep tier is resumed from the database: its batches, with
    their puzzles from batch_puzzles."""
    (deep,) = imported(session, work)
    made = queue_rerate(session, work.collection_id, stale("sukaku", True, "test", ["settings"]), 3)
    session.commit()
    found = list(unfinished_batches(session, work.collection_id, kinds=(RERATE, DEEP_BATCH)))
    assert sorted(found, key=lambda b: b.batch_id) == sorted(
        [deep, *made], key=lambda b: b.batch_id
    )
