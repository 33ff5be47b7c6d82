"""Solver speed per backend, against the issue's targets, on one core.

    .venv/bin/python benchmarks/solver.py [--runs 5] [--backend both|native|python]
                                          [--limit 10000] [--reference-limit 500] [--data DIR]
                                          [--work-budget N]

What is timed is ``solver.solve_many_timed`` (full solve, uniqueness, metrics and rating, the
SolveResult objects built) around each batch, divided by the puzzles: the mean per puzzle as a
worker sees it, in CPU time of this (single-threaded) process, which other processes on a
shared machine disturb far less than wall-clock time (shown too, for the core). The p99 comes
from the per-puzzle seconds the backend reports (wall clock).

The workload is the issue's mix, drawn with a fixed seed: 10,000 puzzles, 35% kaggle_10k, 35%
krazydad_graded_56k, 20% seventeen_clue_49k and 10% from top1465 and forum_hardest_375 pooled;
plus all of forum_hardest_375. The compiled core solves everything in batches of 1,000 (as a
worker does); the reference, far slower, solves a sample of the mix (500) and of
forum_hardest_375 (50), and the core solves the same samples in the same run, which gives the
speed ratio. Each figure is the median of ``--runs`` runs (the machine is shared and noisy).

With ``SUDOKU_BENCH_TDOKU`` set to the path of tdoku's ``run_benchmark`` (the fastest known
solver; built outside the project), each run also times tdoku on every group the core solves,
counting to two solutions as the core proves uniqueness (its own wall-clock mean per puzzle),
and the report prints the core's time as a multiple of tdoku's.

With ``--pipeline-limit`` (default 4,000) the core also solves and rates that many copies
of benchmarks/pipeline.py's mix (krazydad and 17-clue puzzles under random symmetries, its
seed), the mix the cost of exact ratings is quoted on.

Targets, one core, mean CPU: at most 60 us on the mix and 400 us on forum_hardest_375 (issue
"Native solver core", set before exact ratings were the default), at most 250 us on the
pipeline mix, exact (issue "SE's chains an order of magnitude faster").
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver  # noqa: E402  (after the path is set, so the script runs from anywhere)

MIX = (  # (share of the mix, collections pooled for it)
    (0.35, ("kaggle_10k.txt",)),
    (0.35, ("krazydad_graded_56k.tsv",)),
    (0.20, ("seventeen_clue_49k.txt",)),
    (0.10, ("top1465.txt", "forum_hardest_375.txt")),
)
HARDEST = "forum_hardest_375.txt"
PIPELINE = "pipeline mix"  # benchmarks/pipeline.py's copies of krazydad and 17-clue puzzles
# Mean microseconds per puzzle, at most, and whether SE's chains are on for it (issue "Native
# solver core": the solver with SE's chains off; "SE's chains an order of magnitude faster":
# the pipeline mix solved and rated exactly, one core).
TARGETS = {"mix": (60.0, False), f"{HARDEST} (all)": (400.0, False), PIPELINE: (250.0, True)}
SEED = 0


@dataclass(frozen=True)
class Group:
    """Puzzles timed together. ``sample`` groups are solved by the reference too."""

    label: str
    puzzles: tuple[str, ...]
    sample: bool = False


def load(path: Path) -> list[str]:
    """The puzzles of a collection: the first field of each line, a CSV header skipped."""
    rows = [line.split("\t")[0].split(",")[0] for line in path.read_text().splitlines()]
    return [row for row in rows if len(row) == 81]


def build_mix(data: Path, size: int) -> list[tuple[str, str]]:
    """(collection, puzzle) for the issue's mix of ``size`` puzzles, shuffled, fixed seed."""
    rng = random.Random(SEED)
    mix = []
    for share, names in MIX:
        pool = [(name, p) for name in names for p in load(data / name)]
        mix += rng.sample(pool, round(share * size))
    rng.shuffle(mix)
    return mix


