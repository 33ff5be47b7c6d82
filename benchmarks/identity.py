"""The canonical (minlex) form's cost in the compiled core, beside the solve it goes with.

    .venv/bin/python benchmarks/identity.py [--runs 5] [--limit 10000] [--data DIR]

Times ``solver.canonical_many`` (one call per batch of 1,000, as an import chunk makes it) on
the issue's mix (benchmarks/solver.py's ``MIX``: 35% kaggle_10k, 35% krazydad_graded_56k, 20%
seventeen_clue_49k, 10% top1465 and forum_hardest_375, fixed seed), on each of its parts, on
the whole of seventeen_clue_49k and on multi_solution_10k (sparse grids, the form's worst
case), and, in the same run, ``solver.solve_many_timed`` on the mix: the form's cost as a share
of solving. CPU microseconds a puzzle, the median of ``--runs`` runs, one core. It also prints
how many classes seventeen_clue_49k makes (49,158: every known 17-given puzzle is distinct up to
symmetry) and how many of its lines are already their own form (the list is published in
minlex form).

Target (issue "Puzzle identity"): at most 20 us a puzzle mean on the mix, one core.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from measure import cpu_us, solver_benchmark  # noqa: E402

import solver  # noqa: E402  (after the path is set, so the script runs from anywhere)

TARGET_US = 20.0
BATCH = 1_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=int, default=10_000)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    if solver.backend() != "native":
        sys.exit("the compiled core is not built: python setup.py build_ext --inplace")
    bench = solver_benchmark()
    build_mix, load = bench.build_mix, bench.load
    mix = build_mix(args.data, args.limit)
    groups = {"mix": [p for _, p in mix]}
    for name in dict.fromkeys(n for n, _ in mix):
        groups[f"mix: {name}"] = [p for n, p in mix if n == name]
    seventeen = load(args.data / "seventeen_clue_49k.txt")
    groups["seventeen_clue_49k (all)"] = seventeen
    groups["multi_solution_10k (all)"] = load(args.data / "multi_solution_10k.txt")
    forms: dict[str, list[float]] = {label: [] for label in groups}
    solving: list[float] = []
    for _ in range(args.runs):
        for label, puzzles in groups.items():
            forms[label].append(cpu_us(solver.canonical_many, puzzles, BATCH))
        solving.append(cpu_us(solver.solve_many_timed, groups["mix"], BATCH))
    print(f"canonical form, compiled core, CPU us a puzzle, median of {args.runs} runs")
    for label, runs in forms.items():
        print(f"  {label:<34} {len(groups[label]):>7,}  {statistics.median(runs):8.2f}")
    form_us, solve_us = statistics.median(forms["mix"]), statistics.median(solving)
    verdict = "meets" if form_us <= TARGET_US else "misses"
    print(f"mix: {form_us:.2f} us ({verdict} the target of {TARGET_US:.0f} us);")
    ratio = form_us / solve_us
    print(f"  solving the same mix in the same run: {solve_us:.2f} us (the form: {ratio:.2f}x)")
    classes = solver.canonical_many(seventeen)
    own = sum(form == line for form, line in zip(classes, seventeen, strict=True))
    print(f"seventeen_clue_49k: {len(set(classes)):,} classes of {len(seventeen):,} lines;")
    print(f"  {own:,} lines are their own form, {len(seventeen) - own:,} have a smaller one")


if __name__ == "__main__":
    main()
