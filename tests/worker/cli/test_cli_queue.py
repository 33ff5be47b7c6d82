"""`sudoku-batch queue`: what waits in the queues of both tiers, and `--purge`."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, text

from tests.worker.conftest import puzzle_lines
from worker.cli import main


@pytest.fixture(autouse=True)
def own_queue(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    """A queue of the test's own on the session's fake broker."""
    name = f"sudoku-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("SUDOKU_QUEUE", name)
    return name


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def queued(url: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = conn.execute(text("SELECT count(*) FROM batches WHERE queued_at IS NOT NULL"))
        count = int(found.scalar_one())
    engine.dispose()
    return count


def test_queue_shows_the_batches_waiting_in_each_tier_and_who_takes_them(
    own_queue: str, tmp_path: Path
) -> None:
    """After an import with no worker running: its batches wait in the bulk queue, none in the
    deep tier's, and no worker takes either."""
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(120)) + "\n")  # batches of 50: three
    assert invoke("import", str(path)).exit_code == 0
    shown = invoke("queue").output.splitlines()
    assert shown == [
        f"{own_queue}: 3 batches waiting; taken by no worker",
        f"{own_queue}.deep: 0 batches waiting; taken by no worker",
    ]


def test_a_purge_empties_the_queues_and_importing_again_sends_the_batches_again(
    env: dict[str, str], own_queue: str, tmp_path: Path
) -> None:
    """`queue --purge --yes` removes the waiting batches; they stay pending, marked as never
    sent (no worker's lost-batch check sends them on its own); importing the file again sends
    them once more."""
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(120)) + "\n")
    invoke("import", str(path))
    purged = invoke("queue", "--purge", "--yes")
    assert "purged 3 batches from the queues; 3 pending batches are now marked" in purged.output
    assert invoke("queue").output.startswith(f"{own_queue}: 0 batches waiting")
    assert queued(env["SUDOKU_DATABASE_URL"]) == 0
    invoke("import", str(path))
    assert invoke("queue").output.startswith(f"{own_queue}: 3 batches waiting")
    assert queued(env["SUDOKU_DATABASE_URL"]) == 3


def test_a_purge_off_a_terminal_without_yes_changes_nothing(own_queue: str, tmp_path: Path) -> None:
    """A script cannot confirm: exit 2, one line asking for --yes, the batches still queued."""
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(60)) + "\n")
    invoke("import", str(path))
    result = CliRunner().invoke(main, ["queue", "--purge"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "error: queue --purge removes queued batches: confirm at a terminal, or pass --yes"
    )
    assert invoke("queue").output.startswith(f"{own_queue}: 2 batches waiting")
