"""Where rating time goes, rung by rung, in the compiled core.

    .venv/bin/python benchmarks/profile.py [--mix 3000] [--rated 300] [--forum 20] [--seed 7]
        [--top 14]

Three sets, each solved and rated with the default settings, one at a time on one core, with
the core's rung profile on (`solver._core.rung_profile`: each rung's calls, firings, thread CPU
time and runs of SE's chains):

1. the pipeline benchmark's mix (`--mix` copies, benchmarks/pipeline.py), by ER band;
2. se_rated_6k's held-out puzzles of classic ER 7.0-8.9 and 9.0 and up (`--rated` of each);
3. `--forum` puzzles of forum_hardest_375 (fixed seed).

For each set: the mean CPU time a puzzle, then the `--top` rungs by time: how often each was
asked, how often it fired (a step of the path), its share of the time, its mean time a call
and the runs of SE's chains a call made (what the closing note of a speed change quotes).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver  # noqa: E402
from solver.ladder import RUNGS  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))


def mix(count: int, seed: int) -> list[str]:
    """benchmarks/pipeline.py's copies (loaded from beside this file)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from pipeline import symmetric_copies

    return [line.split("\t")[0] for line in symmetric_copies(count, seed)]


def rated(low: float, high: float, count: int, seed: int) -> list[str]:
    """Held-out se_rated_6k puzzles of classic ER in [low, high) (benchmarks/rating.py's split)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from rating import held_out

    with (DATA / "se_rated_6k.csv").open() as source:
        rows = [r for r in csv.DictReader(source) if r["classic_er"] and held_out(r["puzzle"])]
    band = [r["puzzle"] for r in rows if low <= float(r["classic_er"]) < high]
    return random.Random(seed).sample(band, min(count, len(band)))


def forum(count: int, seed: int) -> list[str]:
    hardest = (DATA / "forum_hardest_375.txt").read_text().split()
    return random.Random(seed).sample(hardest, min(count, len(hardest)))


def profile(name: str, puzzles: list[str], top: int) -> None:
    import solver._core as core

    core.rung_profile(True)
    started = time.process_time()
    results = solver.solve_many(puzzles)
    spent = time.process_time() - started
    costs = core.rung_profile(False)
    exact = sum(bool(r.rating_exact) for r in results)
    print(f"\n{name}: {len(puzzles)} puzzles, {spent / len(puzzles) * 1e3:.3f} ms a puzzle (CPU),")
    print(f"  {exact} exact")
    total = sum(ns for _, _, ns, _ in costs) or 1
    heading = ("rung", "asked", "fired", "time", "us a call", "runs a call")
    print("  {:34} {:>9} {:>7} {:>6} {:>10} {:>11}".format(*heading))
    rows = sorted(zip(RUNGS, costs, strict=True), key=lambda row: -row[1][2])
    for rung, (asked, fired, ns, runs) in rows[:top]:
        if not asked:
            continue
        print(
            f"  {rung.name:34} {asked:>9,} {fired:>7,} {ns / total:>6.1%} "
            f"{ns / asked / 1e3:>10.1f} {runs / asked:>11.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mix", type=int, default=3000)
    parser.add_argument("--rated", type=int, default=300)
    parser.add_argument("--forum", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--top", type=int, default=14)
    args = parser.parse_args()
    solver.use_backend("native")
    if args.mix:
        profile("pipeline mix", mix(args.mix, args.seed), args.top)
    if args.rated:
        for name, low, high in (("ER 7.0-8.9", 7.0, 9.0), ("ER 9.0+", 9.0, 99.0)):
            puzzles = rated(low, high, args.rated, args.seed)
            profile(f"se_rated_6k held-out, {name}", puzzles, args.top)
    if args.forum:
        profile(f"forum_hardest_375, {args.forum}", forum(args.forum, args.seed), args.top)


if __name__ == "__main__":
    main()
