"""Puzzles of the shared se_rated_6k collection with classic Sudoku Explainer's ratings."""

from __future__ import annotations

import csv
import zlib

from tests.conftest import shared_file


def tuned(lo: float, hi: float, per_value: int) -> list[tuple[str, float, float, float]]:
    """Puzzles of the tuned split of se_rated_6k (benchmarks/rating.py's ``held_out`` is the
    rest) with classic SE ratings in [lo, hi], the first ``per_value`` of each rating: the
    puzzle and SE's ER, EP and ED."""
    seen: dict[str, int] = {}
    out = []
    with shared_file("se_rated_6k.csv").open(encoding="utf-8") as rows:
        table = list(csv.DictReader(rows))
    for row in table:
        er = row["classic_er"]
        if not er or zlib.crc32(row["puzzle"].encode()) % 10 < 3 or not lo <= float(er) <= hi:
            continue
        if seen.get(er, 0) < per_value:
            seen[er] = seen.get(er, 0) + 1
            out.append(
                (row["puzzle"], float(er), float(row["classic_ep"]), float(row["classic_ed"]))
            )
    return out
