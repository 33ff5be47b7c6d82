"""Exact ratings by default, measured: what a unit of work costs, `run` keeping every core busy,
and the forum's hardest list through real Celery workers.

    .venv/bin/python benchmarks/tiers.py [--only work,run,celery] [--runs 3] [--limit 200]
        [--forum 20]

1. work: the compiled core rates puzzles of three kinds with SE's chains and no limit (se_rated_6k
   from ER 6.5, magictour's top 1465, `--forum` of the forum's hardest), one at a time; for each,
   its CPU time and how many charges of each kind of work it made (`solver._core.work_tally`).
   Printed: what each kind costs (a least-squares fit of CPU time on the tallies, relative
   errors, no negative cost) beside `solver.work.CHARGES`, then, with those charges, the
   microseconds a unit took (median, 90th percentile and most, over the puzzles that took
   10 ms or more) and what the default budgets are in seconds here, at that most.
2. run: `sudoku-batch run samples/sample.txt`, default settings, on a fresh SQLite file, `--runs`
   times: wall time, the CPU time of the command and its pool processes, their ratio (1 / cores
   when every core is busy all along), and how the ratings stand at the end.
3. celery: ../shared/data/forum_hardest_375.txt through two workers (one pool process each;
   Redis, PostgreSQL, the scratch database of benchmarks/producer.py), default settings:
   `import --wait` start to exit; the results by rating state, failed batches, and the longest
   task of each tier against the soft time limit (the workers' `succeeded in` lines).

This machine is shared and noisy: read the CPU figures as medians, the ratios as measured in
one run.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SUDOKU_BENCH_LOGLEVEL", "INFO")  # the workers' `succeeded in` lines

import producer as celery_bench  # noqa: E402  (benchmarks/producer.py: workers, scratch database)

import solver  # noqa: E402
from solver import work  # noqa: E402
from worker.settings import Settings  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
KINDS = ("run", "stall", "cycles", "every cycle", "triplet")  # solver.work.CHARGES' order
TIMED = 0.01  # seconds: a puzzle that took less says little about a unit's cost


def sets(limit: int, forum: int) -> dict[str, list[str]]:
    """The puzzles of each kind, a fixed-seed sample of each."""
    with (DATA / "se_rated_6k.csv").open() as source:
        rated = [r["puzzle"] for r in csv.DictReader(source) if float(r["classic_er"] or 0) >= 6.5]
    top = (DATA / "top1465.txt").read_text().split()
    hardest = (DATA / "forum_hardest_375.txt").read_text().split()
    rng = random.Random(2026)
    return {
        "se_rated_6k, ER 6.5+": rng.sample(rated, min(limit, len(rated))),
        "top1465": rng.sample(top, min(limit, len(top))),
        "forum_hardest_375": rng.sample(hardest, min(forum, len(hardest))),
    }


def tallies(puzzles: list[str]) -> list[tuple[float, tuple[int, ...]]]:
    """(CPU seconds, charges of each kind) of each puzzle, rated alone with no limit."""
    import solver._core as core

    solver.use_backend("native")
    out = []
    core.work_tally()
    for puzzle in puzzles:
        started = time.process_time()
        solver.solve_many([puzzle], work_budget=work.MAX_BUDGET)
        out.append((time.process_time() - started, tuple(core.work_tally())))
    return out


def fitted(rows: list[tuple[float, tuple[int, ...]]]) -> list[float]:
    """Seconds a charge of each kind: non-negative least squares of the CPU times on the
    tallies, each puzzle weighted by 1 / its time (relative errors), by projected gradient."""
    import numpy as np

    kept = [(t, n) for t, n in rows if any(n)]
    counts = np.array([n for _, n in kept], float)
    times = np.array([t for t, _ in kept])
    weights = 1 / np.maximum(times, 1e-4)
    a, b = counts * weights[:, None], times * weights
    scale = np.maximum(np.sqrt((a**2).sum(0)), 1e-12)
    a = a / scale
    step = 1 / np.linalg.norm(a, 2) ** 2
    x = np.zeros(a.shape[1])
    for _ in range(20_000):
        x = np.maximum(0, x - step * a.T @ (a @ x - b))
    return list(x / scale)


def work_figures(limit: int, forum: int) -> None:
    rows = []
    for name, puzzles in sets(limit, forum).items():
        found = tallies(puzzles)
        print(f"{name}: {len(found)} puzzles, {sum(t for t, _ in found):.1f} s CPU")
        rows += found
    print("\nkind           fitted us a charge   solver.work charge (units)")
    for kind, seconds, charge in zip(KINDS, fitted(rows), work.CHARGES, strict=True):
        print(f"{kind:<14} {seconds * 1e6:>18.1f}   {charge:>10}")
    per_unit = sorted(
        t / sum(c * n for c, n in zip(work.CHARGES, counts, strict=True)) * 1e6
        for t, counts in rows
        if t >= TIMED and any(counts)
    )
    most = per_unit[-1]
    print(
        f"\nus a unit, {len(per_unit)} puzzles of {TIMED * 1000:.0f} ms or more: median "
        f"{statistics.median(per_unit):.2f}, 90th percentile "
        f"{per_unit[int(0.9 * (len(per_unit) - 1))]:.2f}, most {most:.2f} "
        f"(solver.work.UNIT_SECONDS: {work.UNIT_SECONDS * 1e6:.2f})"
    )
    settings = Settings()
    for name, units in (("bulk", work.BULK), ("batch", work.BATCH), ("deep", work.DEEP)):
        print(f"  {name:<6} {units:>12,} units: at most {units * most / 1e6:6.1f} s here", end="")
        print(f" (soft time limit {settings.task_soft_time_limit} s)" if name != "bulk" else "")


def run_once(sample: Path) -> tuple[float, float, dict[str, int]]:
    """(wall seconds, CPU seconds of the command and its pool processes, results by rating
    state) of one `run` with the default settings on a fresh SQLite file."""
    import sqlite3

    retired = ("SUDOKU_RATING", "SUDOKU_WORK_BUDGET", "SUDOKU_BATCH_WORK_BUDGET")
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if k not in retired and "DEEP_WORK" not in k}
        env["SUDOKU_DATABASE_URL"] = f"sqlite:///{scratch}/bench.db"
        before = celery_bench.own_cpu()  # children waited for: the command, and its pool
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "worker", "run", str(sample)],
            cwd=scratch,
            env=env,
            capture_output=True,
            check=False,
        )
        wall = time.perf_counter() - started
        cpu = celery_bench.own_cpu() - before
        if done.returncode != 0:
            raise RuntimeError(f"run failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
        with sqlite3.connect(f"{scratch}/bench.db") as db:
            states = dict(db.execute("SELECT rating_state, count(*) FROM results GROUP BY 1"))
    return wall, cpu, states


def run_figures(runs: int) -> None:
    sample = ROOT / "samples" / "sample.txt"
    print(f"`run {sample.relative_to(ROOT)}`, default settings, {os.cpu_count()} cores:")
    ratios = []
    for k in range(runs):
        wall, cpu, states = run_once(sample)
        ratios.append(wall / cpu)
        shown = f"{wall:.1f} s wall, {cpu:.1f} s CPU, wall/CPU {wall / cpu:.2f}"
        print(f"  run {k + 1}: {shown}; results by rating state {states}")
    cores = os.cpu_count() or 1
    print(f"  median wall/CPU {statistics.median(ratios):.2f} (1/{cores}: every core busy)")


LONGEST = re.compile(r"Task sudoku\.solve_batch\[[0-9a-f-]+\] succeeded in ([0-9.]+)s")


def celery_figures() -> None:
    forum = DATA / "forum_hardest_375.txt"
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "workers.log"
        with celery_bench.measurement(celery_bench.PUSH_WORKER, log) as setup:
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "worker", "import", str(forum), "--wait"],
                cwd=ROOT,
                env=celery_bench.worker_env(setup.url, setup.queue),
                capture_output=True,
                check=False,
            )
            wall = time.perf_counter() - started
            import psycopg

            with psycopg.connect(setup.url) as conn:
                states = dict(conn.execute("SELECT rating_state, count(*) FROM results GROUP BY 1"))
                tiers = dict(conn.execute("SELECT rating_tier, count(*) FROM results GROUP BY 1"))
                batches = dict(
                    conn.execute("SELECT kind || ' ' || status, count(*) FROM batches GROUP BY 1")
                )
        seconds = [float(m.group(1)) for m in LONGEST.finditer(log.read_text(errors="replace"))]
    print(f"forum_hardest_375 through two workers (Redis, PostgreSQL), defaults: {wall:.0f} s")
    print(f"  import --wait exit {done.returncode}; results by state {states}, by tier {tiers}")
    print(f"  batches {batches}")
    soft = Settings().task_soft_time_limit
    longest = max(seconds, default=0.0)
    print(f"  tasks: {len(seconds)}, the longest {longest:.1f} s (soft limit {soft} s)")
    if done.returncode != 0:
        print(done.stderr.decode()[-2000:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="work,run,celery")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--forum", type=int, default=20)
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if "work" in parts:
        work_figures(args.limit, args.forum)
    if "run" in parts:
        run_figures(args.runs)
    if "celery" in parts:
        celery_figures()


if __name__ == "__main__":
    main()
