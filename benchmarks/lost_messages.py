"""Messages the Redis broker loses when whole workers are killed, and their recovery.

    .venv/bin/python benchmarks/lost_messages.py [--count 9999] [--kills 15] [--batch-size 1]
        [--check-interval 5]

kombu's Redis transport takes a message off the queue (BRPOP) before it records it as
unacknowledged, so a worker killed in between loses it (celery/celery#7950). Small batches
make the worker take messages often, so the window is often open.

Phase 1: `--count` kaggle puzzles are imported into a fresh PostgreSQL database, in batches
of `--batch-size`, on a queue of their own on the local Redis. `--kills` times, a worker
(2 pool processes) is started with the lost-batch check off and killed with SIGKILL after
3 to 4 s. After each kill the script counts the pending batches whose message is nowhere:
neither queued nor in kombu's `unacked` hash.

Phase 2: one worker with the check on (every `--check-interval` s) and a short visibility
timeout finishes the collection. Prints how long that took, and the invariant: every batch
done, one result per puzzle, `collections.done` equal to the total.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from storage import fresh_database  # noqa: E402  (benchmarks/storage.py, beside this file)

from worker.recovery import batch_of  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
REDIS_URL = os.environ.get("SUDOKU_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
WORKER = [sys.executable, "-m", "worker", "worker", "--concurrency=2", "--without-gossip"]
WORKER += ["--without-mingle", "--loglevel=WARNING"]
VISIBILITY_TIMEOUT = 40  # phase 2 only: the killed workers' unacked batches come back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=9999)
    parser.add_argument("--kills", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--check-interval", type=int, default=5)
    args = parser.parse_args()
    lines = [line.strip() for line in (DATA / "kaggle_10k.txt").open() if len(line.strip()) == 81]
    with fresh_database("postgresql") as url, tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "puzzles.txt"
        source.write_text("\n".join(lines[: args.count]) + "\n")
        queue = f"sudoku-lost-{uuid.uuid4().hex[:8]}"
        env = {
            **os.environ,
            "SUDOKU_DATABASE_URL": url,
            "SUDOKU_BROKER_URL": REDIS_URL,
            "SUDOKU_QUEUE": queue,
            "SUDOKU_BATCH_SIZE": str(args.batch_size),
            "SUDOKU_TASK_SOFT_TIME_LIMIT": "20",
            "SUDOKU_TASK_TIME_LIMIT": "25",
            "SUDOKU_RETRY_BACKOFF_MAX": "8",
        }
        broker = redis.Redis.from_url(REDIS_URL)
        try:
            cli(env, "db", "upgrade")
            cli(env, "import", str(source))
            lost = kill_workers(env, url, broker, queue, args.kills)
            print(f"phase 1: {args.kills} kills, {lost} messages lost by the broker in all")
            recover(env, url, args.check_interval, Path(folder) / "rescuer.log")
        finally:
            broker.delete(queue)


def cli(env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "worker", *args], env=env, cwd=ROOT, check=True, capture_output=True
    )


def start_worker(
    env: dict[str, str], name: str, log: Path | None = None
) -> subprocess.Popen[bytes]:
    with open(log or os.devnull, "wb") as out:
        return subprocess.Popen(
            [*WORKER, f"--hostname={name}@%h"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def kill_workers(env: dict[str, str], url: str, broker: redis.Redis, queue: str, kills: int) -> int:
    """Start and SIGKILL workers (lost-batch check off); the messages lost in all."""
    env = {**env, "SUDOKU_LOST_BATCH_CHECK_INTERVAL": "0", "SUDOKU_VISIBILITY_TIMEOUT": "3600"}
    engine = create_engine(url)
    lost: set[int] = set()
    for kill in range(kills):
        worker = start_worker(env, f"victim{kill}")
        time.sleep(random.uniform(3.0, 4.0))
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
        with engine.connect() as conn:
            pending = set(conn.scalars(text("SELECT id FROM batches WHERE status = 'pending'")))
        nowhere = pending - held(broker, queue) - lost
        lost |= nowhere
        print(f"kill {kill + 1}: {len(pending)} batches pending, {len(nowhere)} newly lost")
    engine.dispose()
    return len(lost)


def held(broker: redis.Redis, queue: str) -> set[int]:
    """Batch ids whose message is queued or unacknowledged on `queue`."""
    queued = {batch_of(json.loads(raw)) for raw in broker.lrange(queue, 0, -1)}
    delivered = {
        batch_of(message)
        for message, _exchange, routing_key in map(json.loads, broker.hvals("unacked"))
        if routing_key == queue
    }
    return {batch_id for batch_id in queued | delivered if batch_id is not None}


def recover(env: dict[str, str], url: str, interval: int, log: Path) -> None:
    """One worker with the lost-batch check on finishes the collection; print the invariant."""
    env = {
        **env,
        "SUDOKU_LOST_BATCH_CHECK_INTERVAL": str(interval),
        "SUDOKU_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "SUDOKU_UNACKED_RESTORE_INTERVAL": "2",
    }
    engine = create_engine(url)
    started = time.monotonic()
    worker = start_worker(env, "rescuer", log)
    try:
        while True:
            with engine.connect() as conn:
                done, failed, total = conn.execute(
                    text("SELECT done, failed, total FROM collections")
                ).one()
            if done + failed == total or time.monotonic() - started > 600:
                break
            time.sleep(0.5)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
    took = time.monotonic() - started
    with engine.connect() as conn:
        results = conn.scalar(text("SELECT count(*) FROM results"))
        pending = conn.scalar(text("SELECT count(*) FROM batches WHERE status <> 'done'"))
    engine.dispose()
    resent = log.read_text().count("the broker lost its message; sent it again")
    print(
        f"phase 2: {resent} batches re-sent by the lost-batch check;"
        f" done {done} + failed {failed} of {total} after {took:.0f} s"
        f" (check every {interval} s, visibility timeout {VISIBILITY_TIMEOUT} s);"
        f" {results} results for {total} puzzles, {pending} batches not done"
    )


if __name__ == "__main__":
    main()
