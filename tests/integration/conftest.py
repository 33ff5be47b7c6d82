"""Real services and real worker processes for the integration and fault tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from sqlalchemy import Connection

from tests.conftest import RABBITMQ_URL, REDIS_URL, missing, shared_file
from tests.integration.services import own_postgres, own_redis
from worker.recovery import UNACKED_KEY
from worker.settings import deep_queue

__all__ = ["own_postgres", "own_redis"]  # fixtures of the fault tests

ROOT = Path(__file__).resolve().parents[2]


def forget_queue(client: redis.Redis, queue: str) -> None:
    """Delete what a test's queue left in Redis: the queue, kombu's bindings of it, and its
    messages still held as unacknowledged. Test queues have unique names, so nothing else
    matches."""
    if keys := list(client.scan_iter(match=f"*{queue}*")):
        client.delete(*keys)
    for tag, entry in client.hscan_iter(UNACKED_KEY):
        if queue.encode() in entry:
            client.hdel(UNACKED_KEY, tag)
            client.zrem(f"{UNACKED_KEY}_index", tag)


@pytest.fixture(scope="session")
def redis_database() -> Iterator[str]:
    """The tests' Redis database (skip locally / fail under CI when Redis is down). When the
    session ends, kombu's binding deadlines that point at no binding any more are dropped."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as exc:
        missing(f"Redis is not reachable at {REDIS_URL}: {exc}")
    yield REDIS_URL
    deadlines = "_kombu.binding_deadlines"
    for member in client.zrange(deadlines, 0, -1):
        if not client.exists(b"_kombu.binding." + member):
            client.zrem(deadlines, member)


@pytest.fixture
def real_redis(redis_database: str) -> str:
    """The tests' Redis database's URL."""
    return redis_database


@pytest.fixture
def service_env(
    monkeypatch: pytest.MonkeyPatch, real_redis: str, postgres_url: str
) -> Iterator[dict[str, str]]:
    """Environment for producer and workers: real Redis, a fresh migrated PostgreSQL, own queue,
    ratings fast (SE's chains off: these tests move thousands of puzzles, the forum's hardest
    among them, through the queue; tests/integration/test_deep.py turns exact ratings back
    on)."""
    from db.migrate import upgrade
    from worker.database import reset_engine

    upgrade(postgres_url)
    queue = f"sudoku-test-{uuid.uuid4().hex[:8]}"
    values = {
        "SUDOKU_DATABASE_URL": postgres_url,
        "SUDOKU_BROKER_URL": real_redis,
        "SUDOKU_QUEUE": queue,
        "SUDOKU_RATING": "fast",
    }
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    reset_engine()
    yield values
    forget_queue(redis.Redis.from_url(real_redis), queue)
    reset_engine()


@pytest.fixture
def real_rabbitmq() -> str:
    """The local RabbitMQ server's URL (skip locally / fail under CI when it is down)."""
    from kombu import Connection

    try:
        with Connection(RABBITMQ_URL, connect_timeout=2) as connection:
            connection.ensure_connection(max_retries=1)
    except Exception as exc:  # kombu wraps each transport's errors differently
        missing(f"RabbitMQ is not reachable at {RABBITMQ_URL}: {exc}")
    return RABBITMQ_URL


