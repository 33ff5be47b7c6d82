"""Importing records: puzzles, lines, duplicates, rejected lines, batches and counters."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

import solver
from db.engine import make_engine, session_factory
from db.errors import CollectionConflict
from db.imports import (
    BatchWork,
    add_records,
    get_or_create_collection,
    refresh_statistics,
    unfinished_batches,
)
from db.known import PUZZLE_IDS
from db.migrate import upgrade
from db.models import Batch, Collection, CollectionPuzzle, Puzzle, RejectedLine
from db.queries import progress
from db.raw_text import RAW_TEXT_LIMIT, clean_raw_text
from db.results import record_batch
from tests.db.conftest import ended_on_deadlock, grid, result_row

HASH = "a" * 64


def counters(session: Session, collection_id: int) -> dict[str, int]:
    c = session.get_one(Collection, collection_id, populate_existing=True)
    names = ("lines_read", "accepted", "duplicates", "rejected", "total", "done", "failed")
    return {name: getattr(c, name) for name in names}


def count(session: Session, model: type) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0


def test_a_collection_is_created_once_and_found_again(session: Session) -> None:
    """The same name and hash give back the same collection."""
    first = get_or_create_collection(session, "c", "c.txt", HASH)
    again = get_or_create_collection(session, "c", "c.txt", HASH)
    assert first.id == again.id


def test_a_collection_name_with_another_file_is_refused(session: Session) -> None:
    """Importing a different file under the name of a collection holding lines raises a
    clear error naming both ways out."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    add_records(session, c.id, [(1, grid(1))], [], batch_size=10)
    with pytest.raises(CollectionConflict, match=r"'c' was imported from c\.txt.*--replace"):
        get_or_create_collection(session, "c", "other.txt", "b" * 64)


def test_records_become_puzzles_lines_and_batches(session: Session) -> None:
    """Accepted records make distinct puzzles, cut into batches of at most batch_size."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    work = add_records(session, c.id, [(i, grid(i)) for i in range(1, 6)], [], batch_size=2)
    assert [len(w.puzzles) for w in work] == [2, 2, 1]
    assert [g for w in work for _, g in w.puzzles] == [grid(i) for i in range(1, 6)]
    assert work[0].to_message() == {
        "batch_id": work[0].batch_id,
        "collection_id": c.id,
        "puzzles": [[pid, g] for pid, g in work[0].puzzles],
    }
    assert counters(session, c.id)["total"] == 5
    assert list(unfinished_batches(session, c.id)) == work


def test_new_puzzles_get_ids_in_first_line_order_with_their_count_and_canonical_form(
    session: Session,
) -> None:
    """Each new puzzle is stored once, its id in the order of its first line, with the number of
    its givens and its canonical form (PostgreSQL draws the ids itself, COPYing them in)."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    lines = [(1, grid(3)), (2, grid(1)), (3, grid(3)), (4, grid(2))]
    add_records(session, c.id, lines, [], batch_size=10)
    rows = session.execute(
        select(Puzzle.givens, Puzzle.givens_count, Puzzle.canonical).order_by(Puzzle.id)
    ).all()
    assert [givens for givens, _, _ in rows] == [grid(3), grid(1), grid(2)]
    assert [count for _, count, _ in rows] == [
        sum(cell.isdigit() for cell in givens) for givens, _, _ in rows
    ]
    assert [canonical for _, _, canonical in rows] == solver.canonical_many(
        [givens for givens, _, _ in rows]
    )


def test_adding_the_same_records_twice_changes_nothing(session: Session) -> None:
    """A replayed chunk inserts no row, makes no batch and counts nothing twice."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    accepted = [(1, grid(1)), (2, grid(2)), (3, grid(1))]
    rejected = [(4, "not a puzzle", "too short: 12 characters", None)]
    add_records(session, c.id, accepted, rejected, batch_size=10)
    before = counters(session, c.id)
    assert add_records(session, c.id, accepted, rejected, batch_size=10) == []
    assert counters(session, c.id) == before
    assert count(session, Puzzle) == 2
    assert count(session, CollectionPuzzle) == 3
    assert count(session, Batch) == 1


def test_duplicates_are_counted_once_within_and_across_chunks(session: Session) -> None:
    """A puzzle repeated in the same chunk or a later one is a duplicate, never re-batched."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    first = add_records(session, c.id, [(1, grid(1)), (2, grid(1)), (3, grid(2))], [], 10)
    second = add_records(session, c.id, [(4, grid(2)), (5, grid(3))], [], 10)
    assert [g for _, g in first[0].puzzles] == [grid(1), grid(2)]
    assert [g for _, g in second[0].puzzles] == [grid(3)]
    flags = session.execute(
        select(
            CollectionPuzzle.line, CollectionPuzzle.is_duplicate, CollectionPuzzle.batch_id
        ).order_by(CollectionPuzzle.line)
    ).all()
    assert [(line, dup, batch is None) for line, dup, batch in flags] == [
        (1, False, False),
        (2, True, True),
        (3, False, False),
        (4, True, True),
        (5, False, False),
    ]
    assert counters(session, c.id) == {
        "lines_read": 5,
        "accepted": 3,
        "duplicates": 2,
        "rejected": 0,
        "total": 3,
        "done": 0,
        "failed": 0,
    }


