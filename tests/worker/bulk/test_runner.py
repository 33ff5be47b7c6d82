"""worker.bulk.runner: on PostgreSQL each pool process stores the batch it solved, on its own
connection; on SQLite, a database of one writer at a time, a writer process of its own stores
them; `run`'s own process stores only what no other process can (SQLite in memory)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from db.engine import ensure_schema, make_engine, session_factory
from db.imports import BatchWork
from db.migrate import upgrade
from db.models import DONE, Batch, Result
from db.tiers import RatingPlan
from tests.conftest import alive, shared_file
from tests.worker.files.test_sources import EASY, SEVENTEEN
from worker.bulk import runner, writer
from worker.bulk.producer import import_chunks, open_import
from worker.bulk.runner import NotStored, solve_and_store
from worker.bulk.writer import Finished, Stored, store
from worker.files.inputs import Input, readable

LINES = [EASY, SEVENTEEN, "not a puzzle", EASY]
FAST_PLAN = RatingPlan(exact=False)  # SE's chains off: the batches are solved at once


def imported(sessions: sessionmaker[Session], folder: Path, size: int = 1) -> list[BatchWork]:
    """The batches of a small file, `size` puzzles each (one by default), stored and
    committed."""
    path = folder / "small.txt"
    path.write_text("\n".join(LINES) + "\n")
    with readable(Input(str(path))) as source:
        job = open_import(sessions, source, "small")
        return [work for works in import_chunks(sessions, job, size) for work in works]


def stored(sessions: sessionmaker[Session]) -> tuple[int, int]:
    """(results stored, batches done)."""
    with sessions() as session:
        results = session.scalar(select(func.count()).select_from(Result)) or 0
        done = session.scalar(select(func.count()).where(Batch.status == DONE)) or 0
    return results, done


@pytest.fixture
def opened() -> Iterator[Callable[[str], sessionmaker[Session]]]:
    """Sessions on a database made ready (its engine closed after the test)."""
    engines: list[Engine] = []

    def open_at(url: str) -> sessionmaker[Session]:
        upgrade(url)
        engines.append(make_engine(url))
        return session_factory(engines[-1])

    yield open_at
    for engine in engines:
        engine.dispose()


def solved_here(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The batches `run`'s own process stores, by id, as they are stored."""
    here: list[int] = []

    def spy(session: Session, finished: Finished) -> Stored:
        here.append(finished.work.batch_id)
        return store(session, finished)

    monkeypatch.setattr(runner, "store", spy)
    return here


def solve_all(sessions: sessionmaker[Session], works: list[BatchWork]) -> None:
    with runner.local_pool(sessions, 2, plan=FAST_PLAN) as pool:
        pool.dispatch_all(works)


def test_on_postgresql_each_pool_process_stores_the_batch_it_solved(
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: Callable[[str], sessionmaker[Session]],
) -> None:
    """`run`'s process only hands out the batches: none comes back to it, and every result is
    stored with its batch done."""
    sessions = opened(postgres_url)
    works = imported(sessions, tmp_path)
    here = solved_here(monkeypatch)
    solve_all(sessions, works)
    assert here == []
    assert stored(sessions) == (2, 2)


def test_on_sqlite_a_writer_process_stores_every_batch(
    sqlite_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: Callable[[str], sessionmaker[Session]],
) -> None:
    """SQLite's one writer of results is a process of its own: `run`'s process stores none,
    yet every result is stored and counted solved once the pool is drained."""
    sessions = opened(sqlite_url)
    works = imported(sessions, tmp_path)
    here = solved_here(monkeypatch)
    counted: list[int] = []
    with runner.local_pool(sessions, 2, plan=FAST_PLAN, on_solved=counted.append) as pool:
        pool.dispatch_all(works)
    assert here == []
    assert stored(sessions) == (2, 2)
    assert sum(counted) == 2


@pytest.mark.parametrize("where", ["file", "memory"])
def test_a_batch_cut_into_parts_is_stored_whole_once_every_part_is_solved(
    where: str, tmp_path: Path, opened: Callable[[str], sessionmaker[Session]]
) -> None:
    """Two idle pool processes each solve half of the one batch, on SQLite's writer process
    (a file) or in `run`'s own (in memory): the batch is done with both its results."""
    if where == "file":
        sessions = opened(f"sqlite:///{tmp_path / 'parts.db'}")
    else:
        engine = make_engine("sqlite://", poolclass=StaticPool)
        ensure_schema(engine)
        sessions = session_factory(engine)
    [work] = imported(sessions, tmp_path, size=len(LINES))
    assert len(runner.split(work, 2)) == 2
    solve_all(sessions, [work])
    assert stored(sessions) == (2, 1)


