"""How well ``difficulty_score`` agrees with rated collections, and how fast rating is.

    .venv/bin/python benchmarks/rating.py [--limit 2000] [--split held-out|tuned|all] [--data DIR]
        [--work-budget N]

For each rated collection: the Spearman rank correlation of ``difficulty_score`` with the
reference (Sudoku Explainer's ER for se_rated_6k, QQWing's level, krazydad's grade), overall
and within the SE bands (ER < 2.5, 2.5-4.9, 5-6.9, 7-8.9, >= 9); for se_rated_6k, the share of exact
ER matches among puzzles rated <= 4.4 (and per band); and the mean ms per ``solver.solve``.
Then, per rating profile (classic against classic SE's ER/EP/ED, sukaku against
SukakuExplainer's ER) and band: the share of ratings flagged exact (``rating_exact``) and how
often a flagged one is the reference's.

With ``SUDOKU_BENCH_SKFR`` set to the path of a built skfr (dobrichev/skfr, the fastest
SE-compatible rater; build it outside the project), both rate the same held-out puzzles of
each band in the same run: exact ER against classic SE, ms a puzzle (medians of ``--runs``
runs, skfr's wall time per band file, its start included) and the ratio. With
``SUDOKU_BENCH_SERATE`` set to the path of an executable that runs Sudoku Explainer's
``serate`` (made outside the project; it takes ``--input=`` and ``--output=``), SE rates a
fixed-seed sample of each band (``--se-sample``) beside the classic profile, and with
``SUDOKU_BENCH_SUKAKU`` set likewise to one running SukakuExplainer's (build 1.15.12, the
`sukaku` profile's; a later one shows how far that one moved) beside the sukaku profile: how
often ours and the file give that Explainer's ER, and its ms a puzzle, its start (an empty
input, timed apart) left out. Beside skfr the time of the sukaku profile on the same puzzles
is printed too (skfr rates the classic ladder; it is the speed anchor). Then a fixed-seed
sample of forum_hardest_375 (``--forum-sample``, 60) is rated within the deep budget, and the
puzzles of it that need SE's level 4 (nested dynamic forcing chains, ER 10.5 and up) are timed
beside skfr.

se_rated_6k is split by a fixed hash of the puzzle: ``held-out`` (30%) was never looked at
while tuning, ``tuned`` is the rest. Other collections are sampled with a fixed seed.
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
import zlib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver  # noqa: E402  (after the path is set, so the script runs from anywhere)

GRADES = {g: k for k, g in enumerate(("EZ", "NO", "IM", "CH", "TF", "ST", "IN"))}
BANDS = (
    ("< 2.5", 0.0, 2.5),
    ("2.5-4.9", 2.5, 5.0),
    ("5-6.9", 5.0, 7.0),
    ("7-8.9", 7.0, 9.0),
    (">= 9", 9.0, 99.0),
)


def held_out(puzzle: str) -> bool:
    """The fixed split: about 30% of puzzles are held out from tuning."""
    return zlib.crc32(puzzle.encode()) % 10 < 3


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the average of their positions."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for n in range(k, j + 1):
            out[order[n]] = (k + j) / 2 + 1
        k = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson correlation of the average ranks)."""
    if len(xs) < 2:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


def load(name: str, data: Path) -> list[tuple[str, float]]:
    """(puzzle, reference) pairs of a rated collection."""
    rows = []
    for line in (data / name).read_text().splitlines():
        fields = line.split("\t") if name.endswith(".tsv") else line.split(",")
        if len(fields[0]) != 81:
            continue
        ref = GRADES[fields[1]] if name.endswith(".tsv") else float(fields[1])
        rows.append((fields[0], float(ref)))
    return rows


def rate(
    pairs: list[tuple[str, float]], work_budget: int = solver.work.DEFAULT
) -> tuple[list[float], list[float], float]:
    """Scores, references (solved puzzles only) and the mean ms per puzzle."""
    scores, refs, spent = [], [], 0.0
    for puzzle, ref in pairs:
        start = time.perf_counter()
        result = solver.solve(puzzle, work_budget=work_budget)
        spent += time.perf_counter() - start
        if result.difficulty_score is not None:
            scores.append(result.difficulty_score)
            refs.append(ref)
    return scores, refs, spent * 1000 / max(1, len(pairs))


def report_se(scores: list[float], refs: list[float]) -> None:
    """Exact matches and per-band agreement with Sudoku Explainer."""
    easy = [(s, r) for s, r in zip(scores, refs, strict=True) if r <= 4.4]
    exact = sum(abs(s - r) < 0.05 for s, r in easy)
    print(f"  exact ER, reference <= 4.4: {exact}/{len(easy)} = {exact / max(1, len(easy)):.1%}")
    for name, lo, hi in BANDS:
        band = [(s, r) for s, r in zip(scores, refs, strict=True) if lo <= r < hi]
        hits = sum(abs(s - r) < 0.05 for s, r in band)
        rho = spearman([s for s, _ in band], [r for _, r in band])
        print(
            f"  band {name:<8} n={len(band):>5}  spearman {rho:6.3f}"
            f"  exact {hits / max(1, len(band)):6.1%}"
        )


