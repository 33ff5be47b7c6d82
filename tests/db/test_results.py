"""Writing results: idempotent batches, failures and the counters they move."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from db.engine import make_engine, session_factory
from db.errors import UnknownBatch
from db.imports import BatchWork, add_records, get_or_create_collection
from db.migrate import upgrade
from db.models import Batch, Collection, Result
from db.results import ResultRow, insert_results, record_batch, record_batch_failure
from tests.db.conftest import ended_on_deadlock, grid, result_row


@pytest.fixture
def work(session: Session) -> list[BatchWork]:
    """A committed collection of 5 distinct puzzles in batches of 3 and 2."""
    c = get_or_create_collection(session, "c", "c.txt", "a" * 64)
    work = add_records(session, c.id, [(i, grid(i)) for i in range(1, 6)], [], batch_size=3)
    session.commit()
    return work


def rows_of(batch: BatchWork) -> list[ResultRow]:
    return [result_row(pid, technique_counts={"x_wing": 1}) for pid, _ in batch.puzzles]


def state(session: Session, collection_id: int) -> tuple[int, int, int, list[str]]:
    c = session.get_one(Collection, collection_id, populate_existing=True)
    results = session.scalar(select(func.count()).select_from(Result)) or 0
    statuses = list(session.scalars(select(Batch.status).order_by(Batch.id)))
    return results, c.done, c.failed, statuses


def test_writing_the_same_batch_twice_leaves_the_same_rows_and_counters(
    session: Session, work: list[BatchWork]
) -> None:
    """A redelivered batch inserts nothing and does not advance done again."""
    batch = work[0]
    assert record_batch(session, batch.batch_id, rows_of(batch)) == 3
    session.commit()
    once = state(session, batch.collection_id)
    assert once == (3, 3, 0, ["done", "pending"])
    assert record_batch(session, batch.batch_id, rows_of(batch)) == 0
    session.commit()
    assert state(session, batch.collection_id) == once


def test_rows_partly_stored_already_add_only_the_new_ones_and_keep_the_stored(
    session: Session, work: list[BatchWork]
) -> None:
    """A puzzle with a result keeps it when another batch brings it again beside new ones (on
    PostgreSQL the straight COPY clashes and the rows not stored yet go in on their own)."""
    first, second = (pid for pid, _ in work[0].puzzles[:2])
    assert insert_results(session, [result_row(first, difficulty="easy")]) == 1
    again = [result_row(first, difficulty="hard"), result_row(second, difficulty="hard")]
    assert insert_results(session, again) == 1
    session.commit()
    stored = dict(session.execute(select(Result.puzzle_id, Result.difficulty)).all())
    assert stored == {first: "easy", second: "hard"}


def test_results_are_stored_only_with_the_transaction_that_writes_them(
    engine: Engine, work: list[BatchWork]
) -> None:
    """Results written first in a transaction that is then rolled back (say, their batch was
    deleted meanwhile) leave nothing behind."""
    with session_factory(engine)() as session:
        assert insert_results(session, rows_of(work[0])) == 3
        session.rollback()
    with session_factory(engine)() as session:
        assert session.scalar(select(func.count()).select_from(Result)) == 0


def test_result_rows_round_trip_with_their_json_and_timestamps(
    session: Session, work: list[BatchWork]
) -> None:
    """Technique counts come back as a dict, and SQL reads into them (a JSON object on both
    databases); the timestamp comes back as stored (SQLite: its UTC text)."""
    pid = work[1].puzzles[0][0]
    when = datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC)
    row = result_row(pid, technique_counts={"x_wing": 2, "pointing": 1}, solved_at=when)
    record_batch(session, work[1].batch_id, [row, result_row(work[1].puzzles[1][0])])
    session.commit()
    stored = session.get_one(Result, pid)
    assert stored.technique_counts == {"x_wing": 2, "pointing": 1}
    x_wings = select(Result.technique_counts["x_wing"].as_integer()).where(Result.puzzle_id == pid)
    assert session.scalar(x_wings) == 2
    stamp = stored.solved_at
    assert (stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)) == when


def test_a_large_batch_goes_through_the_bulk_path(session: Session) -> None:
    """1,000 rows (COPY on PostgreSQL) are all inserted, and only once."""
    c = get_or_create_collection(session, "big", "big.txt", "b" * 64)
    (batch,) = add_records(session, c.id, [(i, grid(i)) for i in range(1, 1001)], [], 1000)
    assert record_batch(session, batch.batch_id, rows_of(batch)) == 1000
    assert record_batch(session, batch.batch_id, rows_of(batch)) == 0
    session.commit()
    assert state(session, c.id)[:2] == (1000, 1000)


def test_a_failed_batch_counts_as_failed_once(session: Session, work: list[BatchWork]) -> None:
    """record_batch_failure flips pending to failed once and advances failed by its size."""
    batch = work[1]
    assert record_batch_failure(session, batch.batch_id, "worker lost") is True
    assert record_batch_failure(session, batch.batch_id, "worker lost") is False
    session.commit()
    assert state(session, batch.collection_id) == (0, 0, 2, ["pending", "failed"])
    assert session.get_one(Batch, batch.batch_id).error == "worker lost"


def test_a_result_row_is_built_by_the_names_of_the_results_columns() -> None:
    """A row's fields are the table's columns, in order, so it goes to the driver as it is; it
    is built by name, and a column left out or one the table lacks is refused."""
    row = result_row(1)
    assert row._fields == tuple(column.name for column in Result.__table__.columns)
    values = row._asdict()
    assert ResultRow(**dict(reversed(values.items()))) == row
    with pytest.raises(TypeError):
        ResultRow(**{name: value for name, value in values.items() if name != "solved_at"})
    with pytest.raises(TypeError):
        ResultRow(**values, rating_colour="blue")


def test_an_unknown_batch_is_an_error(session: Session, work: list[BatchWork]) -> None:
    """Recording a batch id that does not exist raises UnknownBatch."""
    with pytest.raises(UnknownBatch):
        record_batch(session, 10_000, [])


def test_bulk_batches_in_successive_transactions_are_all_written(session: Session) -> None:
    """The staging table of the bulk path is reused across commits without losing rows."""
    c = get_or_create_collection(session, "bulk", "bulk.txt", "c" * 64)
    work = add_records(session, c.id, [(i, grid(i)) for i in range(1, 901)], [], 300)
    session.commit()
    for batch in work:
        assert record_batch(session, batch.batch_id, rows_of(batch)) == 300
        session.commit()
    assert state(session, c.id) == (900, 900, 0, ["done", "done", "done"])


def batches_of(session: Session, *collections: tuple[int, ...]) -> list[BatchWork]:
    """One collection, of one batch, for each tuple of puzzle numbers (`grid`), committed."""
    works = []
    for name, numbers in zip("abcdefgh", collections, strict=False):
        c = get_or_create_collection(session, name, f"{name}.txt", name * 64)
        lines = [(line, grid(n)) for line, n in enumerate(numbers, 1)]
        works += add_records(session, c.id, lines, [], batch_size=10)
    session.commit()
    return works


def test_two_workers_storing_one_puzzles_result_at_once_both_finish_with_one_row(
    postgres_url: str,
) -> None:
    """On PostgreSQL results go in with a plain insert; when another worker stores the same
    puzzle's result meanwhile (two collections share it), the batch waits for it, stores the
    rest and is done: the puzzle keeps one result."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    sessions = session_factory(engine)
    with sessions() as first, sessions() as second:
        works = batches_of(first, (1, 2), (2, 3))
        record_batch(first, works[0].batch_id, rows_of(works[0]))
        with ThreadPoolExecutor(1) as pool:  # waits on the result `first` has not committed
            later = pool.submit(record_batch, second, works[1].batch_id, rows_of(works[1]))
            time.sleep(0.5)
            first.commit()
            stored = later.result(timeout=30)
        second.commit()
        results = second.scalar(select(func.count()).select_from(Result))
        statuses = list(second.scalars(select(Batch.status).order_by(Batch.id)))
    engine.dispose()
    assert stored == 1  # the third puzzle's; the shared one was there
    assert results == 3
    assert statuses == ["done", "done"]


def test_two_workers_whose_results_cross_both_finish_when_the_server_ends_one_deadlocked(
    postgres_url: str,
) -> None:
    """Two workers storing the results of the same two puzzles in crossed orders wait for each
    other; the server ends one with a deadlock, and that batch goes on to its safer insert:
    both finish, each puzzle with one result."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    sessions = session_factory(engine)
    with sessions() as first, sessions() as second:
        works = batches_of(first, (1, 2), (2, 1))
        ended_on_deadlock(second, first)
        one, two = rows_of(works[0])
        insert_results(first, [one])
        with ThreadPoolExecutor(1) as pool:  # stores the second puzzle's, waits on the first's
            later = pool.submit(record_batch, second, works[1].batch_id, rows_of(works[1]))
            time.sleep(0.5)
            insert_results(first, [two])  # waits on the second puzzle's: a deadlock
            first.commit()
            stored = later.result(timeout=30)
        second.commit()
        results = second.scalar(select(func.count()).select_from(Result))
        status = second.scalar(select(Batch.status).where(Batch.id == works[1].batch_id))
    engine.dispose()
    assert stored == 0  # both results were the other worker's
    assert results == 2
    assert status == "done"
