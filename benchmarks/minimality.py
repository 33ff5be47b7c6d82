"""The core's cost of minimality, against the uniqueness proof it starts with, on one core.

    .venv/bin/python benchmarks/minimality.py [--runs 5] [--limit 10000] [--batch 1000]
                                              [--data DIR]

Timed, in CPU time of this process around each batch, divided by the puzzles:
``_core.minimal_many`` (``solver.minimal_many`` without the Python wrapper) and
``_core.count_solutions``, the uniqueness search from the givens that minimality runs first
(no ladder, no rating: the cheapest uniqueness proof the core has), on the same puzzles in the
same run. The ratio is minimality / uniqueness per run; every figure is the median of
``--runs`` runs (the machine is shared and noisy).

Groups: all of seventeen_clue_49k (every puzzle minimal) and the mix of benchmarks/solver.py
(10,000 puzzles, fixed seed: 35% kaggle_10k, 35% krazydad_graded_56k, 20% seventeen_clue_49k,
10% top1465 and forum_hardest_375 pooled), with its parts per collection.

Target (issue "Minimality"): minimality at most 2x the uniqueness proof.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from measure import cpu_us, solver_benchmark  # noqa: E402

import solver  # noqa: E402  (after the path is set, so the script runs from anywhere)

SEVENTEEN = "seventeen_clue_49k.txt"
TARGET = 2.0  # minimality / uniqueness proof, at most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs; figures are their medians")
    parser.add_argument("--limit", type=int, default=10_000, help="puzzles in the mix")
    parser.add_argument("--batch", type=int, default=1000, help="puzzles per core call")
    default_data = os.environ.get("SUDOKU_SHARED_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", type=Path, default=Path(default_data))
    args = parser.parse_args()
    if "native" not in solver.available():
        sys.exit(f"the compiled core is not available: {solver.unavailable_reason()}")
    from solver.native import _core

    bench = solver_benchmark()
    mix = bench.build_mix(args.data, args.limit)
    groups = {f"{SEVENTEEN} (all)": bench.load(args.data / SEVENTEEN)}
    groups["mix"] = [p for _, p in mix]
    for name in dict.fromkeys(n for _, pooled in bench.MIX for n in pooled):
        groups[f"  mix: {name}"] = [p for n, p in mix if n == name]
    answers = _core.minimal_many(groups["mix"])
    shares = {v: answers.count(v) / len(answers) for v in (True, False, None)}
    print(
        f"solver {solver.SOLVER_VERSION}, Python {sys.version.split()[0]}, one process, "
        f"batches of {args.batch}; mix: {len(mix):,} puzzles, seed {bench.SEED}, "
        f"minimal {shares[True]:.0%}, not {shares[False]:.0%}, neither {shares[None]:.0%}"
    )
    every = [p for puzzles in groups.values() for p in puzzles]
    known = {p: r.solution for p, r in zip(every, solver.solve_many(every), strict=True)}

    def reusing(chunk: list[str]) -> object:
        """As a worker asks: each solved puzzle's solution handed over from its solve."""
        return _core.minimal_many(chunk, [known[p] for p in chunk])

    runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label in groups}
    for k in range(args.runs):
        started = time.perf_counter()
        for label, puzzles in groups.items():
            proof = cpu_us(_core.count_solutions, puzzles, args.batch)
            minimal = cpu_us(_core.minimal_many, puzzles, args.batch)
            runs[label].append((proof, minimal, cpu_us(reusing, puzzles, args.batch)))
        print(f"run {k + 1}/{args.runs}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print(f"median of {args.runs} runs; us = CPU microseconds a puzzle")
    print("(reusing: the solve's solution handed over, the uniqueness search not run again)")
    heads = ("n", "uniqueness us", "minimality us", "ratio", "reusing us", "ratio")
    print(
        f"{'':<36}{heads[0]:>8}{heads[1]:>15}{heads[2]:>15}{heads[3]:>8}{heads[4]:>12}{heads[5]:>8}"
    )
    for label, figures in runs.items():
        proof = statistics.median(p for p, _, _ in figures)
        minimal = statistics.median(m for _, m, _ in figures)
        ratio = statistics.median(m / p for p, m, _ in figures)
        reused = statistics.median(r for _, _, r in figures)
        reuse_ratio = statistics.median(r / p for p, _, r in figures)
        print(
            f"{label:<36}{len(groups[label]):>8,}{proof:>15.1f}{minimal:>15.1f}{ratio:>7.2f}x"
            f"{reused:>12.1f}{reuse_ratio:>7.2f}x"
        )
    for label in (f"{SEVENTEEN} (all)", "mix"):
        ratio = statistics.median(r / p for p, _, r in runs[label])
        verdict = "MET" if ratio <= TARGET else "NOT MET"
        print(
            f"target: minimality reusing the solve's proof <= {TARGET:.0f}x the uniqueness "
            f"proof on {label}: {ratio:.2f}x: {verdict}"
        )


if __name__ == "__main__":
    main()
