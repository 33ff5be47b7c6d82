"""worker.bulk.producer: a file imported chunk by chunk, stored by a child process where
another process can open the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from db.engine import ensure_schema, make_engine, session_factory
from db.imports import BatchWork, add_records
from db.migrate import upgrade
from db.models import CollectionPuzzle
from tests.worker.files.test_sources import EASY, HARDEST, SEVENTEEN
from worker.bulk import producer
from worker.bulk.producer import import_chunks, open_import
from worker.files.inputs import Input, readable

LINES = [EASY, SEVENTEEN, HARDEST, "not a puzzle"] * 6


@pytest.fixture(params=[2, 4])
def big(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file read in a child process, however small, every chunk of it, on two cores (that
    child stores the chunks) or four (a second child stores them)."""
    monkeypatch.setattr("worker.files.reader.READ_AHEAD_FROM", 0)
    monkeypatch.setattr("worker.files.reader.HEAD_START", 0)
    monkeypatch.setattr("os.cpu_count", lambda: request.param)
    path = tmp_path / "big.txt"
    path.write_text("\n".join(LINES) + "\n")
    return path


def imported(sessions: sessionmaker[Session], path: Path) -> list[int]:
    """Every batch the import of `path` hands out (`size` 4 a batch), by id."""
    with readable(Input(str(path))) as source:
        job = open_import(sessions, source, "big")
        return [w.batch_id for works in import_chunks(sessions, job, 4) for w in works]


def lines(sessions: sessionmaker[Session]) -> int:
    """The accepted lines stored."""
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(CollectionPuzzle)) or 0


def refuse(*_args: object, **_kwargs: object) -> None:
    raise AssertionError("the calling process stored a chunk")


def test_a_large_file_is_stored_by_a_child_process_not_the_caller(
    big: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The calling process (`run`'s, `import`'s) only hands out the batches: every line and
    batch is there, though storing a chunk here would fail."""
    upgrade(database_url)
    engine = make_engine(database_url)
    sessions = session_factory(engine)
    monkeypatch.setattr(producer, "add_records", refuse)
    batches = imported(sessions, big)
    assert lines(sessions) == 18
    assert len(batches) == 1  # the 3 distinct puzzles, up to 4 a batch
    engine.dispose()


def test_a_large_file_s_first_chunk_is_stored_by_the_caller_while_its_child_starts(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The calling process stores the chunks up to HEAD_START records (here the first, of 20),
    its child the rest (of 40, then 36): every line is stored, once."""
    monkeypatch.setattr("worker.files.reader.READ_AHEAD_FROM", 0)
    monkeypatch.setattr("worker.files.reader.HEAD_START", 8)
    path = tmp_path / "big.txt"
    path.write_text("\n".join(LINES * 4) + "\n")
    upgrade(database_url)
    engine = make_engine(database_url)
    sessions = session_factory(engine)
    stored_here: list[int] = []

    def add_here(*args: Any, **kwargs: Any) -> list[BatchWork]:
        stored_here.append(len(args[2]))  # the chunk's accepted lines
        return add_records(*args, **kwargs)

    monkeypatch.setattr(producer, "add_records", add_here)
    assert len(imported(sessions, path)) == 1  # the 3 distinct puzzles, up to 4 a batch
    assert stored_here == [15]  # 20 records, one line in four not a puzzle
    assert lines(sessions) == 72
    engine.dispose()


def test_a_database_in_memory_is_stored_by_the_calling_process(big: Path) -> None:
    """No other process can open it: the child only reads."""
    engine = make_engine("sqlite://", poolclass=StaticPool)
    ensure_schema(engine)
    sessions = session_factory(engine)
    imported(sessions, big)
    assert lines(sessions) == 18


def test_a_file_s_import_leaves_postgresql_s_statistics_counting_its_lines(
    postgres_url: str, tmp_path: Path
) -> None:
    """Once a file is stored, the planner's statistics count its lines (the closing summary
    plans on them), not the empty table they were made on."""
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    sessions = session_factory(engine)
    path = tmp_path / "small.txt"
    path.write_text("\n".join(LINES) + "\n")
    imported(sessions, path)
    with sessions() as session:
        counted = "SELECT reltuples FROM pg_class WHERE relname = 'collection_puzzles'"
        assert session.scalar(text(counted)) == lines(sessions) == 18
    engine.dispose()