# Each profile's reference in se_rated_6k: the column of ER (and EP, ED where the file has them).
PROFILE_COLUMNS = {"classic": ("classic_er", "classic_ep", "classic_ed"), "sukaku": ("rating",)}


def report_profiles(data: Path, split: str, work_budget: int = solver.work.DEFAULT) -> None:
    """Per rating profile and SE band: how many ratings are flagged exact (`rating_exact`),
    and how often a flagged rating is the reference's (ER, and EP and ED where known)."""
    rows = se_rows(data, split)
    for profile in solver.PROFILES:
        columns = PROFILE_COLUMNS[profile]
        rated = [r for r in rows if r[columns[0]]]
        start = time.perf_counter()
        puzzles = [r["puzzle"] for r in rated]
        results = solver.solve_many(puzzles, profile=profile, work_budget=work_budget)
        ms = (time.perf_counter() - start) * 1000 / max(1, len(rated))
        middle = [
            (x.difficulty_score, float(r[columns[0]]))
            for r, x in zip(rated, results, strict=True)
            if 5.0 <= float(r[columns[0]]) < 9.0 and x.difficulty_score is not None
        ]
        rho = spearman([s for s, _ in middle], [t for _, t in middle])
        print(
            f"profile {profile} vs {columns[0]}: n={len(rated)}, {ms:.2f} ms/puzzle,"
            f" spearman within 5.0-8.9 {rho:.3f}"
        )
        for name, lo, hi in BANDS:
            band = [
                (r, x)
                for r, x in zip(rated, results, strict=True)
                if lo <= float(r[columns[0]]) < hi and x.difficulty_score is not None
            ]
            flagged = [(r, x) for r, x in band if x.rating_exact]
            share = len(flagged) / max(1, len(band))
            line = f"  band {name:<8} n={len(band):>5}  flagged exact {share:6.1%}"
            for column, field in zip(columns, ("difficulty_score", "ep", "ed"), strict=False):
                hits = sum(abs(getattr(x, field) - float(r[column])) < 0.05 for r, x in flagged)
                line += f"  {column} right when flagged {hits / max(1, len(flagged)):6.1%}"
            print(line)


def se_rows(data: Path, split: str) -> list[dict[str, str]]:
    """The rows of se_rated_6k in `split`."""
    rows = list(csv.DictReader((data / "se_rated_6k.csv").open()))
    if split == "all":
        return rows
    return [r for r in rows if held_out(r["puzzle"]) == (split == "held-out")]


def classic_rows(data: Path, split: str) -> list[dict[str, str]]:
    """The rows of se_rated_6k in `split` that classic SE rated."""
    return [r for r in se_rows(data, split) if r["classic_er"]]


SKFR_RATING = re.compile(r"ED=(\d+(?:\.\d+)?)/")  # skfr's `<puzzle> ED=<ER>/<EP>/<ED>;<time>`


def skfr_ratings(
    binary: Path, puzzles: list[str], folder: Path
) -> tuple[list[float | None], float]:
    """skfr's ER for each puzzle (None where it gave none) and the wall seconds it took."""
    (folder / "band.txt").write_text("".join(p + "\n" for p in puzzles))
    start = time.perf_counter()
    subprocess.run(
        [str(binary), "-iband", "-e"], cwd=folder, check=True, capture_output=True, timeout=3600
    )
    took = time.perf_counter() - start
    found: dict[str, float] = {}
    for line in (folder / "band_rat.txt").read_text(errors="replace").splitlines():
        match = SKFR_RATING.search(line)
        if match and len(line) >= 81:
            found[line[:81]] = float(match.group(1))
    return [found.get(p) for p in puzzles], took


def explainer_run(
    executable: Path, puzzles: list[str], folder: Path
) -> tuple[float, list[float | None]]:
    """Wall seconds an Explainer's serate (`--input=`, `--output=`) takes on `puzzles`, and
    the ER it wrote for each (a line's last field, `ED=ER/EP/ED` or `ER/EP/ED`)."""
    (folder / "se.txt").write_text("".join(p + "\n" for p in puzzles))
    start = time.perf_counter()
    subprocess.run(
        [str(executable), "--input=se.txt", "--output=se_out.txt"],
        cwd=folder,
        check=True,
        capture_output=True,
        timeout=3600,
    )
    took = time.perf_counter() - start
    out = folder / "se_out.txt"
    lines = out.read_text().splitlines() if out.exists() else []
    found = [re.match(r"(\d+(?:\.\d+)?)/", line.split()[-1].split("=")[-1]) for line in lines]
    ratings = [float(m.group(1)) if m else None for m in found]
    return took, ratings + [None] * (len(puzzles) - len(ratings))