def pipeline_mix(size: int) -> list[str]:
    """``size`` of benchmarks/pipeline.py's copies (its default seed), loaded from beside this
    file: the mix the exact ratings' cost is quoted on."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from pipeline import SEED as PIPELINE_SEED
    from pipeline import symmetric_copies

    return [line.split("\t")[0] for line in symmetric_copies(size, PIPELINE_SEED)]


def groups(
    data: Path,
    limit: int,
    reference_limit: int,
    hardest_limit: int | None = None,
    pipeline_limit: int = 0,
) -> list[Group]:
    """The mix, its part from each collection, the reference's sample of it (whole and per
    collection), forum_hardest_375 whole (or ``hardest_limit`` of it, a fixed-seed sample)
    and sampled, and ``pipeline_limit`` copies of the pipeline benchmark's mix."""
    mix = build_mix(data, limit)
    sample = mix[:reference_limit]  # the mix is shuffled: a random sample of it
    names = [name for _, pooled in MIX for name in pooled]
    out = [Group("mix", tuple(p for _, p in mix)), Group("mix", tuple(p for _, p in sample), True)]
    for name in names:
        out.append(Group(name, tuple(p for n, p in mix if n == name)))
        out.append(Group(name, tuple(p for n, p in sample if n == name), True))
    hardest = load(data / HARDEST)
    if hardest_limit is not None and hardest_limit < len(hardest):
        hardest = random.Random(SEED).sample(hardest, hardest_limit)
    out.append(Group(f"{HARDEST} (all)", tuple(hardest)))
    picked = random.Random(SEED).sample(hardest, min(50, len(hardest), reference_limit))
    out.append(Group(f"{HARDEST} (all)", tuple(picked), True))
    if pipeline_limit:
        out.append(Group(PIPELINE, tuple(pipeline_mix(pipeline_limit))))
    return [g for g in out if g.puzzles]


def time_group(
    puzzles: Sequence[str], batch: int, work_budget: int = solver.work.DEFAULT
) -> tuple[float, float, float]:
    """Microseconds per puzzle: mean CPU time, mean wall-clock time, and the p99 of the
    per-puzzle seconds the backend reports."""
    cpu = wall = 0.0
    each: list[float] = []
    for k in range(0, len(puzzles), batch):
        chunk = puzzles[k : k + batch]
        started, started_cpu = time.perf_counter(), time.process_time()
        timed = solver.solve_many_timed(
            chunk, node_budget=solver.DEFAULT_NODE_BUDGET, work_budget=work_budget
        )
        cpu += time.process_time() - started_cpu
        wall += time.perf_counter() - started
        each += [seconds for _, seconds in timed]
    each.sort()
    p99 = each[min(len(each) - 1, int(len(each) * 0.99))]
    return cpu / len(puzzles) * 1e6, wall / len(puzzles) * 1e6, p99 * 1e6


# (backend, label, sample) -> per run (CPU mean, wall mean, p99), microseconds
Figures = dict[tuple[str, str, bool], list[tuple[float, float, float]]]


