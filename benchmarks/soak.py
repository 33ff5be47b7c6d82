"""Soak: 200,000 puzzles through two Celery workers while one worker is killed every 30 s.

    .venv/bin/python benchmarks/soak.py [--count 200000] [--kill-every 30] [--check 2000]

Real Redis (SUDOKU_BENCH_REDIS_URL, default the local one) and a fresh PostgreSQL database
on the local server. Every `--kill-every` seconds the older worker is killed with SIGKILL
(main process and pool) and a new one started, so unacknowledged batches must come back
through the visibility timeout (set to 30 s here). Prints throughput, redeliveries (task
deliveries beyond the first, counted from the workers' logs) and the invariant: lines read =
accepted + duplicates + rejected, one result per distinct puzzle, progress = total, and a
sample of stored results equal to the solver's own answers.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, text  # noqa: E402
from storage import fresh_database  # noqa: E402  (benchmarks/storage.py)

import solver  # noqa: E402
from db.migrate import upgrade  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
REDIS_URL = os.environ.get("SUDOKU_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
SETTINGS = {
    "SUDOKU_TASK_SOFT_TIME_LIMIT": "15",
    "SUDOKU_TASK_TIME_LIMIT": "20",
    "SUDOKU_RETRY_BACKOFF_MAX": "5",
    "SUDOKU_VISIBILITY_TIMEOUT": "30",
    "SUDOKU_UNACKED_RESTORE_INTERVAL": "2",
    "SUDOKU_TASK_MAX_RETRIES": "20",
}
RECEIVED = re.compile(r"Task sudoku\.solve_batch\[([0-9a-f-]+)\] received")


def puzzles(count: int) -> list[str]:
    """`count` distinct puzzles: the shared collections, then digit-relabelled copies."""
    base: list[str] = []
    for name in ("krazydad_graded_56k.tsv", "seventeen_clue_49k.txt", "kaggle_10k.txt"):
        with (DATA / name).open() as source:
            base += [line.split("\t")[0].strip() for line in source if line.strip()]
    seen, out, rng = set(), [], random.Random(7)
    while len(out) < count:
        for givens in base:
            if len(out) == count:
                break
            if givens in seen:
                labels = rng.sample("123456789", 9)
                givens = givens.translate(str.maketrans("123456789", "".join(labels)))
            if givens not in seen:
                seen.add(givens)
                out.append(givens)
    return out


def start_worker(name: str, env: dict[str, str], logs: Path) -> subprocess.Popen[bytes]:
    with (logs / f"{name}.log").open("ab") as log:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "worker",
                "worker",
                "--concurrency=1",
                f"--hostname={name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def progress(url: str) -> tuple[int, int, int]:
    engine = create_engine(url)
    with engine.connect() as conn:
        row = conn.execute(text("SELECT done, failed, total FROM collections")).one_or_none()
    engine.dispose()
    return (0, 0, 0) if row is None else (row[0], row[1], row[2])


def invariant(url: str, count: int, check: int) -> list[str]:
    """Broken promises, in words (empty when everything adds up)."""
    engine = create_engine(url)
    with engine.connect() as conn:
        c = conn.execute(
            text(
                "SELECT lines_read, accepted, duplicates, rejected, total, done,"
                " failed FROM collections"
            )
        ).one()
        results, distinct = conn.execute(
            text("SELECT count(*), count(DISTINCT puzzle_id) FROM results")
        ).one()
        sample = conn.execute(
            text(
                "SELECT p.givens, r.status, r.solution, r.guesses FROM results r"
                " JOIN puzzles p ON p.id = r.puzzle_id ORDER BY r.puzzle_id"
            )
        ).all()
    engine.dispose()
    problems = []
    if not c.lines_read == c.accepted + c.duplicates + c.rejected == count:
        problems.append(f"lines {c.lines_read} != accepted+duplicates+rejected or != {count}")
    if not results == distinct == c.done == c.total == c.accepted:
        problems.append(f"results {results}, distinct {distinct}, done {c.done}, total {c.total}")
    for givens, status, solution, guesses in random.Random(1).sample(
        sample, min(check, len(sample))
    ):
        expected = solver.solve(givens)
        if (status, solution, guesses) != (
            expected.status,
            expected.solution,
            expected.metrics.guesses,
        ):
            problems.append(f"stored result of {givens} differs from the solver's")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200_000)
    parser.add_argument("--kill-every", type=float, default=30.0)
    parser.add_argument("--check", type=int, default=2000, help="results compared to the solver")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, fresh_database("postgresql") as url:
        logs = Path(folder)
        path = logs / "soak.txt"
        path.write_text("\n".join(puzzles(args.count)) + "\n")
        upgrade(url)
        env = {
            "SUDOKU_DATABASE_URL": url,
            "SUDOKU_BROKER_URL": REDIS_URL,
            "SUDOKU_QUEUE": f"soak-{uuid.uuid4().hex[:8]}",
            **SETTINGS,
        }
        workers = [start_worker(f"soak{i}", env, logs) for i in range(2)]
        started = time.monotonic()
        producer = subprocess.Popen(
            [sys.executable, "-m", "worker", "import", str(path)],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        kills, next_kill = 0, started + args.kill_every
        while True:
            done, failed, total = progress(url)
            if producer.poll() is not None and total and done + failed == total:
                break
            if time.monotonic() >= next_kill:
                victim = workers.pop(0)
                os.killpg(victim.pid, signal.SIGKILL)
                victim.wait()
                kills += 1
                workers.append(start_worker(f"soak{kills + 1}", env, logs))
                next_kill += args.kill_every
            if int(time.monotonic() - started) % 10 == 0:
                print(
                    f"{time.monotonic() - started:5.0f} s: {done:,}/{total:,} solved,"
                    f" {kills} kills",
                    flush=True,
                )
            time.sleep(1)
        elapsed = time.monotonic() - started
        for proc in workers:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
        deliveries = Counter(
            task for log in logs.glob("*.log") for task in RECEIVED.findall(log.read_text())
        )
        problems = invariant(url, args.count, args.check)
    print(
        f"\n{args.count:,} puzzles in {elapsed:,.1f} s: {args.count / elapsed:,.0f} puzzles/s"
        f" end to end with 2 workers, {kills} worker kills (SIGKILL every {args.kill_every:g} s)"
    )
    print(
        f"batches: {len(deliveries):,}; redeliveries: {sum(deliveries.values()) - len(deliveries)}"
        f" ({sum(1 for n in deliveries.values() if n > 1)} batches delivered more than once);"
        f" failed: {failed}"
    )
    print("invariant: " + ("holds" if not problems else "BROKEN\n  " + "\n  ".join(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