EXPLAINERS = {"classic": "Sudoku Explainer", "sukaku": "SukakuExplainer"}


def compare_explainer(
    executable: Path, profile: str, data: Path, split: str, work_budget: int, sample: int
) -> None:
    """The profile's Explainer itself (its `serate`, built outside the project) on a
    fixed-seed sample of each band of the file's rating for that profile: how often ours, and
    the file, give its ER, and its time (its start, an empty input timed apart, left out)
    beside the core's."""
    column = PROFILE_COLUMNS[profile][0]
    rows = [r for r in se_rows(data, split) if r[column]]
    label = EXPLAINERS[profile]
    print(f"beside {label}'s serate ({executable}), {sample} puzzles a band:")
    with tempfile.TemporaryDirectory() as folder:
        start_up, _ = explainer_run(executable, [], Path(folder))
        for name, lo, hi in BANDS:
            band = [r for r in rows if lo <= float(r[column]) < hi]
            picked = random.Random(name).sample(band, min(sample, len(band)))
            if not picked:
                continue
            puzzles = [r["puzzle"] for r in picked]
            took, theirs = explainer_run(executable, puzzles, Path(folder))
            start = time.perf_counter()
            ours = solver.solve_many(puzzles, profile=profile, work_budget=work_budget)
            ours_s = time.perf_counter() - start
            se_s = max(0.0, took - start_up)
            agree = sum(
                t is not None
                and x.difficulty_score is not None
                and abs(x.difficulty_score - t) < 0.05
                for x, t in zip(ours, theirs, strict=True)
            )
            file_agrees = sum(
                t is not None and abs(float(r[column]) - t) < 0.05
                for r, t in zip(picked, theirs, strict=True)
            )
            n = len(picked)
            ratio = ours_s / se_s if se_s else float("nan")
            print(
                f"  band {name:<8} n={n:>5}  its ER: ours {agree / n:6.1%}  the file"
                f" {file_agrees / n:6.1%}   ms a puzzle: ours {ours_s * 1000 / n:7.3f}"
                f"  {label} {se_s * 1000 / n:9.1f}  (ours/its {ratio:.4f})"
            )


def compare_skfr(binary: Path, data: Path, split: str, work_budget: int, runs: int) -> None:
    """Classic profile and skfr side by side on the same puzzles of each SE band."""
    rows = classic_rows(data, split)
    print(f"side by side with skfr ({binary}), classic, work budget {work_budget:,}, {runs} runs:")
    for name, lo, hi in BANDS:
        band = [r for r in rows if lo <= float(r["classic_er"]) < hi]
        if not band:
            continue
        puzzles, refs = [r["puzzle"] for r in band], [float(r["classic_er"]) for r in band]
        ours_times, sukaku_times, theirs_times = [], [], []
        with tempfile.TemporaryDirectory() as folder:
            for _ in range(runs):
                start = time.perf_counter()
                ours = solver.solve_many(puzzles, profile="classic", work_budget=work_budget)
                ours_times.append(time.perf_counter() - start)
                start = time.perf_counter()
                solver.solve_many(puzzles, profile="sukaku", work_budget=work_budget)
                sukaku_times.append(time.perf_counter() - start)
                theirs, took = skfr_ratings(binary, puzzles, Path(folder))
                theirs_times.append(took)
        ours_exact = sum(
            x.difficulty_score is not None and abs(x.difficulty_score - r) < 0.05
            for x, r in zip(ours, refs, strict=True)
        )
        theirs_exact = sum(
            t is not None and abs(t - r) < 0.05 for t, r in zip(theirs, refs, strict=True)
        )
        ours_ms = statistics.median(ours_times) * 1000 / len(band)
        theirs_ms = statistics.median(theirs_times) * 1000 / len(band)
        sukaku_ms = statistics.median(sukaku_times) * 1000 / len(band)
        print(
            f"  band {name:<8} n={len(band):>5}  exact ER: ours {ours_exact / len(band):6.1%}"
            f" skfr {theirs_exact / len(band):6.1%}   ms a puzzle: ours {ours_ms:7.3f}"
            f" skfr {theirs_ms:7.3f}  (ours/skfr {ours_ms / theirs_ms:.2f})"
            f"  sukaku {sukaku_ms:7.3f} ({sukaku_ms / theirs_ms:.2f})"
        )


