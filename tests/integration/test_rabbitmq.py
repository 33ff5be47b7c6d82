"""RabbitMQ as the broker: a worker solves what `import --wait` sends, and the lost-batch
check (a Redis workaround) stays off, harmlessly."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from click.testing import CliRunner

from db.urls import mask_url
from tests.integration.conftest import WorkerFactory
from tests.worker.conftest import puzzle_lines
from worker.cli import main

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("broker", ["rabbitmq"], indirect=True)
def test_a_worker_on_rabbitmq_solves_an_import_and_never_runs_the_redis_check(
    service_env: dict[str, str], broker: str, start_worker: WorkerFactory, tmp_path: Path
) -> None:
    """import --wait finishes with every puzzle solved; the worker's log says the check is off
    and shows no failed check, though it is set to run every second."""
    start_worker("rabbit", SUDOKU_LOST_BATCH_CHECK_INTERVAL="1")
    path = tmp_path / "rabbit.txt"
    path.write_text("\n".join(puzzle_lines(100)) + "\n")
    result = CliRunner().invoke(main, ["import", "--wait", "--batch-size", "25", str(path)])
    assert result.exit_code == 0, result.output
    time.sleep(3)  # three check intervals with an empty queue
    log = (tmp_path / "rabbit.log").read_text()
    assert "lost-batch check: off, not needed (the broker is not Redis)" in log
    assert "lost-batch check failed" not in log


def test_a_refused_rabbitmq_login_is_one_line_naming_the_broker(
    real_rabbitmq: str, sqlite_url: str, tmp_path: Path
) -> None:
    """A wrong password: exit 1 and one line with the broker (masked) and RabbitMQ's reason."""
    parts = urlsplit(real_rabbitmq)
    url = urlunsplit(parts._replace(netloc=f"{parts.username}:wrong@{parts.hostname}:{parts.port}"))
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(5)) + "\n")
    env = {"SUDOKU_DATABASE_URL": sqlite_url, "SUDOKU_BROKER_URL": url}
    result = CliRunner().invoke(main, ["import", str(path)], env=env)
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: cannot reach the broker {mask_url(url)}: ")
    assert "ACCESS_REFUSED" in line