@pytest.fixture(params=["redis", "rabbitmq"])
def broker(
    request: pytest.FixtureRequest, service_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """Each test using it runs on Redis and on RabbitMQ: the broker's URL, set for the
    producer (this process) and for the workers `start_worker` starts afterwards."""
    if request.param == "redis":
        yield service_env["SUDOKU_BROKER_URL"]
        return
    url = str(request.getfixturevalue("real_rabbitmq"))
    service_env["SUDOKU_BROKER_URL"] = url
    monkeypatch.setenv("SUDOKU_BROKER_URL", url)
    yield url
    from kombu import Connection

    with Connection(url) as connection:  # the queues and their exchanges (Celery names both)
        for queue in (service_env["SUDOKU_QUEUE"], deep_queue(service_env["SUDOKU_QUEUE"])):
            connection.default_channel.queue_delete(queue)
            connection.default_channel.exchange_delete(queue)


WorkerFactory = Callable[..., subprocess.Popen[bytes]]
Explain = Callable[[], str]


READY = 90  # seconds for a worker to load, check its database and broker, and say so


def wait_ready(proc: subprocess.Popen[bytes], log: Path) -> None:
    """Return once the worker logs Celery's `ready.` line: its startup checks passed, so a
    fault a test injects next hits a running worker, not the check that refuses to start."""
    deadline = time.monotonic() + READY
    while " ready." not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            state = "exited" if proc.poll() is not None else f"not ready after {READY} s"
            pytest.fail(f"worker {log.stem} {state}:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.1)


@pytest.fixture
def start_worker(service_env: dict[str, str], tmp_path: Path) -> Iterator[WorkerFactory]:
    """Start real `sudoku-batch worker` processes (prefork pool); all are stopped afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(
        name: str = "w1",
        concurrency: int = 1,
        app: str | None = None,
        tier: str | None = None,
        **extra_env: str,
    ) -> subprocess.Popen[bytes]:
        """A worker process group; `app` names another Celery app module (a poisoned one),
        `tier` keeps it to one tier's queue (`sudoku-batch worker --tier`)."""
        env = {**os.environ, **service_env, **extra_env}
        command = ["-m", "worker"] if app is None else ["-m", "celery", "-A", app]
        options = [
            *([f"--tier={tier}"] if tier else []),
            f"--concurrency={concurrency}",
            f"--hostname={name}@%h",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
        ]
        with (tmp_path / f"{name}.log").open("ab") as log:
            proc = subprocess.Popen(
                [sys.executable, *command, "worker", *options],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        started.append(proc)
        wait_ready(proc, tmp_path / f"{name}.log")
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


ALARMS = ("WARNING", "ERROR", "CRITICAL")  # log levels an explanation picks out


@pytest.fixture
def explain(tmp_path: Path) -> Explain:
    """What the database, the broker and the workers of this test are doing, for a failure
    message: batches by status, the queue, unacked messages, and each worker log's tail."""

    def describe() -> str:
        from sqlalchemy import create_engine, text

        lines = []
        engine = create_engine(os.environ["SUDOKU_DATABASE_URL"])
        try:
            with engine.connect() as conn:
                lines += [
                    f"batches {status}: {count} (attempts {attempts})"
                    for status, count, attempts in conn.execute(
                        text("SELECT status, count(*), sum(attempts) FROM batches GROUP BY status")
                    )
                ]
        except Exception as exc:  # the database may be the thing that is down
            lines.append(f"database: {exc!r:.200}")
        finally:
            engine.dispose()
        queue = os.environ["SUDOKU_QUEUE"]
        try:
            broker = redis.Redis.from_url(os.environ["SUDOKU_BROKER_URL"], socket_timeout=5)
            now = time.time()
            unacked = [
                now - score
                for tag, score in broker.zrange("unacked_index", 0, -1, withscores=True)
                if queue.encode() in (broker.hget("unacked", tag) or b"")
            ]
            lines.append(
                f"broker: {broker.llen(queue)} queued, {len(unacked)} unacked"
                f" (ages {sorted(round(age) for age in unacked)} s),"
                f" restore lock ttl {broker.pttl('unacked_mutex')} ms"
            )
        except redis.exceptions.RedisError as exc:
            lines.append(f"broker: {exc!r:.200}")
        for log in sorted(tmp_path.glob("*.log")):
            text = log.read_text(errors="replace").splitlines()
            alarms = [line for line in text if any(f" {lvl} " in line for lvl in ALARMS)][-8:]
            tail = text[-25:]
            lines += [f"--- {log.name} (last {len(alarms)} warnings and errors)", *alarms]
            lines += [f"--- {log.name} (last {len(tail)} lines)", *tail]
        return "\n".join(lines)

    return describe


def wait_until(
    condition: Callable[[], bool],
    timeout: float,
    what: str,
    explain: Callable[[], str] = lambda: "",
) -> float:
    """Poll until `condition()` holds; returns the seconds it took, fails after `timeout`
    with `explain()` (what the database, the broker and the workers were doing)."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{explain()}")
        time.sleep(0.25)
    return time.monotonic() - started


def redelivery_settings(
    *, soft_limit: int, hard_limit: int, backoff: int, visibility: int, restore: int
) -> dict[str, str]:
    """Worker settings under which a dead worker's messages come back within seconds
    (production: 900 s); the settings require visibility > hard limit + longest backoff."""
    return {
        "SUDOKU_TASK_SOFT_TIME_LIMIT": str(soft_limit),
        "SUDOKU_TASK_TIME_LIMIT": str(hard_limit),
        "SUDOKU_RETRY_BACKOFF_MAX": str(backoff),
        "SUDOKU_VISIBILITY_TIMEOUT": str(visibility),
        "SUDOKU_UNACKED_RESTORE_INTERVAL": str(restore),
    }


@contextmanager
def connected(url: str) -> Iterator[Connection]:
    """A connection to the database at `url`; its engine is disposed afterwards."""
    from sqlalchemy import create_engine

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


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


def _expected(givens: str) -> tuple[object, ...]:
    import solver

    result = solver.solve(givens, work_budget=0)  # rated fast, as `service_env` has it
    return result.status, result.solution, result.metrics.guesses, result.difficulty_score


class Corpus:
    """20,000 distinct puzzles in a file, with what the solver says of each, computed once."""

    def __init__(self, path: Path, puzzles: list[str], expected: dict[str, tuple[object, ...]]):
        self.path, self.puzzles, self.expected = path, puzzles, expected

    def assert_invariant(self, url: str, failed: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        """Counters add up; one result per distinct puzzle (but those of a failed batch), and
        each equals the solver's own answer."""
        from sqlalchemy import text

        with connected(url) as conn:
            c = conn.execute(
                text(
                    "SELECT lines_read, accepted, duplicates, rejected, total, done, failed"
                    " FROM collections"
                )
            ).one()
            rows = conn.execute(
                text(
                    "SELECT p.givens, r.status, r.solution, r.guesses, r.difficulty_score,"
                    " b.status FROM collection_puzzles cp JOIN puzzles p ON p.id = cp.puzzle_id"
                    " LEFT JOIN results r ON r.puzzle_id = p.id"
                    " LEFT JOIN batches b ON b.id = cp.batch_id WHERE NOT cp.is_duplicate"
                )
            ).all()
            results = conn.execute(text("SELECT count(*) FROM results")).scalar_one()
        lines_read, accepted, duplicates, rejected, total, done, failed_count = c
        assert lines_read == accepted + duplicates + rejected == len(self.puzzles)
        assert total == accepted == len(rows) == len(self.puzzles)
        assert done + failed_count == total
        unsolved = {row[0] for row in rows if row[1] is None}
        assert unsolved <= {row[0] for row in rows if row[5] == "failed"}
        assert failed <= unsolved
        assert results == done == len(rows) - len(unsolved)
        for givens, status, solution, guesses, score, _ in rows:
            if status is not None:
                assert (status, solution, guesses, score) == self.expected[givens], givens

    @staticmethod
    def view(url: str) -> list[tuple[object, ...]]:
        """The user-visible rows of puzzle_results (no timing or host columns)."""
        from sqlalchemy import text

        with connected(url) as conn:
            rows = conn.execute(
                text(
                    "SELECT collection, line, puzzle, status, solution, solved_by_elimination,"
                    " hardest_technique, recursion_depth, guesses, difficulty, difficulty_score,"
                    " is_duplicate, batch_status FROM puzzle_results ORDER BY line"
                )
            ).all()
        return [tuple(row) for row in rows]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """kaggle_10k (9,999) and the first 10,001 krazydad puzzles: 20,000 distinct puzzles."""
    from concurrent.futures import ProcessPoolExecutor

    with shared_file("kaggle_10k.txt").open() as kaggle:
        puzzles = [line.strip() for line in kaggle if line.strip()]
    with shared_file("krazydad_graded_56k.tsv").open() as krazydad:
        for line in krazydad:
            if len(puzzles) == 20_000:
                break
            puzzles.append(line.split("\t")[0])
    assert len(set(puzzles)) == len(puzzles) == 20_000
    path = tmp_path_factory.mktemp("corpus") / "faults.txt"
    path.write_text("\n".join(puzzles) + "\n")
    with ProcessPoolExecutor(2) as pool:
        expected = dict(zip(puzzles, pool.map(_expected, puzzles, chunksize=500), strict=True))
    return Corpus(path, puzzles, expected)
