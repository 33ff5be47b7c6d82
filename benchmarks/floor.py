"""How fast `run` could be on SQLite if its bookkeeping cost nothing but the database's own work.

    .venv/bin/python benchmarks/floor.py [--count 200000] [--seed 2024] [--batch-size 1000]
        [--sample 20000] [--processes 2] [--cores 16] [--rating exact|fast]

The input is `benchmarks/pipeline.py`'s mix (`symmetric_copies`). Each stage runs alone, in
this one process, as `run` does it: read and parse; the canonical forms (`prepare`, as the
reader makes them); the import (`db.imports.add_records`, a chunk a transaction); the solve (a
sample, scaled up); the result write (`db.ratings.record_work`, the writer's transactions of
`COMMIT_PARTS` batches). For the import and the write it also gives the CPU spent inside
SQLite's calls (the sqlite3 driver's execute, executemany, fetches and commits, timed by a
connection class of its own): the part no Python can take away while `run` stores the same
rows and index entries.

Then two bounds, from these figures:

- `run` on P processes against the pool's own work (the solve stage over P processes, the
  ratio `benchmarks/pipeline.py` prints): all the work shares the P cores, so `run` takes at
  least (solve + parse + forms + SQLite's own time) / solve of it, whatever the Python around
  SQLite costs; and more where P processes solving together each go slower than one alone
  (the solver alone on one process and on P, `--sample` puzzles each, measured here);
- SQLite takes one writer at a time: the import's and the results' time inside SQLite, one
  after the other, bounds `run` in puzzles a second on any number of cores, shown against
  `--cores` processes each solving at one core's rate (the solve stage).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline import (  # noqa: E402  (benchmarks/pipeline.py)
    SEED,
    TARGETS,
    cycled_rows,
    solver_alone,
    solver_alone_on,
    symmetric_copies,
)

from db.engine import make_engine, session_factory  # noqa: E402
from db.imports import BatchWork, add_records, get_or_create_collection  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from db.ratings import record_work  # noqa: E402
from db.results import ResultRow  # noqa: E402
from worker import settings  # noqa: E402
from worker.batch import solve_batch  # noqa: E402
from worker.bulk.producer import CHUNK_BATCHES  # noqa: E402
from worker.bulk.writer import COMMIT_PARTS  # noqa: E402
from worker.files.reader import Chunk, chunked, prepare  # noqa: E402
from worker.files.sources import Record, read_puzzles  # noqa: E402

_, TARGET_RATIO, _ = TARGETS["run against the pool's own work on its processes"]
IMPORT_INSIDE, WRITE_INSIDE = "  the import inside SQLite", "  the write inside SQLite"


class _Engine:
    """CPU seconds spent inside the sqlite3 driver's calls."""

    spent = 0.0


