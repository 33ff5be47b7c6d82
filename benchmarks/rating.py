"""How well ``difficulty_score`` agrees with rated collections, and how fast rating is.

    .venv/bin/python benchmarks/rating.py [--limit 2000] [--split held-out|tuned|all] [--data DIR]

For each rated collection: the Spearman rank correlation of ``difficulty_score`` with the
reference (Sudoku Explainer's ER for se_rated_6k, QQWing's level, krazydad's grade), overall
and within the SE bands (ER < 2.5, 2.5-4.9, 5-6.9, >= 7); for se_rated_6k, the share of exact
ER matches among puzzles rated <= 4.4 (and per band); and the mean ms per ``solver.solve``.

se_rated_6k is split by a fixed hash of the puzzle: ``held-out`` (30%) was never looked at
while tuning, ``tuned`` is the rest. Other collections are sampled with a fixed seed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solver  # noqa: E402  (after the path is set, so the script runs from anywhere)

GRADES = {g: k for k, g in enumerate(("EZ", "NO", "IM", "CH", "TF", "ST", "IN"))}
BANDS = (("< 2.5", 0.0, 2.5), ("2.5-4.9", 2.5, 5.0), ("5-6.9", 5.0, 7.0), (">= 7", 7.0, 99.0))


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


def rate(pairs: list[tuple[str, float]]) -> tuple[list[float], list[float], float]:
    """Scores, references (solved puzzles only) and the mean ms per puzzle."""
    scores, refs, spent = [], [], 0.0
    for puzzle, ref in pairs:
        start = time.perf_counter()
        result = solver.solve(puzzle)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=2000, help="puzzles per collection")
    parser.add_argument("--split", choices=("held-out", "tuned", "all"), default="held-out")
    default_data = os.environ.get("SUDOKU_SHARED_DATA", str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--data", type=Path, default=Path(default_data))
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
        scores, refs, ms = rate(pairs)
        rho = spearman(scores, refs)
        print(f"{name:<26} n={len(pairs):>5}  spearman {rho:.3f}  mean {ms:.2f} ms/puzzle")
        if name.startswith("se_rated"):
            report_se(scores, refs)


if __name__ == "__main__":
    main()
