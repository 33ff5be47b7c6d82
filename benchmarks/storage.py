"""How fast the storage layer writes: import and results rows per second.

    .venv/bin/python benchmarks/storage.py [--rows 100000] [--runs 3] [--only sqlite|postgresql]

Each run uses a fresh database (a temporary SQLite file; a new PostgreSQL database on the
server of SUDOKU_BENCH_POSTGRES_URL, default the local one), imports `rows` distinct
puzzles in chunks of 5,000 (batches of 1,000), then times `record_batch` on every batch
with a commit per batch, as the workers do. Prints the median of the runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import psycopg

from db.engine import make_engine, session_factory
from db.imports import add_records, get_or_create_collection
from db.migrate import upgrade
from db.models import RESULT_COLUMNS
from db.results import ResultRow, record_batch
from solver import LABELS
from worker.batch import technique_json

ADMIN_URL = os.environ.get(
    "SUDOKU_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
CHUNK = 5_000
BATCH = 1_000
TECHNIQUES = ("hidden_single_box", "hidden_single_line", "naked_single", "pointing", "naked_pair")


@contextmanager
def fresh_database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{Path(folder) / 'bench.db'}"
        return
    name = f"sudoku_bench_{uuid.uuid4().hex[:10]}"
    admin = ADMIN_URL.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def random_givens(rng: random.Random) -> str:
    cells = [rng.choice("123456789") if rng.random() < 0.3 else "." for _ in range(81)]
    return "".join(cells)


def result_row(rng: random.Random, puzzle_id: int, solved_at: datetime) -> ResultRow:
    guesses = rng.choice((0, 0, 0, 1, 3, 12))
    counts = {t: rng.randint(1, 40) for t in TECHNIQUES[: rng.randint(1, 5)]}
    values = dict.fromkeys(RESULT_COLUMNS)  # a column not named here is NULL
    values |= dict(
        puzzle_id=puzzle_id,
        status="solved",
        solution="".join(rng.choice("123456789") for _ in range(81)),
        reason=None,
        solved_by_elimination=guesses == 0,
        hardest_technique=rng.choice(TECHNIQUES),
        technique_counts=technique_json(counts),
        recursion_depth=min(guesses, 4),
        guesses=guesses,
        backtracks=guesses // 2,
        nodes=1 + guesses * 3,
        difficulty=rng.choice(LABELS),
        difficulty_score=rng.uniform(1, 10),
        ep=1.2,
        ed=1.2,
        rating_state="exact" if guesses == 0 else "estimated",
        rating_tier="bulk",
        rating_profile="classic",
        is_minimal=rng.random() < 0.5,
        solver_version="1.0.0",
        solve_ms=rng.uniform(0.5, 20),
        worker_host="bench-host",
        solved_at=solved_at,
    )
    return ResultRow(**values)


def one_run(kind: str, rows: int, seed: int) -> tuple[float, float]:
    """(import records/s, results rows/s) on a fresh database."""
    rng = random.Random(seed)
    givens = list({random_givens(rng) for _ in range(rows)})
    with fresh_database(kind) as url:
        upgrade(url)
        engine = make_engine(url)
        sessions = session_factory(engine)
        work = []
        started = time.perf_counter()
        with sessions() as session:
            collection = get_or_create_collection(session, "bench", "bench.txt", "0" * 64)
            for start in range(0, len(givens), CHUNK):
                chunk = [(start + i + 1, g) for i, g in enumerate(givens[start : start + CHUNK])]
                work += add_records(session, collection.id, chunk, [], BATCH)
                session.commit()
        imported = len(givens) / (time.perf_counter() - started)
        now = datetime.now(UTC)  # one timestamp a batch, as worker.batch.solve_batch gives
        batches = [(b.batch_id, [result_row(rng, pid, now) for pid, _ in b.puzzles]) for b in work]
        started = time.perf_counter()
        with sessions() as session:
            for batch_id, result_rows in batches:
                record_batch(session, batch_id, result_rows)
                session.commit()
        written = len(givens) / (time.perf_counter() - started)
        engine.dispose()
    return imported, written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    for kind in [args.only] if args.only else ["sqlite", "postgresql"]:
        runs = [one_run(kind, args.rows, seed) for seed in range(args.runs)]
        imports = statistics.median(r[0] for r in runs)
        results = statistics.median(r[1] for r in runs)
        print(
            f"{kind:<10} import {imports:>9,.0f} records/s   results {results:>9,.0f} rows/s"
            f"   (median of {args.runs}, {args.rows:,} rows, batches of {BATCH:,})"
        )


if __name__ == "__main__":
    main()