def test_rejected_lines_are_stored_with_their_reason(session: Session) -> None:
    """Rejected lines keep reason and column; raw text is cut to 200 chars, NUL escaped."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    rejected = [
        (1, "12x4", "character 'x' is not a digit or '.'", 3),
        (2, "bad\x00byte" + "9" * 300, "too long", None),
    ]
    add_records(session, c.id, [], rejected, batch_size=10)
    session.commit()
    rows = session.scalars(select(RejectedLine).order_by(RejectedLine.line)).all()
    assert [(r.line, r.reason, r.column) for r in rows] == [
        (1, "character 'x' is not a digit or '.'", 3),
        (2, "too long", None),
    ]
    assert rows[1].raw_text.startswith("bad\\x00byte")
    assert len(rows[1].raw_text) == RAW_TEXT_LIMIT  # cut after escaping: never longer
    assert counters(session, c.id)["rejected"] == 2


@pytest.mark.parametrize(
    "raw", ["12x4", "bad\x00byte" * 40, "lone \ud800 surrogate", "9" * 500], ids=repr
)
def test_raw_text_cleaned_twice_is_cleaned_once(raw: str) -> None:
    """The reader cleans a rejected line and the import cleans it again: the text stored is
    the text the reader reported, within the limit."""
    once = clean_raw_text(raw)
    assert clean_raw_text(once) == once
    assert len(once) <= RAW_TEXT_LIMIT
    assert "\x00" not in once
    once.encode("utf-8")  # PostgreSQL text takes it


def test_counters_add_up_to_the_lines_read(session: Session) -> None:
    """lines_read = accepted + duplicates + rejected after every chunk."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    chunks = [
        ([(1, grid(1)), (2, grid(1))], [(3, "x", "bad", 1)]),
        ([(4, grid(2)), (5, grid(1))], [(6, "y", "bad", 1), (7, "", "empty", None)]),
    ]
    for accepted, rejected in chunks:
        add_records(session, c.id, accepted, rejected, batch_size=10)
        n = counters(session, c.id)
        assert n["lines_read"] == n["accepted"] + n["duplicates"] + n["rejected"]
    assert counters(session, c.id)["lines_read"] == 7


def test_a_puzzle_already_solved_is_not_batched_and_counts_as_done(session: Session) -> None:
    """A puzzle solved for another collection needs no batch and is done at import."""
    first = get_or_create_collection(session, "first", "a.txt", HASH)
    (work,) = add_records(session, first.id, [(1, grid(1))], [], batch_size=10)
    record_batch(session, work.batch_id, [result_row(work.puzzles[0][0])])
    second = get_or_create_collection(session, "second", "b.txt", "b" * 64)
    work2 = add_records(session, second.id, [(1, grid(1)), (2, grid(2))], [], batch_size=10)
    assert [[g for _, g in w.puzzles] for w in work2] == [[grid(2)]]
    assert counters(session, second.id)["done"] == 1
    assert progress(session, second.id) == (1, 2)


def test_puzzles_seen_before_beside_new_ones_are_stored_once_each_line_naming_its_own(
    session: Session,
) -> None:
    """A chunk mixing puzzles another collection holds with new ones (on PostgreSQL the insert
    of all of them as new is refused, and only the unseen ones go in): one row a puzzle, and
    every line holds the puzzle of its givens."""
    first = get_or_create_collection(session, "first", "a.txt", HASH)
    add_records(session, first.id, [(1, grid(2)), (2, grid(4))], [], batch_size=10)
    second = get_or_create_collection(session, "second", "b.txt", "b" * 64)
    lines = [(line, grid(line)) for line in range(1, 6)]
    add_records(session, second.id, lines, [], batch_size=10)
    assert count(session, Puzzle) == 5
    held = select(CollectionPuzzle.line, Puzzle.givens).join(
        Puzzle, Puzzle.id == CollectionPuzzle.puzzle_id
    )
    assert sorted(session.execute(held.where(CollectionPuzzle.collection_id == second.id))) == [
        (line, givens) for line, givens in lines
    ]


def test_only_pending_batches_are_unfinished(session: Session) -> None:
    """unfinished_batches leaves out batches already done, for a resumed import."""
    c = get_or_create_collection(session, "c", "c.txt", HASH)
    work = add_records(session, c.id, [(i, grid(i)) for i in range(1, 4)], [], batch_size=1)
    record_batch(session, work[1].batch_id, [result_row(work[1].puzzles[0][0])])
    pending = list(unfinished_batches(session, c.id))
    assert [w.batch_id for w in pending] == [work[0].batch_id, work[2].batch_id]
    assert all(isinstance(w, BatchWork) for w in pending)


