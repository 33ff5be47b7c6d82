"""Solver speed on the shared collections, against a plain backtracking baseline.

    .venv/bin/python benchmarks/solver.py [--limit 2000] [--baseline-limit 5] [--data DIR]

For each collection: puzzles/s, mean and p99 microseconds per puzzle of ``solver.solve``
(uniqueness, metrics and rating included; time.perf_counter around each call), on up to
``--limit`` puzzles sampled with a fixed seed (all of forum_hardest_375). The baseline is a
row/column/box hash-set backtracker in the style of seed 004: solving only, no uniqueness.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver  # noqa: E402  (after the path is set, so the script runs from anywhere)

COLLECTIONS = (
    "kaggle_10k.txt",
    "krazydad_graded_56k.tsv",
    "seventeen_clue_49k.txt",
    "top1465.txt",
    "forum_hardest_375.txt",
    "multi_solution_10k.txt",
    "se_rated_6k.csv",
    "qqwing_graded_4k.csv",
)
# The baseline needs about a minute per 17-given puzzle: left out there.
BASELINE_SKIP = {"seventeen_clue_49k.txt"}


def load(path: Path, limit: int) -> list[str]:
    """Puzzles of a collection (first field of each line, header skipped), sampled."""
    rows = [line.split("\t")[0].split(",")[0] for line in path.read_text().splitlines()]
    rows = [r for r in rows if len(r) == 81]
    if len(rows) > limit:
        rows = random.Random(0).sample(rows, limit)
    return rows


def baseline(text: str) -> bool:
    """Seed 004's backtracker: sets of digits used per row, column and box, cells in order."""
    board = [int(c) if c != "." else 0 for c in text]
    rows: list[set[int]] = [set() for _ in range(9)]
    cols: list[set[int]] = [set() for _ in range(9)]
    boxes: list[set[int]] = [set() for _ in range(9)]
    for i, d in enumerate(board):
        if d:
            rows[i // 9].add(d)
            cols[i % 9].add(d)
            boxes[(i // 27) * 3 + (i % 9) // 3].add(d)

    def fill(i: int) -> bool:
        if i == 81:
            return True
        if board[i]:
            return fill(i + 1)
        r, c, b = i // 9, i % 9, (i // 27) * 3 + (i % 9) // 3
        for d in range(1, 10):
            if d not in rows[r] and d not in cols[c] and d not in boxes[b]:
                rows[r].add(d), cols[c].add(d), boxes[b].add(d)
                board[i] = d
                if fill(i + 1):
                    return True
                rows[r].discard(d), cols[c].discard(d), boxes[b].discard(d)
        board[i] = 0
        return False

    return fill(0)


def measure(run: Callable[[str], object], puzzles: list[str]) -> tuple[float, float, float]:
    """(puzzles/s, mean us, p99 us) of ``run`` over ``puzzles``."""
    times = []
    for puzzle in puzzles:
        start = time.perf_counter()
        run(puzzle)
        times.append(time.perf_counter() - start)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return len(times) / sum(times), statistics.fmean(times) * 1e6, p99 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=2000, help="puzzles per collection")
    parser.add_argument("--baseline-limit", type=int, default=5, help="baseline sample size")
    default_data = os.environ.get("SUDOKU_SHARED_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", type=Path, default=Path(default_data))
    args = parser.parse_args()
    print(f"solver {solver.SOLVER_VERSION}, Python {sys.version.split()[0]}")
    print(f"{'collection':<26}{'engine':<10}{'n':>6}{'puzzles/s':>11}{'mean us':>10}{'p99 us':>10}")
    for name in COLLECTIONS:
        path = args.data / name
        if not path.exists():
            continue
        limit = 10**9 if name.startswith("forum_hardest") else args.limit
        puzzles = load(path, limit)
        for engine, run, sample in (
            ("solver", solver.solve, puzzles),
            ("baseline", baseline, puzzles[: args.baseline_limit]),
        ):
            if engine == "baseline" and (name in BASELINE_SKIP or not sample):
                continue
            rate, mean, p99 = measure(run, sample)
            print(f"{name:<26}{engine:<10}{len(sample):>6}{rate:>11.0f}{mean:>10.0f}{p99:>10.0f}")


if __name__ == "__main__":
    main()
