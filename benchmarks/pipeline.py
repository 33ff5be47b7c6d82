"""End-to-end puzzles/second of `run` (embedded) and of the Celery path, and where time goes.

    .venv/bin/python benchmarks/pipeline.py [--count 20000] [--runs 3] [--only run|celery]

Input: the first `count` puzzles of ../shared/data/krazydad_graded_56k.tsv. Each run uses a
fresh database (SQLite for `run`; a new PostgreSQL database on the local server for Celery,
with two real worker processes of one pool process each on the local Redis). The baseline,
measured in the same run, is `solve_batch` alone on one core: the end-to-end figures are
also given as a ratio to it. The breakdown times each stage alone: parse (read the file),
import (parse + store puzzles and batches), solve (one core), write (record_batch).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from storage import fresh_database  # noqa: E402  (benchmarks/storage.py, beside this file)

from db.engine import make_engine, session_factory  # noqa: E402
from db.imports import unfinished_batches  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from db.results import record_batch  # noqa: E402
from worker.batch import solve_batch  # noqa: E402
from worker.producer import import_chunks, open_import  # noqa: E402
from worker.sources import read_puzzles  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
REDIS_URL = os.environ.get("SUDOKU_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")


def make_input(folder: Path, count: int) -> Path:
    path = folder / "krazydad.txt"
    with (DATA / "krazydad_graded_56k.tsv").open() as source:
        lines = [next(source).split("\t")[0] for _ in range(count)]
    path.write_text("\n".join(lines) + "\n")
    return path


def cli(*args: str, env: dict[str, str]) -> float:
    """Seconds one `sudoku-batch` command takes (it must succeed)."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "worker", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - started


def embedded(path: Path, folder: Path) -> float:
    url = f"sqlite:///{folder / f'run-{uuid.uuid4().hex[:6]}.db'}"
    return cli("run", str(path), env={"SUDOKU_DATABASE_URL": url})


def distributed(path: Path) -> float:
    with fresh_database("postgresql") as url:
        upgrade(url)
        env = {
            "SUDOKU_DATABASE_URL": url,
            "SUDOKU_BROKER_URL": REDIS_URL,
            "SUDOKU_QUEUE": f"bench-{uuid.uuid4().hex[:8]}",
        }
        workers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "worker",
                    "worker",
                    "--concurrency=1",
                    f"--hostname=bench{i}@%h",
                    "--without-gossip",
                    "--without-mingle",
                ],
                cwd=ROOT,
                env={**os.environ, **env},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            for i in range(2)
        ]
        time.sleep(3)  # let the workers connect before the clock starts
        try:
            return cli("import", str(path), "--wait", env=env)
        finally:
            for proc in workers:
                os.killpg(proc.pid, signal.SIGTERM)
            for proc in workers:
                proc.wait(30)


def stages(path: Path, folder: Path) -> dict[str, float]:
    """Seconds per stage, each measured alone on one core."""
    started = time.perf_counter()
    records = sum(1 for _ in read_puzzles(path))
    parse = time.perf_counter() - started
    url = f"sqlite:///{folder / f'stages-{uuid.uuid4().hex[:6]}.db'}"
    engine = make_engine(url)
    upgrade(url)
    sessions = session_factory(engine)
    started = time.perf_counter()
    job = open_import(sessions, path)
    for _ in import_chunks(sessions, job, 500):
        pass
    imported = time.perf_counter() - started
    with sessions() as session:
        works = list(unfinished_batches(session, job.collection_id))
    started = time.perf_counter()
    solved = [(work, solve_batch(work.collection_id, work.puzzles)) for work in works]
    solve = time.perf_counter() - started
    started = time.perf_counter()
    for work, rows in solved:
        with sessions() as session:
            record_batch(session, work.batch_id, rows)
            session.commit()
    write = time.perf_counter() - started
    engine.dispose()
    assert records == sum(len(work.puzzles) for work in works)
    return {"parse": parse, "import": imported, "solve": solve, "write": write}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=["run", "celery"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = make_input(folder, args.count)
        results: dict[str, list[float]] = {}
        for _ in range(args.runs):
            for stage, seconds in stages(path, folder).items():
                results.setdefault(stage, []).append(seconds)
            if args.only in (None, "run"):
                results.setdefault("run (embedded, SQLite)", []).append(embedded(path, folder))
            if args.only in (None, "celery"):
                results.setdefault("celery (2 workers, PostgreSQL)", []).append(distributed(path))
    n = args.count
    baseline = n / statistics.median(results["solve"])
    print(
        f"{n:,} puzzles of krazydad_graded_56k.tsv, median of {args.runs} runs,"
        f" {os.cpu_count()} cores"
    )
    print(f"{'stage':32} {'seconds':>8} {'puzzles/s':>10} {'x solve-only (1 core)':>22}")
    for stage, values in results.items():
        seconds = statistics.median(values)
        print(f"{stage:32} {seconds:8.2f} {n / seconds:10,.0f} {n / seconds / baseline:22.2f}")


if __name__ == "__main__":
    main()
