"""The distributed path for real: Redis, PostgreSQL and two real worker processes."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from sqlalchemy import create_engine, text

import solver
from tests.integration.conftest import WorkerFactory, mixed_collection
from worker.cli import main

pytestmark = pytest.mark.integration
VIEW_COLUMNS = (
    "collection, line, puzzle, status, solution, solved_by_elimination, hardest_technique,"
    " recursion_depth, guesses, difficulty, difficulty_score, is_duplicate"
)


def view(url: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        sql = f"SELECT {VIEW_COLUMNS} FROM puzzle_results ORDER BY line"  # noqa: S608 constant
        rows = conn.execute(text(sql))
        out = [tuple(row) for row in rows]
    engine.dispose()
    return out


def test_two_workers_solve_every_puzzle_once_and_match_the_embedded_run(
    service_env: dict[str, str],
    start_worker: WorkerFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """5,000 puzzles through Redis and two workers: one correct result each, same as `run`."""
    path = mixed_collection(tmp_path / "mixed.txt", 5000)
    start_worker("w1")
    start_worker("w2")
    result = CliRunner().invoke(main, ["import", str(path), "--wait", "--batch-size", "250"])
    assert result.exit_code == 0, result.output

    engine = create_engine(service_env["SUDOKU_DATABASE_URL"])
    with engine.connect() as conn:
        per_puzzle = conn.execute(
            text("SELECT count(*), count(DISTINCT puzzle_id) FROM results")
        ).one()
        rows = conn.execute(
            text(
                "SELECT p.givens, r.status, r.solution, r.guesses, r.difficulty_score"
                " FROM results r JOIN puzzles p ON p.id = r.puzzle_id"
            )
        ).all()
    engine.dispose()
    distinct = len(set(path.read_text().split()))
    assert per_puzzle == (distinct, distinct)
    for givens, status, solution, guesses, score in rows:
        expected = solver.solve(givens, work_budget=0)
        assert (status, solution, guesses) == (
            expected.status,
            expected.solution,
            expected.metrics.guesses,
        )
        assert score == pytest.approx(expected.difficulty_score)

    distributed = view(service_env["SUDOKU_DATABASE_URL"])
    embedded_url = f"sqlite:///{tmp_path / 'embedded.db'}"
    monkeypatch.setenv("SUDOKU_DATABASE_URL", embedded_url)
    embedded = CliRunner().invoke(main, ["run", str(path), "--batch-size", "250"])
    assert embedded.exit_code == 0, embedded.output
    assert view(embedded_url) == distributed


def test_the_worker_command_starts_a_celery_worker(start_worker: WorkerFactory) -> None:
    """`sudoku-batch worker` runs until stopped (it does not exit on its own)."""
    proc = start_worker("solo")
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def test_workers_drop_the_queued_batches_of_a_deleted_collection(
    service_env: dict[str, str], start_worker: WorkerFactory, tmp_path: Path
) -> None:
    """Batches queued before `delete` reach a worker afterwards: each is dropped with a
    warning, stores nothing and fails nothing, and the queue drains."""
    path = mixed_collection(tmp_path / "gone.txt", 300)
    imported = CliRunner().invoke(main, ["import", str(path), "--batch-size", "100"])
    assert imported.exit_code == 0, imported.output
    deleted = CliRunner().invoke(main, ["delete", "--yes", "gone"])
    assert deleted.exit_code == 0, deleted.output
    queue = redis.Redis.from_url(service_env["SUDOKU_BROKER_URL"])
    assert queue.llen(service_env["SUDOKU_QUEUE"]) == 3

    start_worker("w1")
    log = tmp_path / "w1.log"
    deadline = time.monotonic() + 60
    while log.read_text(errors="replace").count("collection deleted or replaced") < 3:
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.5)

    assert queue.llen(service_env["SUDOKU_QUEUE"]) == 0
    assert "failed for good" not in log.read_text(errors="replace")
    engine = create_engine(service_env["SUDOKU_DATABASE_URL"])
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM results")).scalar() == 0
    engine.dispose()


def test_a_real_worker_keeps_the_paths_and_forms_of_a_collection_imported_with_paths(
    service_env: dict[str, str], start_worker: WorkerFactory, tmp_path: Path
) -> None:
    """import --paths through Redis to a real worker and PostgreSQL: every solved puzzle has
    its solving path, its canonical form and its minimality, as the solver gives them."""
    path = mixed_collection(tmp_path / "kept.txt", 200)
    start_worker("w1")
    result = CliRunner().invoke(main, ["import", str(path), "--paths", "--wait"])
    assert result.exit_code == 0, result.output
    engine = create_engine(service_env["SUDOKU_DATABASE_URL"])
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT p.givens, p.canonical, r.is_minimal, s.steps FROM results r"
                " JOIN puzzles p ON p.id = r.puzzle_id"
                " LEFT JOIN solving_paths s ON s.puzzle_id = r.puzzle_id"
                " WHERE r.status = 'solved'"
            )
        ).all()
    engine.dispose()
    assert len(rows) > 150
    for givens, form, minimal, steps in rows:
        assert form == solver.canonical(givens)
        assert minimal == solver.is_minimal(givens)
        assert steps == [
            step.to_dict() for step in solver.solving_path(givens, work_budget=0).steps
        ]
