"""The deep tier of `run` and re-rating: every puzzle ends rated once, exactly, even when killed."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, text

import solver
from db.imports import BatchWork
from tests.worker.conftest import ROOT, puzzle_lines
from worker.bulk.runner import split
from worker.cli import main

# Sample puzzles that each need more than the bulk path's budget (SE's nested chains, 0.6 to
# 1 s each in the compiled core), and a few that need singles or pointing only.
SAMPLE = puzzle_lines(290)
HARD = [SAMPLE[k] for k in (138, 153, 182, 196, 211, 225, 240)]
EASY = [SAMPLE[k] for k in (0, 1, 2, 3)]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def rows(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql))]
    finally:
        engine.dispose()


@pytest.fixture(autouse=True)
def exact(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ratings as they are by default: exact (the `env` fixture makes them fast)."""
    monkeypatch.delenv("SUDOKU_RATING")
    env.pop("SUDOKU_RATING")


@pytest.fixture
def hard_file(tmp_path: Path) -> Path:
    path = tmp_path / "hard.txt"
    path.write_text("\n".join(EASY + HARD) + "\n")
    return path


def ratings(url: str) -> dict[str, tuple[object, ...]]:
    """puzzle -> (rating_state, rating_tier, rating_profile, difficulty_score, ep, ed)."""
    found = rows(
        url,
        "SELECT puzzle, rating_state, rating_tier, rating_profile, difficulty_score, ep, ed "
        "FROM puzzle_results",
    )
    return {str(row[0]): row[1:] for row in found}


def deep_batches_done(url: str) -> dict[object, int]:
    """puzzle id -> how many deep batches rated it."""
    return dict(
        rows(
            url,
            "SELECT bp.puzzle_id, count(*) FROM batch_puzzles bp JOIN batches b "
            "ON b.id = bp.batch_id WHERE b.kind = 'deep' AND b.status = 'done' GROUP BY 1",
        )
    )


def test_a_batch_is_split_into_interleaved_parts_that_cover_it_once() -> None:
    """While pool processes idle, a batch goes out in parts, every part-th puzzle each, so that
    hard puzzles next to each other in a file land on different cores."""
    work = BatchWork(7, 1, [(k, f"p{k}") for k in range(10)])
    parts = split(work, 3)
    assert [[pid for pid, _ in part.puzzles] for part in parts] == [
        [0, 3, 6, 9],
        [1, 4, 7],
        [2, 5, 8],
    ]
    assert all(part.batch_id == 7 for part in parts)
    assert len(split(work, 40)) == 10
    assert split(work, 0) == [work]


def test_run_rates_what_the_bulk_path_leaves_pending_in_a_second_phase(
    env: dict[str, str], hard_file: Path
) -> None:
    """The hard puzzles need more than the bulk path's budget: stored pending, then rated again
    alone within the deep budget in run's second phase (its own progress line). At the end
    every rating is exact and the solver's own with the deep budget, each deep puzzle rated by
    one deep batch."""
    result = invoke("run", str(hard_file))
    assert result.exit_code == 0, result.output
    assert "deep ratings" in result.stderr
    assert f"{len(HARD)} puzzles rated again within the deep budget" in result.output
    url = env["SUDOKU_DATABASE_URL"]
    found = ratings(url)
    for puzzle in EASY + HARD:
        expected = solver.solve(puzzle)
        state, tier, profile, *figures = found[puzzle]
        assert (state, profile) == ("exact", "classic")
        assert tier == ("deep" if puzzle in HARD else "bulk")
        assert figures == [expected.difficulty_score, expected.ep, expected.ed]
    assert sorted(deep_batches_done(url).values()) == [1] * len(HARD)