def _timed(call: Any) -> Any:
    def inside(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return call(*args, **kwargs)
        finally:
            _Engine.spent += time.process_time() - started

    return inside


class _TimedCursor(sqlite3.Cursor):
    execute = _timed(sqlite3.Cursor.execute)
    executemany = _timed(sqlite3.Cursor.executemany)
    fetchone = _timed(sqlite3.Cursor.fetchone)
    fetchmany = _timed(sqlite3.Cursor.fetchmany)
    fetchall = _timed(sqlite3.Cursor.fetchall)
    __next__ = _timed(sqlite3.Cursor.__next__)


class _TimedConnection(sqlite3.Connection):
    execute = _timed(sqlite3.Connection.execute)
    executemany = _timed(sqlite3.Connection.executemany)
    commit = _timed(sqlite3.Connection.commit)

    def cursor(self, factory: Any = _TimedCursor) -> Any:
        return super().cursor(factory)


def _cpu(work: Any) -> tuple[float, Any]:
    started = time.process_time()
    out = work()
    return time.process_time() - started, out


def _import(url: str, path: Path, chunks: list[Chunk], batch_size: int) -> list[BatchWork]:
    sessions = session_factory(make_engine(url, connect_args={"factory": _TimedConnection}))
    with sessions() as session:
        collection = get_or_create_collection(session, "floor", str(path), "floor").id
        session.commit()
    works: list[BatchWork] = []
    for chunk in chunks:
        with sessions() as session:
            works += add_records(
                session, collection, chunk.accepted, chunk.rejected, batch_size, forms=chunk.forms
            )
            session.commit()
    return works


def _write(url: str, works: list[BatchWork], batches: list[list[ResultRow]]) -> None:
    """Every batch's rows, `COMMIT_PARTS` batches a transaction, as SQLite's writer stores
    them."""
    sessions = session_factory(make_engine(url, connect_args={"factory": _TimedConnection}))
    for start in range(0, len(works), COMMIT_PARTS):
        with sessions() as session:
            for work, batch in zip(
                works[start : start + COMMIT_PARTS], batches[start:], strict=False
            ):
                record_work(session, work, batch)
            session.commit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--batch-size", type=int, default=settings.DEFAULT_BATCH_SIZE)
    parser.add_argument("--sample", type=int, default=20_000, help="puzzles solved")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cores", type=int, default=16)
    parser.add_argument("--rating", choices=("exact", "fast"), default=None)
    args = parser.parse_args()
    if args.rating:
        os.environ[settings.RATING.variable] = args.rating
    n = args.count
    us: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mix.txt"
        path.write_text("".join(f"{line}\n" for line in symmetric_copies(n, args.seed)))
        size = args.batch_size * CHUNK_BATCHES

        def read() -> list[list[Record]]:
            return list(chunked(read_puzzles(path), size))

        spent, records = _cpu(read)
        us["read and parse"] = spent
        spent, chunks = _cpu(lambda: [prepare(part) for part in records])
        us["canonical forms (the reader's prepare)"] = spent
        url = f"sqlite:///{Path(folder) / 'floor.db'}"
        upgrade(url)
        _Engine.spent = 0.0
        spent, works = _cpu(lambda: _import(url, path, chunks, args.batch_size))
        us["import (SQLite)"], us[IMPORT_INSIDE] = spent, _Engine.spent
        sample = works[: max(1, args.sample // args.batch_size)]
        plan = settings.rating_plan()
        spent, rows = _cpu(
            lambda: [r for w in sample for r in solve_batch(w.collection_id, w.puzzles, plan=plan)]
        )
        us["solve (solver + rows, one core)"] = spent * n / len(rows)
        batches = cycled_rows(works, rows)
        _Engine.spent = 0.0
        spent, _ = _cpu(lambda: _write(url, works, batches))
        us["result write (SQLite)"], us[WRITE_INSIDE] = spent, _Engine.spent
        one = solver_alone(path, args.sample, args.batch_size)
        together = solver_alone_on(args.processes, path, args.sample, args.batch_size)
        pace = together * one / args.processes  # each process's pace beside the others'
    for name in us:
        us[name] *= 1e6 / n
    print(f"{n:,} puzzles of the pipeline mix, one process, CPU us a puzzle")
    for name, figure in us.items():
        print(f"  {name:42} {figure:8.1f}")
    solve = us["solve (solver + rows, one core)"]
    engine = us[IMPORT_INSIDE] + us[WRITE_INSIDE]
    least = us["read and parse"] + us["canonical forms (the reader's prepare)"] + engine
    ratio = least / solve
    print(
        f"\n`run` on {args.processes} processes against the pool's own work (target <= "
        f"{TARGET_RATIO:g}), with nothing but reading, the forms and SQLite's own time "
        f"({least:.1f} us) beside the solve ({solve:.1f} us): at least {1 + ratio:.2f}x; "
        f"{1 / pace + ratio:.2f}x with the pool's processes each at the pace of the solver alone "
        f"on {args.processes} processes here ({pace:.0%} of one alone)"
    )
    most = 1e6 / engine
    alone = args.cores * 1e6 / solve
    print(
        f"SQLite's one writer: {engine:.1f} us a puzzle inside SQLite, so at most "
        f"{most:,.0f} puzzles/s on any number of cores; {args.cores} processes solving at one "
        f"core's rate: {alone:,.0f}/s, a share of at most {most / alone:.2f}"
    )


if __name__ == "__main__":
    main()
