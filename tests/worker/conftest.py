"""Fixtures of the worker tests: a fake Redis broker on a real socket, sample files, CLI env."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakeredis import TcpFakeServer

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "sample.txt"


@pytest.fixture(scope="session")
def fake_broker() -> Iterator[str]:
    """A fakeredis server speaking the Redis protocol on a free loopback port."""
    server = TcpFakeServer(("127.0.0.1", 0))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"redis://{host}:{port}/0"
    server.shutdown()
    server.server_close()


@pytest.fixture
def env(
    monkeypatch: pytest.MonkeyPatch, sqlite_url: str, fake_broker: str
) -> Iterator[dict[str, str]]:
    """The CLI's environment for one test: a fresh SQLite file and the fake broker, ratings
    fast (SE's chains off: the sample's hardest puzzles take seconds each; the tests of the
    exact ratings and their deep tier, tests/worker/bulk/test_tiers.py, turn it back on)."""
    from worker.database import reset_engine

    monkeypatch.setenv("SUDOKU_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("SUDOKU_BROKER_URL", fake_broker)
    monkeypatch.setenv("SUDOKU_BATCH_SIZE", "50")
    monkeypatch.setenv("SUDOKU_RATING", "fast")
    reset_engine()
    yield {
        "SUDOKU_DATABASE_URL": sqlite_url,
        "SUDOKU_BROKER_URL": fake_broker,
        "SUDOKU_RATING": "fast",
    }
    reset_engine()


def puzzle_lines(count: int) -> list[str]:
    """The first `count` puzzles of the bundled sample (comment lines skipped)."""
    lines = [
        line.strip()
        for line in SAMPLE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return lines[:count]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    """A small collection file: 120 sample puzzles, one repeated, one bad line."""
    lines = puzzle_lines(120)
    lines.insert(10, lines[3])  # a duplicate
    lines.insert(20, "12345")  # a bad line
    path = tmp_path / "small.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def several_solutions(count: int) -> list[str]:
    """`count` distinct puzzles with several solutions: a single given 1, in cell k."""
    return ["." * k + "1" + "." * (80 - k) for k in range(count)]


@pytest.fixture
def multiple_file(tmp_path: Path) -> Path:
    """A collection of 5 puzzles with one solution and 10 with several (`mixed`)."""
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(puzzle_lines(5) + several_solutions(10)) + "\n")
    return path


@pytest.fixture
def solved(env: dict[str, str], puzzle_file: Path) -> str:
    """The `small` collection (puzzle_file) run to the end; its name."""
    from click.testing import CliRunner

    from worker.cli import main

    result = CliRunner().invoke(main, ["run", str(puzzle_file)], catch_exceptions=False)
    assert result.exit_code == 3, result.output  # its one bad line
    return "small"