FORUM = "forum_hardest_375.txt"
# SE's nested dynamic forcing chains (level 4 nesting): the least ER they give, the rung's value.
LEVEL_4 = next(r.value for r in solver.ladder.RUNGS if r.name == "nested_dynamic_forcing_chain")


def compare_forum(binary: Path, data: Path, sample: int, runs: int) -> None:
    """A fixed-seed sample of forum_hardest_375, rated alone within the deep budget (as the
    deep tier rates the tail), and the part of it that needs SE's level 4 side by side with
    skfr: how many are exact, how often skfr gives the same ER, and the mean time a puzzle
    (medians of ``runs`` runs; skfr's wall time, its start included)."""
    hardest = (data / FORUM).read_text().split()
    picked = random.Random(0).sample(hardest, min(sample, len(hardest)))
    first = solver.solve_many(picked, work_budget=solver.work.DEEP)
    scores = [r.difficulty_score or 0.0 for r in first]
    level_4 = [p for p, score in zip(picked, scores, strict=True) if score >= LEVEL_4]
    print(
        f"{FORUM}: {len(picked)} puzzles (seed 0), {sum(bool(r.rating_exact) for r in first)}"
        f" exact, {len(level_4)} need level 4 (ER >= {LEVEL_4}); those beside skfr, {runs} runs:"
    )
    if not level_4:
        return
    ours_times, theirs_times = [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            start = time.process_time()
            ours = solver.solve_many(level_4, work_budget=solver.work.DEEP)
            ours_times.append(time.process_time() - start)
            theirs, took = skfr_ratings(binary, level_4, Path(folder))
            theirs_times.append(took)
    exact = sum(bool(r.rating_exact) for r in ours)
    same = sum(
        t is not None and r.difficulty_score is not None and abs(r.difficulty_score - t) < 0.05
        for r, t in zip(ours, theirs, strict=True)
    )
    ours_s = statistics.median(ours_times) / len(level_4)
    theirs_s = statistics.median(theirs_times) / len(level_4)
    verdict = "MET" if ours_s <= theirs_s else "NOT MET"
    print(
        f"  level 4  n={len(level_4):>5}  exact: ours {exact}  skfr's ER the same: {same}"
        f"   s a puzzle: ours {ours_s:.3f} (CPU) skfr {theirs_s:.3f}"
        f"  (ours/skfr {ours_s / theirs_s:.2f}; target <= 1: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=2000, help="puzzles per collection")
    parser.add_argument("--split", choices=("held-out", "tuned", "all"), default="held-out")
    default_data = os.environ.get("SUDOKU_SHARED_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", type=Path, default=Path(default_data))
    parser.add_argument(
        "--work-budget",
        type=int,
        default=solver.work.DEFAULT,
        help="units of work SE's chains may do a puzzle (solver.work; 0: never tried;"
        " default %(default)s, solver.work.DEFAULT)",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of the side by side with skfr")
    parser.add_argument(
        "--forum-sample", type=int, default=60, help=f"puzzles of {FORUM} beside skfr (0: none)"
    )
    parser.add_argument("--se-sample", type=int, default=20, help="puzzles a band for serate")
    args = parser.parse_args()
    print(f"solver {solver.SOLVER_VERSION}, Python {sys.version.split()[0]}, split {args.split}")
    for name in ("se_rated_6k.csv", "qqwing_graded_4k.csv", "krazydad_graded_56k.tsv"):
        if not (args.data / name).exists():
            continue
        pairs = load(name, args.data)
        if name.startswith("se_rated") and args.split != "all":
            pairs = [p for p in pairs if held_out(p[0]) == (args.split == "held-out")]
        if len(pairs) > args.limit:
            pairs = random.Random(0).sample(pairs, args.limit)
        scores, refs, ms = rate(pairs, args.work_budget)
        rho = spearman(scores, refs)
        print(f"{name:<26} n={len(pairs):>5}  spearman {rho:.3f}  mean {ms:.2f} ms/puzzle")
        if name.startswith("se_rated"):
            report_se(scores, refs)
    if (args.data / "se_rated_6k.csv").exists():
        report_profiles(args.data, args.split, args.work_budget)
        skfr = os.environ.get("SUDOKU_BENCH_SKFR")
        if skfr:
            compare_skfr(Path(skfr), args.data, args.split, args.work_budget, args.runs)
            if args.forum_sample and (args.data / FORUM).exists():
                compare_forum(Path(skfr), args.data, args.forum_sample, args.runs)
        for profile, variable in (
            ("classic", "SUDOKU_BENCH_SERATE"),
            ("sukaku", "SUDOKU_BENCH_SUKAKU"),
        ):
            executable = os.environ.get(variable)
            if executable:
                compare_explainer(
                    Path(executable),
                    profile,
                    args.data,
                    args.split,
                    args.work_budget,
                    args.se_sample,
                )


if __name__ == "__main__":
    main()
