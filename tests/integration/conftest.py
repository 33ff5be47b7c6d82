"""Real services and real worker processes for the integration and fault tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from tests.conftest import REDIS_URL, missing, shared_file

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def real_redis() -> str:
    """The local Redis server's URL (skip locally / fail under CI when it is down)."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as exc:
        missing(f"Redis is not reachable at {REDIS_URL}: {exc}")
    return REDIS_URL


@pytest.fixture
def service_env(
    monkeypatch: pytest.MonkeyPatch, real_redis: str, postgres_url: str
) -> Iterator[dict[str, str]]:
    """Environment for producer and workers: real Redis, a fresh migrated PostgreSQL, own queue."""
    from db.migrate import upgrade
    from worker.database import reset_engine

    upgrade(postgres_url)
    queue = f"sudoku-test-{uuid.uuid4().hex[:8]}"
    values = {
        "SUDOKU_DATABASE_URL": postgres_url,
        "SUDOKU_BROKER_URL": real_redis,
        "SUDOKU_QUEUE": queue,
    }
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    reset_engine()
    yield values
    redis.Redis.from_url(real_redis).delete(queue)
    reset_engine()


WorkerFactory = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture
def start_worker(service_env: dict[str, str], tmp_path: Path) -> Iterator[WorkerFactory]:
    """Start real `sudoku-batch worker` processes (prefork pool); all are stopped afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str = "w1", concurrency: int = 1, **extra_env: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, **service_env, **extra_env}
        with (tmp_path / f"{name}.log").open("ab") as log:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "worker",
                    "worker",
                    f"--concurrency={concurrency}",
                    "-n",
                    f"{name}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel=INFO",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + 20
    for proc in started:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def mixed_collection(path: Path, count: int) -> Path:
    """A collection of `count` puzzles mixed from the shared corpora (easy to the hardest)."""
    shares = [
        ("kaggle_10k.txt", 0.35),
        ("krazydad_graded_56k.tsv", 0.35),
        ("seventeen_clue_49k.txt", 0.2),
        ("top1465.txt", 0.07),
        ("forum_hardest_375.txt", 0.03),
    ]
    lines: list[str] = []
    for name, share in shares:
        want = round(count * share)
        with shared_file(name).open() as source:
            lines += [next(source).split("\t")[0].strip() for _ in range(want)]
    path.write_text("\n".join(lines[:count]) + "\n")
    return path