def test_two_imports_storing_the_same_new_puzzle_at_once_both_finish_with_one_row(
    postgres_url: str,
) -> None:
    """On PostgreSQL a chunk's new puzzles are COPied in as all new; when another import
    stores one of them meanwhile, the chunk waits for it, then stores the others: both
    collections hold the one row of the puzzle they share."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    sessions = session_factory(engine)
    with sessions() as first, sessions() as second:
        a = get_or_create_collection(first, "a", "a.txt", "a" * 64)
        b = get_or_create_collection(second, "b", "b.txt", "b" * 64)
        first.commit()
        second.commit()
        add_records(first, a.id, [(1, grid(1)), (2, grid(2))], [], batch_size=10)
        with ThreadPoolExecutor(1) as pool:  # waits on the puzzle `first` has not committed
            later = pool.submit(
                add_records, second, b.id, [(1, grid(2)), (2, grid(3))], [], batch_size=10
            )
            time.sleep(0.5)
            first.commit()
            later.result(timeout=30)
        second.commit()
        puzzles = dict(second.execute(select(Puzzle.givens, Puzzle.id)).all())
        lines = second.execute(
            select(
                CollectionPuzzle.collection_id, CollectionPuzzle.line, CollectionPuzzle.puzzle_id
            )
        ).all()
    engine.dispose()
    assert sorted(puzzles) == sorted([grid(1), grid(2), grid(3)])
    assert sorted(lines) == [
        (a.id, 1, puzzles[grid(1)]),
        (a.id, 2, puzzles[grid(2)]),
        (b.id, 1, puzzles[grid(2)]),
        (b.id, 2, puzzles[grid(3)]),
    ]


def test_two_imports_whose_new_puzzles_cross_both_finish_when_the_server_ends_one_deadlocked(
    postgres_url: str,
) -> None:
    """Two imports storing the same two new puzzles in crossed orders wait for each other; the
    server ends one with a deadlock, and that import goes on to its safer insert: both finish,
    each puzzle stored once."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    sessions = session_factory(engine)
    insert = text("INSERT INTO puzzles (givens, givens_count) VALUES (:givens, 1)")
    with sessions() as first, sessions() as second:
        b = get_or_create_collection(second, "b", "b.txt", "b" * 64)
        second.commit()
        ended_on_deadlock(second, first)
        first.execute(insert, {"givens": grid(2)})
        with ThreadPoolExecutor(1) as pool:  # stores grid(1), then waits on grid(2)
            later = pool.submit(
                add_records, second, b.id, [(1, grid(1)), (2, grid(2))], [], batch_size=10
            )
            time.sleep(0.5)
            first.execute(insert, {"givens": grid(1)})  # waits on grid(1): a deadlock
            first.commit()
            later.result(timeout=30)
        second.commit()
        puzzles = second.execute(select(Puzzle.givens, Puzzle.id)).all()
        lines = second.execute(select(CollectionPuzzle.line, CollectionPuzzle.puzzle_id)).all()
    engine.dispose()
    ids = dict(puzzles)
    assert sorted(ids) == [grid(1), grid(2)]
    assert len(puzzles) == 2
    assert sorted(lines) == [(1, ids[grid(1)]), (2, ids[grid(2)])]


def test_a_large_import_refreshes_postgresql_s_statistics_of_the_lines_and_a_small_one_not(
    postgres_url: str,
) -> None:
    """An import of a tenth or more of the lines the statistics counted has them counted
    again at once (the planner then sees a large collection as large); a smaller one leaves
    that to autovacuum."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    counted = text("SELECT reltuples FROM pg_class WHERE relname = 'collection_puzzles'")
    with session_factory(engine)() as session:
        big = get_or_create_collection(session, "big", "big.txt", "a" * 64)
        add_records(session, big.id, [(i, grid(i)) for i in range(1, 41)], [], batch_size=10)
        assert refresh_statistics(session, big.id)
        session.commit()
        assert session.scalar(counted) == 40
        small = get_or_create_collection(session, "small", "small.txt", "b" * 64)
        add_records(session, small.id, [(1, grid(41)), (2, grid(42))], [], batch_size=10)
        assert not refresh_statistics(session, small.id)
        session.commit()
        assert session.scalar(counted) == 40
    engine.dispose()


def test_postgresql_s_puzzle_ids_are_drawn_from_the_sequence_the_table_owns(
    postgres_url: str,
) -> None:
    """The sequence an import draws new puzzles' ids from is the one `puzzles.id` defaults
    to: a row added by hand later gets an id none of the import's takes."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    with session_factory(engine)() as session:
        owned = text("SELECT pg_get_serial_sequence('puzzles', 'id')")
        assert session.scalar(owned) == f"public.{PUZZLE_IDS}"
    engine.dispose()
