"""The closing summary's queries (`db.queries.collection_status`) on a freshly stored collection.

    .venv/bin/python benchmarks/summary.py [--count 200000] [--runs 3] [--seed 2024]
        [--database sqlite|postgresql]

Stores `count` distinct puzzles of `benchmarks/pipeline.py`'s mix (`symmetric_copies`) as one
collection, with a result each (the results of a solved sample, cycled), on a fresh database,
as `run` or `import --wait` leaves it, then times, alternating, `runs` times each: the count of
the collection's isomorph classes as the summary makes it (`db.queries._classes`: the forms
grouped, the groups counted), the same count by COUNT(DISTINCT canonical) (how it was made
before: the baseline, in the same run), and the results' counts (`_result_counts`). Seconds,
medians; the first of each is also shown (a fresh PostgreSQL table is read for the first time:
its hint bits are set, and its statistics are those of the empty table).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from db.engine import make_engine, session_factory  # noqa: E402
from db.models import CollectionPuzzle, Puzzle  # noqa: E402
from db.queries import _classes, _result_counts  # noqa: E402
from db.tiers import RATING_MODES  # noqa: E402
from worker import settings  # noqa: E402
from worker.batch import solve_batch  # noqa: E402

SAMPLE_BATCHES = 40  # batches solved for the results (cycled over the collection)


def classes_by_count_distinct(session: Session, collection_ids: list[int]) -> dict[int, int]:
    """The baseline: the classes as the summary counted them before (one COUNT(DISTINCT))."""
    stmt = (
        select(CollectionPuzzle.collection_id, func.count(Puzzle.canonical.distinct()))
        .join(Puzzle, Puzzle.id == CollectionPuzzle.puzzle_id)
        .where(CollectionPuzzle.collection_id.in_(collection_ids))
        .group_by(CollectionPuzzle.collection_id)
    )
    return {cid: n for cid, n in session.execute(stmt)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    _, fast = RATING_MODES
    os.environ.setdefault("SUDOKU_RATING", fast)  # results only: the rating does not matter
    sys.path.append(str(ROOT / "benchmarks"))  # after the project: benchmarks/solver.py
    import pipeline
    from storage import fresh_database

    with tempfile.TemporaryDirectory() as folder, fresh_database(args.database) as url:
        path = Path(folder) / "copies.txt"
        path.write_text("\n".join(pipeline.symmetric_copies(args.count, args.seed)) + "\n")
        _, works, _ = pipeline._imported(url, path, 500)
        plan = settings.rating_plan()
        solved = works[:SAMPLE_BATCHES]
        rows = [r for w in solved for r in solve_batch(w.collection_id, w.puzzles, plan=plan)]
        pipeline._written(url, works, rows)
        ids = sorted({work.collection_id for work in works})
        sessions = session_factory(make_engine(url))
        queries: dict[str, Callable[[Session, list[int]], object]] = {
            "classes, grouped (the summary's)": _classes,
            "classes, COUNT(DISTINCT) (before)": classes_by_count_distinct,
            "results' counts": _result_counts,
        }
        seconds: dict[str, list[float]] = {name: [] for name in queries}
        found: dict[str, object] = {}
        for _ in range(args.runs):
            for name, query in queries.items():
                with sessions() as session:
                    started = time.perf_counter()
                    found[name] = query(session, ids)
                    seconds[name].append(time.perf_counter() - started)
    grouped, distinct = (found[name] for name in list(queries)[:2])
    assert grouped == distinct, f"the two counts differ: {grouped} against {distinct}"
    print(f"{args.count:,} puzzles, {args.database}, {args.runs} runs each, alternating")
    print(f"  {'query':40} {'median s':>9} {'first s':>8}")
    for name, spent in seconds.items():
        print(f"  {name:40} {statistics.median(spent):9.3f} {spent[0]:8.3f}")
    before = statistics.median(seconds["classes, COUNT(DISTINCT) (before)"])
    now = statistics.median(seconds["classes, grouped (the summary's)"])
    print(f"  classes: {before / now:.2f}x faster than before, same count {grouped}")


if __name__ == "__main__":
    main()
