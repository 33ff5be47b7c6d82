"""worker.runner: each pool process stores the batch it solved on its own connection, and hands
it back solved, for `run`'s process to store, while SQLite is busy with another writer."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from db.engine import ensure_schema, make_engine, session_factory
from db.imports import BatchWork
from db.migrate import upgrade
from db.models import DONE, Batch, Result
from db.tiers import RatingPlan
from tests.worker.test_sources import EASY, SEVENTEEN
from worker import runner
from worker.batch import Solved
from worker.inputs import Input, readable
from worker.producer import import_chunks, open_import
from worker.runner import LocalPool, NotStored, solve_and_store

LINES = [EASY, SEVENTEEN, "not a puzzle", EASY]
FAST_PLAN = RatingPlan(exact=False)  # SE's chains off: the batches are solved at once


def imported(sessions: sessionmaker[Session], folder: Path) -> list[BatchWork]:
    """The batches of a small file, one puzzle each, stored and committed."""
    path = folder / "small.txt"
    path.write_text("\n".join(LINES) + "\n")
    with readable(Input(str(path))) as source:
        job = open_import(sessions, source, "small")
        return [work for works in import_chunks(sessions, job, 1) for work in works]


def stored(sessions: sessionmaker[Session]) -> tuple[int, int]:
    """(results stored, batches done)."""
    with sessions() as session:
        results = session.scalar(select(func.count()).select_from(Result)) or 0
        done = session.scalar(select(func.count()).where(Batch.status == DONE)) or 0
    return results, done


@pytest.fixture
def sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    upgrade(database_url)
    engine = make_engine(database_url)
    yield session_factory(engine)
    engine.dispose()


def solved_here(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The batches `run`'s own process stores, by id, as they are stored."""
    here: list[int] = []
    record = LocalPool._record

    def spy(pool: LocalPool, session: Session, batch: runner._Batch) -> None:
        here.append(batch.work.batch_id)
        record(pool, session, batch)

    monkeypatch.setattr(LocalPool, "_record", spy)
    return here


def test_each_pool_process_stores_the_batch_it_solved(
    sessions: sessionmaker[Session], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`run`'s process only hands out the batches: with nothing else writing, none comes back
    to it, and every result is stored with its batch done."""
    works = imported(sessions, tmp_path)
    here = solved_here(monkeypatch)
    with runner.local_pool(sessions, 1, plan=FAST_PLAN) as pool:
        pool.dispatch_all(works)
    assert here == []
    assert stored(sessions) == (2, 2)


def test_a_database_in_memory_is_stored_by_the_calling_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No pool process can open it: the rows come back and are stored here."""
    engine = make_engine("sqlite://", poolclass=StaticPool)
    ensure_schema(engine)
    sessions = session_factory(engine)
    works = imported(sessions, tmp_path)
    here = solved_here(monkeypatch)
    with runner.local_pool(sessions, 1, plan=FAST_PLAN) as pool:
        pool.dispatch_all(works)
    assert sorted(here) == sorted(work.batch_id for work in works)
    assert stored(sessions) == (2, 2)


def test_a_batch_comes_back_solved_while_another_process_writes(
    sqlite_url: str, tmp_path: Path
) -> None:
    """A pool process does not wait its turn (its core would idle): the batch comes back
    solved, nothing of it stored; once the other writer is done, the same call stores it."""
    upgrade(sqlite_url)
    engine = make_engine(sqlite_url)
    sessions = session_factory(engine)
    work = imported(sessions, tmp_path)[0]
    other = sqlite3.connect(str(make_url(sqlite_url).database), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds SQLite's write lock
    back = solve_and_store(work, sqlite_url, node_budget=None, plan=FAST_PLAN)
    assert isinstance(back, Solved)
    assert [row.puzzle_id for row in back.rows] == [pid for pid, _ in work.puzzles]
    assert stored(sessions) == (0, 0)
    other.execute("ROLLBACK")
    assert solve_and_store(work, sqlite_url, node_budget=None, plan=FAST_PLAN) == []
    assert stored(sessions) == (1, 1)
    other.close()
    engine.dispose()


def test_a_batch_that_cannot_be_stored_says_which_and_why(tmp_path: Path) -> None:
    """Not the batch's fault (the run stops, the batch stays pending): the error names the
    batch and the database's reason."""
    empty = f"sqlite:///{tmp_path / 'empty.db'}"  # no schema
    work = BatchWork(7, 1, [(1, EASY)])
    with pytest.raises(NotStored, match=r"batch 7 was not stored: OperationalError: .*no such"):
        solve_and_store(work, empty, node_budget=None, plan=FAST_PLAN)
    assert NotStored in runner.NOT_THE_BATCH
