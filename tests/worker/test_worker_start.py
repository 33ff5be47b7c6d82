"""A worker that cannot work refuses to start: one line saying why, exit 1, in seconds.

It checks, before it takes any batch, that the database answers and is migrated, and that
the broker answers. A worker that started anyway would take batches it cannot store, and
look healthy to whoever supervises it; refused, its supervisor shows the reason and starts
it again (docker-compose's `restart: unless-stopped`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.integration.services import free_port
from worker.exits import EXIT_FAILED, EXIT_USAGE
from worker.messages import BROKER_TIMEOUT

STARTUP = 20  # seconds for Python and Celery to load on a busy machine


def start_worker(**env: str) -> tuple[int, list[str]]:
    """Run `sudoku-batch worker` until it exits; its exit code and its `error:` lines."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "worker", "worker", "--pool=solo", "--without-mingle"],
            cwd=ROOT,
            env={**os.environ, "SUDOKU_QUEUE": "sudoku-test-start", **env},
            capture_output=True,
            text=True,
            timeout=STARTUP + BROKER_TIMEOUT,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the worker started instead of refusing:\n{exc.stderr!s:.3000}")
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, [line for line in done.stderr.splitlines() if line.startswith("error")]


def test_a_worker_whose_database_does_not_answer_refuses_to_start(
    env: dict[str, str],
) -> None:
    """Nothing listens on the database's port: one line naming it, exit 1."""
    url = f"postgresql://sudoku:s3cret@127.0.0.1:{free_port()}/sudoku"
    code, errors = start_worker(SUDOKU_DATABASE_URL=url)
    assert code == EXIT_FAILED
    assert len(errors) == 1, errors
    assert errors[0].startswith(
        f"error: the worker cannot start: cannot reach {url.replace('s3cret', '***')}: "
    )


def test_a_worker_on_a_database_never_migrated_refuses_to_start(
    env: dict[str, str], postgres_url: str
) -> None:
    """PostgreSQL without `db upgrade`: the worker says what to run, exit 1."""
    code, errors = start_worker(SUDOKU_DATABASE_URL=postgres_url)
    assert code == EXIT_FAILED
    assert len(errors) == 1, errors
    assert "is not migrated" in errors[0]
    assert "run `sudoku-batch db upgrade`" in errors[0]


def test_a_worker_whose_sqlite_folder_is_missing_refuses_to_start(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The database file's folder does not exist: named, exit 1."""
    code, errors = start_worker(SUDOKU_DATABASE_URL=f"sqlite:///{tmp_path}/no/x.db")
    assert code == EXIT_FAILED
    assert errors == [
        f"error: the worker cannot start: cannot open sqlite:///{tmp_path}/no/x.db:"
        f" the folder {tmp_path}/no does not exist"
    ]


@pytest.mark.parametrize(
    "url", ["redis://:s3cret@127.0.0.1:{port}/0", "amqp://guest:s3cret@127.0.0.1:{port}//"]
)
def test_a_worker_whose_broker_is_down_refuses_to_start(env: dict[str, str], url: str) -> None:
    """Nothing listens on the broker's port: one line naming it, exit 1, no retry loop."""
    url = url.format(port=free_port())
    code, errors = start_worker(SUDOKU_BROKER_URL=url)
    assert code == EXIT_FAILED
    assert len(errors) == 1, errors
    assert errors[0].startswith(
        f"error: the worker cannot start: cannot reach the broker {url.replace('s3cret', '***')}"
    )


def test_a_worker_with_a_bad_setting_refuses_to_start_naming_it(env: dict[str, str]) -> None:
    """A setting only workers use is checked when a worker starts: exit 2, named."""
    code, errors = start_worker(SUDOKU_TASK_TIME_LIMIT="soon")
    assert code == EXIT_USAGE
    assert errors == ["error: SUDOKU_TASK_TIME_LIMIT='soon' is not an integer"]


def test_a_worker_that_starts_says_it_is_ready_in_one_line_of_its_own(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Without a --loglevel, the worker logs Celery's `ready.` line, as Celery users expect;
    run as root, it says so in one line instead of Celery's ten-line SecurityWarning."""
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "worker", "worker", "--pool=solo", "--without-mingle"],
            cwd=ROOT,
            env={**os.environ, "SUDOKU_QUEUE": "sudoku-test-ready"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + STARTUP
        while " ready." not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text(errors="replace")[-2000:]
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-2000:]
            time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(30)
    shown = log.read_text(errors="replace")
    assert "SecurityWarning" not in shown
    if os.geteuid() == 0:
        assert shown.count("the worker runs as root") == 1
