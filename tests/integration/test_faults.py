"""Kill, restart and cut off every part of the distributed path: nothing lost, nothing doubled.

Each test imports 20,000 puzzles through Celery with real Redis, PostgreSQL and worker
processes, injects one fault, and then checks the invariant: lines read = accepted +
duplicates + rejected; every accepted distinct puzzle has exactly one result, equal to what
the solver gives directly; the collection's progress reaches its total.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from tests.integration.conftest import (
    ROOT,
    Corpus,
    Explain,
    WorkerFactory,
    redelivery_settings,
    wait_until,
)
from tests.integration.services import OwnPostgres, OwnRedis
from worker.cli import main

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# Short limits so a dead worker's batches come back in under a minute (production: 900 s).
VISIBILITY_TIMEOUT = 40
RESTORE_INTERVAL = 2
FAULT_SETTINGS = {
    **redelivery_settings(
        soft_limit=20,
        hard_limit=25,
        backoff=8,
        visibility=VISIBILITY_TIMEOUT,
        restore=RESTORE_INTERVAL,
    ),
    "SUDOKU_TASK_MAX_RETRIES": "20",
    "SUDOKU_BATCH_SIZE": "500",
    "SUDOKU_LOST_BATCH_CHECK_INTERVAL": "2",
}
# A worker that takes about a second a batch, so a fault lands while it holds batches.
SLOW_SOLVER = {"SUDOKU_SOLVER_BACKEND": "python"}


@pytest.fixture
def fault_env(service_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The services' environment plus short time limits, for producer and workers alike."""
    for key, value in FAULT_SETTINGS.items():
        monkeypatch.setenv(key, value)
    return {**service_env, **FAULT_SETTINGS}