def tdoku_us(binary: Path, puzzles: Sequence[str]) -> float:
    """tdoku's own mean microseconds a puzzle on `puzzles` (one thread, one pass)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text("".join(p + "\n" for p in puzzles))
        out = subprocess.run(
            [str(binary), "-s", "tdoku", "-c", "1", "-r", "0", "-t", "3", "-w", "1", str(path)],
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        ).stdout
    # csv: compiler,version,flags,file,solver,puzzles/s,us/puzzle,%no_guess,guesses/puzzle
    row = next(line for line in out.splitlines() if ",tdoku," in line)
    return float(row.split(",")[-3])


def run(
    all_groups: list[Group],
    backends: list[str],
    batch: int,
    figures: Figures,
    work_budget: int,
    tdoku: Path | None = None,
) -> None:
    """One run: every group on each backend (the reference only on the samples), and on
    tdoku if given."""
    for group in all_groups if tdoku else []:
        if not group.sample:
            us = tdoku_us(tdoku, group.puzzles)
            figures.setdefault(("tdoku", group.label, False), []).append((us, us, us))
    for name in backends:
        solver.use_backend(name)
        for group in all_groups:
            if name == "python" and not group.sample:
                continue
            size = batch if name == "native" else len(group.puzzles)
            figures.setdefault((name, group.label, group.sample), []).append(
                time_group(group.puzzles, size, work_budget)
            )


def median(figures: Figures, key: tuple[str, str, bool], which: int = 0) -> float | None:
    """The median over the runs of the CPU mean (0), wall mean (1) or p99 (2), None if not
    measured."""
    runs = figures.get(key)
    return statistics.median(r[which] for r in runs) if runs else None


def ratio(figures: Figures, label: str) -> float | None:
    """Median over the runs of reference / native CPU mean, on the same sample."""
    native, python = figures.get(("native", label, True)), figures.get(("python", label, True))
    if not native or not python:
        return None
    return statistics.median(p[0] / n[0] for n, p in zip(native, python, strict=True))


def fmt(value: float | None, spec: str = ",.1f", suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def report(all_groups: list[Group], figures: Figures, runs: int, work_budget: int) -> list[str]:
    """The table and the verdict on each target (lines to print)."""
    sizes = {(g.label, g.sample): len(g.puzzles) for g in all_groups}
    head = f"{'':<28}{'native':>8}{'cpu us':>13}{'wall us':>13}{'p99 us':>13}"
    head += f"{'python':>8}{'cpu us':>10}{'p99 us':>10}{'ratio':>7}"
    lines = [f"median of {runs} runs; n = puzzles timed per run; us = microseconds a puzzle", head]
    for label in dict.fromkeys(g.label for g in all_groups):
        n_native = sizes.get((label, False)) if ("native", label, False) in figures else None
        n_python = sizes.get((label, True)) if ("python", label, True) in figures else None
        lines.append(
            f"{label:<28}{fmt(n_native, ',d'):>8}"
            f"{fmt(median(figures, ('native', label, False))):>13}"
            f"{fmt(median(figures, ('native', label, False), 1)):>13}"
            f"{fmt(median(figures, ('native', label, False), 2)):>13}"
            f"{fmt(n_python, ',d'):>8}"
            f"{fmt(median(figures, ('python', label, True)), ',.0f'):>10}"
            f"{fmt(median(figures, ('python', label, True), 2), ',.0f'):>10}"
            f"{fmt(ratio(figures, label), '.0f', 'x'):>7}"
        )
    for label in dict.fromkeys(g.label for g in all_groups):
        theirs = median(figures, ("tdoku", label, False))
        ours = median(figures, ("native", label, False), 1)
        if theirs is not None and ours is not None:
            lines.append(
                f"tdoku on {label}: {theirs:,.1f} us a puzzle (wall); the core {ours:,.1f} us: "
                f"{ours / theirs:.1f}x tdoku's time"
            )
    for key, (target, chains) in TARGETS.items():
        mean = median(figures, ("native", key, False))
        verdict = "not measured" if mean is None else "MET" if mean <= target else "NOT MET"
        if mean is not None and chains != (work_budget > 0):
            verdict = f"set with SE's chains {'on' if chains else 'off (--work-budget 0)'}"
        lines.append(
            f"target: native mean (CPU) on {key} <= {target:.0f} us: "
            f"{fmt(mean, '.1f', ' us')}: {verdict}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs; figures are their medians")
    parser.add_argument("--backend", choices=["both", "native", "python"], default="both")
    parser.add_argument("--limit", type=int, default=10_000, help="puzzles in the mix")
    parser.add_argument("--reference-limit", type=int, default=500, help="the reference's sample")
    parser.add_argument(
        "--hardest-limit", type=int, help=f"puzzles of {HARDEST} timed whole (default: all)"
    )
    parser.add_argument(
        "--pipeline-limit",
        type=int,
        default=4000,
        help=f"copies of benchmarks/pipeline.py's mix timed as '{PIPELINE}' (0: none)",
    )
    parser.add_argument("--batch", type=int, default=1000, help="puzzles per native call")
    default_data = os.environ.get("SUDOKU_SHARED_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", type=Path, default=Path(default_data))
    parser.add_argument(
        "--work-budget",
        type=int,
        default=solver.work.DEFAULT,
        help="units of work SE's chains may do a puzzle (solver.work; 0: never tried;"
        " default %(default)s, solver.work.DEFAULT)",
    )
    args = parser.parse_args()

    backends = ["native", "python"] if args.backend == "both" else [args.backend]
    missing = [b for b in backends if b not in solver.available()]
    if missing:
        sys.exit(f"backend {missing[0]} is not available: {solver.unavailable_reason()}")
    all_groups = groups(
        args.data, args.limit, args.reference_limit, args.hardest_limit, args.pipeline_limit
    )
    print(
        f"solver {solver.SOLVER_VERSION}, Python {sys.version.split()[0]}, "
        f"backends {'+'.join(backends)}, one process, batches of {args.batch} (native), "
        f"work budget {args.work_budget:,}"
    )
    mix = next(g for g in all_groups if g.label == "mix" and not g.sample)
    shares = (f"{s:.0%} {'+'.join(Path(n).stem.split('_')[0] for n in ns)}" for s, ns in MIX)
    print(f"mix: {len(mix.puzzles):,} puzzles, seed {SEED}: {', '.join(shares)}")
    for name in backends:  # warm up: imports, first-call costs
        solver.use_backend(name)
        solver.solve_many(
            mix.puzzles[:20],
            node_budget=solver.DEFAULT_NODE_BUDGET,
            work_budget=args.work_budget,
        )
    figures: Figures = {}
    tdoku = Path(os.environ["SUDOKU_BENCH_TDOKU"]) if os.environ.get("SUDOKU_BENCH_TDOKU") else None
    for k in range(args.runs):
        started = time.perf_counter()
        run(all_groups, backends, args.batch, figures, args.work_budget, tdoku)
        print(f"run {k + 1}/{args.runs}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print("\n".join(report(all_groups, figures, args.runs, args.work_budget)))


if __name__ == "__main__":
    main()