def test_with_fast_ratings_nothing_is_left_pending_and_estimates_say_so(
    env: dict[str, str], hard_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SUDOKU_RATING=fast: no second phase; the hard puzzles' ratings are final estimates."""
    monkeypatch.setenv("SUDOKU_RATING", "fast")
    result = invoke("run", str(hard_file))
    assert result.exit_code == 0, result.output
    assert "deep" not in result.stderr
    found = ratings(env["SUDOKU_DATABASE_URL"])
    assert {found[p][:2] for p in HARD} == {("estimated", "fast")}
    assert {found[p][:2] for p in EASY} == {("exact", "fast")}


def start_run(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "worker", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def kill_in_the_deep_phase(proc: subprocess.Popen[bytes], url: str) -> None:
    """SIGKILL the command and its pool once a deep batch is done and another is not."""
    deadline = time.monotonic() + 300
    query = "SELECT status, count(*) FROM batches WHERE kind = 'deep' GROUP BY 1"
    while True:
        states: dict[object, object] = {}
        with contextlib.suppress(Exception):  # the schema may not be there yet
            states = dict(rows(url, query))
        if states.get("done") and states.get("pending"):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return
        assert proc.poll() is None, "it finished before the kill"
        assert time.monotonic() < deadline, f"no deep phase under way: {states}"
        time.sleep(0.05)


@pytest.mark.slow
def test_run_killed_in_its_deep_phase_and_run_again_rates_every_puzzle_once(
    env: dict[str, str], hard_file: Path
) -> None:
    """SIGKILL of `run` and its pool between two deep batches: the ratings not yet final stay
    pending; the same command again rates each of them once, and nothing twice."""
    url = env["SUDOKU_DATABASE_URL"]
    kill_in_the_deep_phase(start_run(["run", str(hard_file), "--workers", "1"], env), url)
    assert "pending" in {state for state, *_ in ratings(url).values()}
    result = invoke("run", str(hard_file))
    assert result.exit_code == 0, result.output
    assert {state for state, *_ in ratings(url).values()} == {"exact"}
    assert sorted(deep_batches_done(url).values()) == [1] * len(HARD)
    assert rows(url, "SELECT count(*) FROM batches WHERE status <> 'done'") == [(0,)]


def test_rerate_moves_a_collection_to_today_s_settings_and_again_redoes_nothing(
    env: dict[str, str], hard_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rated fast, then `rerate` with exact ratings: every result replaced by the solver's own
    exact rating (the hard ones through the deep tier); rerate again picks nothing."""
    monkeypatch.setenv("SUDOKU_RATING", "fast")
    invoke("run", str(hard_file))
    monkeypatch.delenv("SUDOKU_RATING")
    result = invoke("rerate", "hard")
    assert result.exit_code == 0, result.output
    assert f"{len(EASY + HARD)} puzzles rated again" in result.output
    found = ratings(env["SUDOKU_DATABASE_URL"])
    for puzzle in EASY + HARD:
        expected = solver.solve(puzzle)
        assert found[puzzle][0] == "exact"
        assert list(found[puzzle][3:]) == [expected.difficulty_score, expected.ep, expected.ed]
    again = invoke("rerate", "hard")
    assert "nothing to rate again" in again.output


@pytest.mark.slow
def test_rerate_killed_and_run_again_rates_every_puzzle_once(
    env: dict[str, str], hard_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGKILL of `rerate` in its deep phase: run again, it finishes what it started, and each
    puzzle ends rated once, exactly, on today's settings."""
    url = env["SUDOKU_DATABASE_URL"]
    monkeypatch.setenv("SUDOKU_RATING", "fast")
    invoke("run", str(hard_file))
    monkeypatch.delenv("SUDOKU_RATING")
    kill_in_the_deep_phase(start_run(["rerate", "hard", "--workers", "1"], env), url)
    result = invoke("rerate", "hard")
    assert result.exit_code == 0, result.output
    found = ratings(url)
    assert {row[:2] for p, row in found.items() if p in HARD} == {("exact", "deep")}
    assert sorted(deep_batches_done(url).values()) == [1] * len(HARD)
    assert rows(url, "SELECT count(*) FROM batches WHERE status <> 'done'") == [(0,)]
