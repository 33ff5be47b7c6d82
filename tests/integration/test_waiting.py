"""`import --wait` with no worker says so, and what to run; it waits on, and finishes once a
worker starts. On Redis and on RabbitMQ."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from db.urls import mask_url
from tests.integration.conftest import ROOT, WorkerFactory
from tests.worker.conftest import puzzle_lines
from worker.app import producer_app
from worker.consumers import QueueWatch, consumers

pytestmark = pytest.mark.integration


class Lines:
    """The lines a process writes to a pipe, collected as they come."""

    def __init__(self, stream: object) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float) -> str:
        """The first line holding `text`, waiting up to `timeout` seconds for it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [line for line in self.lines if text in line]
            if found:
                return found[0]
            time.sleep(0.2)
        pytest.fail(f"no line with {text!r} within {timeout} s:\n" + "\n".join(self.lines))


def test_import_wait_says_no_worker_consumes_the_queue_and_finishes_once_one_starts(
    service_env: dict[str, str], broker: str, start_worker: WorkerFactory, tmp_path: Path
) -> None:
    """No worker: a line naming the queue and `sudoku-batch worker`; a worker starts: done."""
    path = tmp_path / "waiting.txt"
    path.write_text("\n".join(puzzle_lines(60)) + "\n")
    waiting = subprocess.Popen(
        [sys.executable, "-m", "worker", "import", "--wait", "--batch-size", "20", str(path)],
        cwd=ROOT,
        env={**os.environ, **service_env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        err = Lines(waiting.stderr)
        note = err.wait_for("no worker consumes", timeout=30)
        queue = service_env["SUDOKU_QUEUE"]
        assert f"no worker consumes queue {queue!r} on {mask_url(broker)}" in note
        assert "start one with `sudoku-batch worker`" in note
        assert waiting.poll() is None, "import --wait gave up instead of waiting"
        start_worker("late")
        assert waiting.wait(timeout=120) == 0, "\n".join(err.lines)
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.wait()
        assert waiting.stderr is not None
        waiting.stderr.close()


def test_a_running_worker_is_found_consuming_its_queue(
    service_env: dict[str, str], broker: str, start_worker: WorkerFactory
) -> None:
    """The question `import --wait` asks finds the worker, and only on its own queue."""
    start_worker("found")
    celery = producer_app()
    deadline = time.monotonic() + 60
    while not (found := consumers(celery, service_env["SUDOKU_QUEUE"])):
        assert time.monotonic() < deadline, "the worker never answered"
        time.sleep(1)
    assert [name.partition("@")[0] for name in found] == ["found"]
    assert consumers(celery, "sudoku-test-nobody") == []
    assert QueueWatch(celery, service_env["SUDOKU_QUEUE"]).note() == ""