def import_collection(path: Path) -> None:
    result = CliRunner().invoke(main, ["import", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def progress(url: str) -> tuple[int, int, int]:
    """(done, failed, total) of the one collection in the database, zeros before it exists."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT done, failed, total FROM collections")).one_or_none()
    except OperationalError:  # no table yet, or the database is down
        return 0, 0, 0
    finally:
        engine.dispose()
    return (0, 0, 0) if row is None else (int(row[0]), int(row[1]), int(row[2]))


def finished(url: str) -> bool:
    done, failed, total = progress(url)
    return total > 0 and done + failed == total


def fraction_done(url: str, share: float) -> Callable[[], bool]:
    def check() -> bool:
        done, _, total = progress(url)
        return total > 0 and done >= share * total

    return check


def unacked(env: dict[str, str]) -> int:
    """How many of the queue's messages are delivered to a worker and not yet acknowledged."""
    broker = redis.Redis.from_url(env["SUDOKU_BROKER_URL"])
    entries = broker.hvals("unacked")
    return sum(json.loads(entry)[2] == env["SUDOKU_QUEUE"] for entry in entries)


def pool_children(pid: int) -> list[int]:
    """The pool processes of a worker's main process."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in children]


def test_killing_pool_processes_mid_batch_loses_and_doubles_nothing(
    fault_env: dict[str, str], start_worker: WorkerFactory, corpus: Corpus, explain: Explain
) -> None:
    """Four SIGKILLs of pool processes: their batches run again and every count adds up."""
    url = fault_env["SUDOKU_DATABASE_URL"]
    worker = start_worker("w1", concurrency=2, **SLOW_SOLVER)
    import_collection(corpus.path)
    wait_until(fraction_done(url, 0.05), 120, "the first batches", explain)
    kills = 0
    while kills < 4 and not finished(url):
        children = pool_children(worker.pid)
        if children:
            os.kill(children[kills % len(children)], signal.SIGKILL)
            kills += 1
        time.sleep(1.5)
    assert kills >= 2, "the import finished before the faults could be injected"
    wait_until(lambda: finished(url), 300, "every batch", explain)
    corpus.assert_invariant(url)
    assert worker.poll() is None, "the worker's main process survives its pool's deaths"


def test_a_killed_worker_s_batches_are_redelivered_to_a_new_worker(
    fault_env: dict[str, str], start_worker: WorkerFactory, corpus: Corpus, explain: Explain
) -> None:
    """SIGKILL of a whole worker: a new worker gets its unacked batches back within the bound."""
    url = fault_env["SUDOKU_DATABASE_URL"]
    first = start_worker("w1", concurrency=2, **SLOW_SOLVER)
    import_collection(corpus.path)
    wait_until(fraction_done(url, 0.2), 120, "a fifth of the puzzles", explain)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    assert unacked(fault_env) > 0, "the first worker held no batch when it was killed"
    start_worker("w2", concurrency=2)
    bound = VISIBILITY_TIMEOUT + RESTORE_INTERVAL
    took = wait_until(lambda: finished(url), bound + 120, "the redelivered batches", explain)
    corpus.assert_invariant(url)
    print(f"whole-worker kill: all done {took:.0f} s after the kill (redelivery bound {bound} s)")


def test_batches_whose_messages_the_broker_lost_are_sent_again_by_a_worker(
    fault_env: dict[str, str],
    start_worker: WorkerFactory,
    corpus: Corpus,
    explain: Explain,
    tmp_path: Path,
) -> None:
    """Two messages vanish from the queue (as when a worker dies between RPOP and recording
    it as unacknowledged): a worker finds their batches pending and sends them again."""
    url = fault_env["SUDOKU_DATABASE_URL"]
    import_collection(corpus.path)
    broker = redis.Redis.from_url(fault_env["SUDOKU_BROKER_URL"])
    queue = fault_env["SUDOKU_QUEUE"]
    assert broker.rpop(queue)
    assert broker.lpop(queue)
    start_worker("w1", concurrency=2)
    took = wait_until(lambda: finished(url), 120, "the lost batches", explain)
    corpus.assert_invariant(url)
    log = (tmp_path / "w1.log").read_text()
    assert log.count("the broker lost its message; sent it again") == 2, log[-3000:]
    print(f"lost messages: all done {took:.0f} s after the worker started (checks every 2 s)")


def test_a_redis_restart_mid_import_is_survived_by_producer_and_workers(
    fault_env: dict[str, str],
    start_worker: WorkerFactory,
    corpus: Corpus,
    own_redis: OwnRedis,
    monkeypatch: pytest.MonkeyPatch,
    explain: Explain,
) -> None:
    """Redis stops for 3 s while the producer sends and workers solve; both reconnect."""
    url = fault_env["SUDOKU_DATABASE_URL"]
    monkeypatch.setenv("SUDOKU_BROKER_URL", own_redis.url)
    start_worker("w1", concurrency=2, SUDOKU_BROKER_URL=own_redis.url)
    producer = subprocess.Popen(
        [sys.executable, "-m", "worker", "import", str(corpus.path)],
        cwd=ROOT,
        env={**os.environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    wait_until(lambda: progress(url)[2] > 0, 60, "the import to start", explain)
    own_redis.stop()
    time.sleep(3)
    own_redis.start()
    output, _ = producer.communicate(timeout=300)
    assert producer.returncode == 0, output.decode(errors="replace")
    wait_until(lambda: finished(url), VISIBILITY_TIMEOUT + 240, "every batch", explain)
    corpus.assert_invariant(url)


def test_a_database_outage_of_30_seconds_is_waited_out(
    fault_env: dict[str, str],
    start_worker: WorkerFactory,
    corpus: Corpus,
    own_postgres: OwnPostgres,
    monkeypatch: pytest.MonkeyPatch,
    explain: Explain,
) -> None:
    """PostgreSQL refuses connections for 30 s: tasks back off, retry and finish."""
    url = own_postgres.url
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)
    start_worker("w1", concurrency=2, SUDOKU_DATABASE_URL=url)
    import_collection(corpus.path)
    own_postgres.stop()
    time.sleep(30)
    own_postgres.start()
    wait_until(lambda: finished(url), 300, "every batch after the outage", explain)
    corpus.assert_invariant(url)


def test_a_poison_batch_fails_after_bounded_retries_and_the_rest_finishes(
    fault_env: dict[str, str], start_worker: WorkerFactory, corpus: Corpus, explain: Explain
) -> None:
    """A batch that always kills its process is retried 3 times, then recorded as failed."""
    url = fault_env["SUDOKU_DATABASE_URL"]
    poison = corpus.puzzles[1234]
    start_worker(
        "poisoned",
        concurrency=2,
        app="tests.integration.poisoned_app",
        SUDOKU_TEST_POISON=poison,
        SUDOKU_TASK_MAX_RETRIES="3",
    )
    import_collection(corpus.path)
    wait_until(lambda: finished(url), 300, "every batch, the poisoned one failed", explain)
    _, failed, _ = progress(url)
    assert failed == 500
    engine = create_engine(url)
    with engine.connect() as conn:
        batch = conn.execute(
            text("SELECT status, attempts, error FROM batches WHERE status <> 'done'")
        ).all()
        shown = conn.execute(
            text(
                "SELECT count(*) FROM puzzle_results WHERE batch_status = 'failed'"
                " AND status IS NULL AND batch_error IS NOT NULL"
            )
        ).scalar_one()
    engine.dispose()
    assert len(batch) == 1
    assert batch[0][0] == "failed"
    assert "WorkerLost" in batch[0][2]
    assert shown == 500
    corpus.assert_invariant(url, failed={poison})


def test_a_killed_embedded_run_resumes_to_the_same_database(corpus: Corpus, tmp_path: Path) -> None:
    """`run` killed with SIGKILL mid-way and run again equals one uninterrupted run."""
    interrupted = f"sqlite:///{tmp_path / 'interrupted.db'}"
    clean = f"sqlite:///{tmp_path / 'clean.db'}"

    def run(url: str, **env: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "worker", "run", str(corpus.path)],
            cwd=ROOT,
            env={**os.environ, "SUDOKU_DATABASE_URL": url, "SUDOKU_RATING": "fast", **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    # Every run rates fast, as the corpus's expected answers are. The compiled core runs the
    # whole corpus in about a second: the victim solves with the reference (identical results,
    # much slower) so that the kill lands mid-way, once a tenth is stored (on a busy or
    # throttled machine the reference took over 120 s to store a third). The resumed run uses
    # the core, as does the clean one. The victim is killed and reaped even when the wait fails.
    victim = run(interrupted, SUDOKU_SOLVER_BACKEND="python")
    try:
        wait_until(fraction_done(interrupted, 0.1), 300, "a tenth of the run")
    finally:
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()
    assert not finished(interrupted)
    assert run(interrupted).wait(timeout=300) == 0
    assert run(clean).wait(timeout=300) == 0
    assert corpus.view(interrupted) == corpus.view(clean)
    corpus.assert_invariant(interrupted)
