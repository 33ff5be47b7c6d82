"""The deep tier on the distributed path: real workers on Redis and PostgreSQL rate again, on a
queue of their own, the puzzles the bulk path left pending; killed, nothing lost or doubled."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver
from tests.integration.conftest import (
    Explain,
    WorkerFactory,
    connected,
    redelivery_settings,
    wait_until,
)
from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.client import Client, WaitTimeout

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(autouse=True)
def exact(service_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ratings as they are by default: exact (`service_env` makes them fast)."""
    monkeypatch.delenv("SUDOKU_RATING")
    service_env.pop("SUDOKU_RATING")


# Sample puzzles that need more than the bulk path's budget (SE's nested chains: 0.6 to 1 s
# each in the compiled core), and some that need singles or pointing only.
SAMPLE = puzzle_lines(290)
HARD = [SAMPLE[k] for k in (138, 153, 182, 196)]
EASY = [SAMPLE[k] for k in (0, 1, 2, 3)]
DEEP_TASK = "sudoku.solve_batch"


def states(url: str) -> dict[str, tuple[object, ...]]:
    """puzzle -> (rating_state, rating_tier, difficulty_score, ep, ed) of every stored result."""
    from sqlalchemy import text

    with connected(url) as conn:
        found = conn.execute(
            text(
                "SELECT p.givens, r.rating_state, r.rating_tier, r.difficulty_score, r.ep, r.ed "
                "FROM results r JOIN puzzles p ON p.id = r.puzzle_id"
            )
        ).all()
    return {row[0]: tuple(row[1:]) for row in found}


def deep_batches(url: str) -> dict[str, int]:
    """Status -> deep batches."""
    from sqlalchemy import text

    with connected(url) as conn:
        found = conn.execute(
            text("SELECT status, count(*) FROM batches WHERE kind = 'deep' GROUP BY status")
        ).all()
    return {status: count for status, count in found}


def assert_rated_once_exactly(url: str) -> None:
    """Every puzzle's rating is the solver's own exact one; each hard puzzle was rated by one
    deep batch, and no batch is left pending."""
    from sqlalchemy import text

    found = states(url)
    assert set(found) == set(EASY + HARD)
    for puzzle in EASY + HARD:
        expected = solver.solve(puzzle)
        tier = "deep" if puzzle in HARD else "bulk"
        assert found[puzzle] == ("exact", tier, expected.difficulty_score, expected.ep, expected.ed)
    with connected(url) as conn:
        per_puzzle = conn.execute(
            text(
                "SELECT bp.puzzle_id, count(*) FROM batch_puzzles bp JOIN batches b "
                "ON b.id = bp.batch_id WHERE b.kind = 'deep' AND b.status = 'done' GROUP BY 1"
            )
        ).all()
        left = conn.execute(text("SELECT count(*) FROM batches WHERE status = 'pending'"))
        assert left.scalar_one() == 0
    assert sorted(count for _, count in per_puzzle) == [1] * len(HARD)


@pytest.fixture
def collection(tmp_path: Path) -> Path:
    path = tmp_path / "tiers.txt"
    path.write_text("\n".join(EASY + HARD) + "\n")
    return path


def test_a_bulk_worker_and_a_deep_worker_split_the_tiers_and_import_wait_waits_for_both(
    service_env: dict[str, str], start_worker: WorkerFactory, collection: Path, tmp_path: Path
) -> None:
    """One worker kept to the bulk queue, one to the deep queue: the bulk one stores every
    puzzle, the hard ones pending; the deep one rates each of those again, alone; `import
    --wait` returns once no rating is pending, every one exact."""
    start_worker("bulk", tier="bulk")
    start_worker("deep", tier="deep")
    result = CliRunner().invoke(main, ["import", str(collection), "--wait"])
    assert result.exit_code == 0, result.output
    # the summary counts each tier's ratings (the deep ones may all be done before the wait)
    assert f"bulk {len(EASY)}, deep {len(HARD)}" in result.output
    assert_rated_once_exactly(service_env["SUDOKU_DATABASE_URL"])
    received = {
        name: (tmp_path / f"{name}.log").read_text().count(f"Task {DEEP_TASK}[")
        for name in ("bulk", "deep")
    }
    # each task logs `received` and `succeeded`: one bulk batch, a deep batch a hard puzzle
    assert received == {"bulk": 2, "deep": 2 * len(HARD)}


def test_a_worker_killed_in_the_deep_tier_loses_and_doubles_nothing(
    service_env: dict[str, str],
    start_worker: WorkerFactory,
    collection: Path,
    monkeypatch: pytest.MonkeyPatch,
    explain: Explain,
) -> None:
    """SIGKILL of a whole worker while it rates a deep batch, another done: once the message
    comes back (the visibility timeout) a new worker rates what is left; every puzzle ends
    rated once, exactly."""
    fast_redelivery = redelivery_settings(
        soft_limit=20, hard_limit=25, backoff=4, visibility=30, restore=2
    )
    for key, value in fast_redelivery.items():
        monkeypatch.setenv(key, value)
    url = service_env["SUDOKU_DATABASE_URL"]
    worker = start_worker("w1", **fast_redelivery)
    result = CliRunner().invoke(main, ["import", str(collection)])
    assert result.exit_code == 0, result.output
    wait_until(lambda: deep_batches(url).get("done", 0) >= 1, 120, "a deep batch done", explain)
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait()
    assert deep_batches(url).get("pending", 0) >= 1, "the kill came after the deep tier"
    start_worker("w2", **fast_redelivery)
    wait_until(lambda: not deep_batches(url).get("pending"), 240, "the deep tier", explain)
    assert_rated_once_exactly(url)


def test_a_producer_is_told_what_is_pending_and_waits_for_it(
    service_env: dict[str, str], start_worker: WorkerFactory
) -> None:
    """Pushed puzzles that need the deep tier, with no worker on it yet: `Client.wait(...,
    final=True)` says how many ratings are pending and times out saying so, `pending` names
    them; once a deep worker starts, the wait returns every rating exact."""
    start_worker("bulk", tier="bulk")
    notes: list[str] = []
    with Client(on_wait=notes.append) as client:
        receipts = client.submit(HARD + EASY, collection="web")
        with pytest.raises(WaitTimeout, match=f"^{len(HARD)} ratings still pending after"):
            client.wait(receipts, timeout=30, final=True)
        assert f"{len(HARD)} ratings pending: the deep tier rates them again" in notes
        assert client.pending(receipts) == receipts[: len(HARD)]
        start_worker("deep", tier="deep")
        results = client.wait(receipts, timeout=240, final=True)
        assert client.pending(receipts) == []
    for puzzle, result in zip(HARD + EASY, results, strict=True):
        assert result is not None
        expected = solver.solve(puzzle)
        tier = "deep" if puzzle in HARD else "bulk"
        shown = (result["rating_state"], result["rating_tier"], result["difficulty_score"])
        assert shown == ("exact", tier, expected.difficulty_score)