def test_sqlite_in_memory_is_stored_by_runs_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No other process can open it: the rows come back and are stored here."""
    engine = make_engine("sqlite://", poolclass=StaticPool)
    ensure_schema(engine)
    sessions = session_factory(engine)
    works = imported(sessions, tmp_path)
    here = solved_here(monkeypatch)
    solve_all(sessions, works)
    assert sorted(here) == sorted(work.batch_id for work in works)
    assert stored(sessions) == (2, 2)
    engine.dispose()


def test_a_writer_that_cannot_store_stops_the_run_naming_the_batches(
    sqlite_url: str, tmp_path: Path, opened: Callable[[str], sessionmaker[Session]]
) -> None:
    """The database refuses the writer's transaction: the run stops with the database's
    reason and the batches stay pending, for a re-run to solve."""
    sessions = opened(sqlite_url)
    works = imported(sessions, tmp_path)
    with sessions() as session:  # results can no longer be written
        session.execute(
            text(
                "CREATE TRIGGER refuse BEFORE INSERT ON results "
                "BEGIN SELECT RAISE(ABORT, 'no room'); END"
            )
        )
        session.commit()
    with pytest.raises(NotStored, match=r"were not stored: IntegrityError: .*no room"):
        solve_all(sessions, works)
    assert stored(sessions) == (0, 0)
    writers = [p for p in multiprocessing.active_children() if p.name == writer.NAME]
    assert writers == []  # stopped and waited for (the pool's processes end on their own)


def test_a_batch_that_cannot_be_stored_says_which_and_why(tmp_path: Path) -> None:
    """Not the batch's fault (the run stops, the batch stays pending): the error names the
    batch and the database's reason."""
    empty = f"sqlite:///{tmp_path / 'empty.db'}"  # no schema
    work = BatchWork(7, 1, [(1, EASY)])
    with pytest.raises(NotStored, match=r"batch 7 was not stored: OperationalError: .*no such"):
        solve_and_store(work, empty, node_budget=None, plan=FAST_PLAN)
    assert NotStored in runner.NOT_THE_BATCH


COMM = Path("/proc/self/comm")  # where Linux shows a process's name


def shown_name() -> str:
    return COMM.read_text().strip()


@pytest.mark.skipif(not COMM.exists(), reason="no /proc/self/comm: not Linux")
def test_pool_and_writer_processes_show_what_they_do(
    sqlite_url: str, opened: Callable[[str], sessionmaker[Session]]
) -> None:
    """`top` and `ps` show `sudoku-pool` and `sudoku-results`, not `python`."""
    with runner.local_pool(opened(sqlite_url), 2, plan=FAST_PLAN) as pool:
        assert pool._pool.submit(shown_name).result() == runner.POOL_NAME
        writers = [p for p in multiprocessing.active_children() if p.name == writer.NAME]
        deadline = time.monotonic() + 60  # the writer names itself once started
        while Path(f"/proc/{writers[0].pid}/comm").read_text().strip() != writer.NAME:
            assert time.monotonic() < deadline, "the writer did not show its name"
            time.sleep(0.05)


def children_of(pid: int) -> list[int]:
    """The pids of the processes whose parent is `pid` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not COMM.exists(), reason="no /proc: not Linux")
def test_a_run_killed_mid_file_leaves_no_process_behind(tmp_path: Path) -> None:
    """`run` killed (SIGKILL: no clean-up of its own) while its pool solves: its pool
    processes, its results' writer and its reader all end within seconds."""
    puzzles = shared_file("seventeen_clue_49k.txt")
    env = {**os.environ, "SUDOKU_DATABASE_URL": f"sqlite:///{tmp_path / 'run.db'}"}
    command = [sys.executable, "-m", "worker", "run", str(puzzles), "--workers", "2"]
    run = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while runner.POOL_NAME not in {shown(pid) for pid in children_of(run.pid)}:
        assert run.poll() is None, "run ended before its pool started"
        assert time.monotonic() < deadline, "run's pool did not start"
        time.sleep(0.1)
    children = children_of(run.pid)
    run.kill()
    run.wait()
    deadline = time.monotonic() + 30
    while left := [f"{pid} {shown(pid)}" for pid in children if alive(pid)]:
        assert time.monotonic() < deadline, f"outlived run by 30 s: {left}"
        time.sleep(0.1)


def shown(pid: int) -> str:
    """The name process `pid` shows (empty once it is gone)."""
    with suppress(OSError):
        return Path(f"/proc/{pid}/comm").read_text().strip()
    return ""
