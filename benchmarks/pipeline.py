"""End-to-end puzzles/second of `run` (embedded) and of the Celery path, and where time goes.

    .venv/bin/python benchmarks/pipeline.py [--count 200000] [--runs 3] [--only run|celery]
        [--batch-size N] [--sample 20000] [--seed 2024] [--workers N] [--rating exact|fast]
        [--sqlite-only]

Input: `count` distinct puzzles made from ../shared/data/krazydad_graded_56k.tsv and
seventeen_clue_49k.txt (105,158 distinct puzzles) by Sudoku symmetries with a fixed seed:
every source puzzle is used the same number of times (give or take one), so the difficulty
mix is the sources' own, each copy under a random symmetry (digits relabelled, rows permuted
within bands, bands permuted, columns within stacks, stacks, maybe transposed), and a copy
that repeats an earlier one is drawn again: all `count` are distinct.

Each run uses a fresh database: SQLite for `run`; for Celery a new PostgreSQL database on the
local server, two real workers of one pool process each on the local Redis, `import --wait`.
The baseline, measured in the same run, is the solver alone on one core (`solve_many_timed`
in batches over a `--sample` of the input): the end-to-end figures are also given as a ratio
to it (2.0 would be two cores doing nothing but solving), and beside the solver alone on as
many processes as the end-to-end run has (`run --workers`, one per core by default; Celery's
two workers), in the same run: the share of it the end-to-end run reaches. Where the time goes:
each stage alone, in CPU microseconds per puzzle (read/parse, import, solve, result write), then
the CPU each process group spent during the end-to-end runs: `run`'s main process apart from its
children, and the children by the name each shows (`sudoku-pool`, `sudoku-reader`, ...: read from
/proc while it runs), the Celery workers, the producer, the PostgreSQL server and Redis (the Celery
overhead is the workers' CPU beyond solving and writing, plus Redis's). Last, the bulk path's
targets (`TARGETS`) beside this run's figures: `run`'s main process's CPU a puzzle; `run`'s time
against the pool's own work ("solve", one core, divided by `run`'s processes); the PostgreSQL
server's CPU a puzzle for the import and the result write alone; Celery's rate against `run`'s.

`--rating` is SUDOKU_RATING for every part (the solver alone included): `fast` leaves SE's
chains out, so that the solver's cost does not hide the bookkeeping's. `--sqlite-only` leaves
PostgreSQL out (its stages, the Celery run and the server's target), for a machine without
its server.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from operator import itemgetter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from storage import fresh_database  # noqa: E402  (benchmarks/storage.py, beside this file)

import solver  # noqa: E402
from db.engine import make_engine, session_factory  # noqa: E402
from db.imports import BatchWork  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from db.results import ResultRow, record_batch  # noqa: E402
from db.tiers import IMPORT, RATING_MODES  # noqa: E402
from worker import settings  # noqa: E402
from worker.batch import solve_batch  # noqa: E402
from worker.bulk.producer import import_chunks, open_import  # noqa: E402
from worker.files.inputs import Input, collection_name, readable  # noqa: E402
from worker.files.sources import read_puzzles  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
SOURCES = ("krazydad_graded_56k.tsv", "seventeen_clue_49k.txt")
SEED = 2024  # the copies' default seed (benchmarks/solver.py draws the same mix)
SYMMETRIES = 4096  # drawn once per seed; a copy picks one at random
REDIS_URL = os.environ.get("SUDOKU_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
TICK = os.sysconf("SC_CLK_TCK")


def source_lines() -> list[tuple[str, str]]:
    """(puzzle, rest of the line) of every line of the source files."""
    lines = []
    for name in SOURCES:
        with (DATA / name).open() as source:
            for line in source:
                givens, _, rest = line.rstrip("\n").partition("\t")
                if givens:
                    lines.append((givens.replace("0", "."), rest))
    return lines


def _band_order(rng: random.Random) -> list[int]:
    """Rows (or columns) 0-8 reordered: bands shuffled, then the rows inside each band."""
    return [3 * band + row for band in rng.sample(range(3), 3) for row in rng.sample(range(3), 3)]


def symmetry(rng: random.Random) -> tuple[itemgetter[int], dict[int, int]]:
    """A random symmetry: which cell each cell comes from, and a digit relabelling."""
    rows, columns = _band_order(rng), _band_order(rng)
    cells = [9 * r + c for r in rows for c in columns]
    if rng.random() < 0.5:
        cells = [cells[9 * (i % 9) + i // 9] for i in range(81)]
    return itemgetter(*cells), str.maketrans("123456789", "".join(rng.sample("123456789", 9)))


def symmetric_copies(count: int, seed: int) -> list[str]:
    """`count` distinct lines: copies of the source puzzles under random symmetries."""
    rng = random.Random(seed)
    base = source_lines()
    uses = list(range(len(base))) * (count // len(base))
    uses += rng.sample(range(len(base)), count % len(base))
    rng.shuffle(uses)
    symmetries = [symmetry(rng) for _ in range(SYMMETRIES)]
    seen: set[str] = set()
    lines = []
    for k in uses:
        givens, rest = base[k]
        copy = givens
        while copy in seen or copy == givens:
            cells, relabel = rng.choice(symmetries)
            copy = "".join(cells(givens)).translate(relabel)
        seen.add(copy)
        lines.append(f"{copy}\t{rest}" if rest else copy)
    return lines


def _sample(path: Path, sample: int) -> list[str]:
    """The puzzles of the input's first `sample` lines."""
    with path.open() as source:
        return [line.split("\t")[0] for _, line in zip(range(sample), source, strict=False)]


def _solve_alone(puzzles: list[str], batch_size: int) -> None:
    """The solver on `puzzles`, batch by batch, within the bulk path's budgets (SUDOKU_RATING)."""
    work_budget, batch_budget = settings.rating_plan().budgets(IMPORT)
    for start in range(0, len(puzzles), batch_size):
        solver.solve_many_timed(
            puzzles[start : start + batch_size],
            work_budget=work_budget,
            batch_budget=batch_budget,
        )


def solver_alone(path: Path, sample: int, batch_size: int) -> float:
    """Baseline: seconds per puzzle of the solver alone on one core, over a sample."""
    puzzles = _sample(path, sample)
    started = time.perf_counter()
    _solve_alone(puzzles, batch_size)
    return (time.perf_counter() - started) / len(puzzles)


def solver_alone_on(processes: int, path: Path, sample: int, batch_size: int) -> float:
    """Puzzles a second of the solver alone on `processes` processes, each on its own part of
    the input (`sample` puzzles each), started together: what the cores can do at most."""
    puzzles = _sample(path, processes * sample)
    parts = [puzzles[k * sample : (k + 1) * sample] for k in range(processes)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        pool.apply(_solve_alone, ([], batch_size))  # the pool is up before the clock starts
        started = time.perf_counter()
        pool.starmap(_solve_alone, [(part, batch_size) for part in parts], chunksize=1)
        return sum(map(len, parts)) / (time.perf_counter() - started)


# --- CPU accounting ----------------------------------------------------------------------


def _stat(pid: int) -> tuple[str, float, float]:
    """(command name, own CPU seconds, CPU seconds of its exited, waited-for children)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return name, (utime + stime) / TICK, (cutime + cstime) / TICK


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and of its descendants, living or exited."""
    try:
        _, own, exited = _stat(pid)
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return own + exited + sum(tree_cpu(int(child)) for child in children)


def postgres_cpu() -> float:
    """CPU seconds of the local PostgreSQL server's processes (ended backends included)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name, own, exited = _stat(int(entry.name))
            except (FileNotFoundError, ProcessLookupError):
                continue
            total += own + exited if name == "postgres" else 0.0
    return total


def settled_postgres_cpu(longest: float = 5.0) -> float:
    """`postgres_cpu` once it stops moving (read every 0.2 s, for at most `longest` s): a
    backend whose client just ended (the reading child of a large file) is counted only once
    it has exited and the server has reaped it, which takes a moment after its client is gone."""
    figure = postgres_cpu()
    deadline = time.monotonic() + longest
    while time.monotonic() < deadline:
        time.sleep(0.2)
        figure, last = postgres_cpu(), figure
        if figure == last:
            break
    return figure


def redis_cpu() -> float:
    info = redis.Redis.from_url(REDIS_URL).info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


def children_cpu() -> float:
    """CPU seconds of this process's waited-for children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _descendants(pid: int) -> list[int]:
    """The pids of a process's living descendants."""
    found, todo = [], [pid]
    while todo:
        try:
            children = Path(f"/proc/{todo.pop()}/task").glob("*/children")
            more = [int(child) for path in children for child in path.read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
        found += more
        todo += more
    return found


def cpu_until_exit(
    proc: subprocess.Popen[bytes], every: float = 0.05
) -> tuple[float, dict[str, float]]:
    """The CPU seconds a child spent itself, and those of its descendants by the name each
    shows (`worker.handover.show_name`), read from /proc every `every` seconds until it
    exits: each process's last reading (a few ms short at most)."""
    own = 0.0
    last: dict[int, tuple[str, float]] = {}
    while proc.poll() is None:
        try:
            own = _stat(proc.pid)[1]
        except (FileNotFoundError, ProcessLookupError, ValueError):
            break
        for pid in _descendants(proc.pid):
            try:
                name, spent, _ = _stat(pid)
            except (FileNotFoundError, ProcessLookupError, ValueError):
                continue
            last[pid] = (name, spent)
        time.sleep(every)
    named: dict[str, float] = {}
    for name, spent in last.values():
        named[name] = named.get(name, 0.0) + spent
    return own, named


# --- each stage alone --------------------------------------------------------------------


def _cpu_of(work: Iterator[object]) -> float:
    started = time.process_time()
    for _ in work:
        pass
    return time.process_time() - started


def _imported(url: str, path: Path, batch_size: int) -> tuple[float, list[BatchWork], float]:
    """(client CPU seconds of the import, its reader process's included; its batches; the
    server's CPU on PostgreSQL)."""
    upgrade(url)
    engine = make_engine(url)
    sessions = session_factory(engine)
    works: list[BatchWork] = []
    server = postgres_cpu()
    started = time.process_time() + children_cpu()  # a large file's reader is a child
    with readable(Input(str(path))) as source:
        job = open_import(sessions, source, collection_name(path))
        for chunk in import_chunks(sessions, job, batch_size):
            works += chunk
    spent = time.process_time() + children_cpu() - started
    engine.dispose()
    server = settled_postgres_cpu() - server
    return spent, works, server


def cycled_rows(works: list[BatchWork], rows: list[ResultRow]) -> list[list[ResultRow]]:
    """Each batch's result rows: the sample's `rows`, cycled, under the batch's puzzle ids."""
    cycled = iter(rows * (1 + sum(len(work.puzzles) for work in works) // len(rows)))
    return [
        [next(cycled)._replace(puzzle_id=puzzle_id) for puzzle_id, _ in work.puzzles]
        for work in works
    ]


def _written(url: str, works: list[BatchWork], rows: list[ResultRow]) -> tuple[float, float]:
    """(client CPU seconds to record every batch, one transaction each; server CPU). The
    rows are the sample's, cycled, under each batch's puzzle ids (`cycled_rows`)."""
    batches = cycled_rows(works, rows)
    engine = make_engine(url)
    sessions = session_factory(engine)
    server = postgres_cpu()
    started = time.process_time()
    for work, batch in zip(works, batches, strict=True):
        with sessions() as session:
            record_batch(session, work.batch_id, batch)
            session.commit()
    spent = time.process_time() - started
    engine.dispose()
    server = settled_postgres_cpu() - server
    return spent, server


def stages(path: Path, batch_size: int, sample: int, kinds: tuple[str, ...]) -> dict[str, float]:
    """CPU seconds of each stage alone, for the whole input (solve: a sample, scaled up), on
    each database of `kinds`."""
    read = _cpu_of(read_puzzles(path))
    out = {"read/parse": read}
    works: list[BatchWork] = []
    for kind in kinds:
        with fresh_database(kind) as url:
            spent, works, server = _imported(url, path, batch_size)
            out[f"import, {kind} (client, read excluded)"] = spent - read
            if kind == "postgresql":
                out["import, postgresql (server)"] = server
            count = sum(len(work.puzzles) for work in works)
            solving = works[: max(1, sample // batch_size)]
            started = time.process_time()
            plan = settings.rating_plan()
            rows = [
                row for w in solving for row in solve_batch(w.collection_id, w.puzzles, plan=plan)
            ]
            out["solve (solver + rows, one core)"] = (
                (time.process_time() - started) * count / len(rows)
            )
            spent, server = _written(url, works, rows)
            out[f"result write, {kind} (client)"] = spent
            if kind == "postgresql":
                out["result write, postgresql (server)"] = server
    return out


# --- end to end ---------------------------------------------------------------------------


def cli(*args: str, env: dict[str, str]) -> tuple[float, float, dict[str, float]]:
    """Seconds one `sudoku-batch` command takes (it must succeed, or end with 3), the CPU
    seconds of its own process (its pool's not counted) and of its descendants by name."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(
            [sys.executable, "-m", "worker", *args],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        own, named = cpu_until_exit(proc)
        if proc.wait() not in (0, 3):
            errors.seek(0)
            raise RuntimeError(f"sudoku-batch {args[0]} failed: {errors.read().decode()[-2000:]}")
    return time.perf_counter() - started, own, named


CELERY_WORKERS = 2  # Celery workers of one pool process each
# the processes each end-to-end run solves on: `run --workers N` (0: one per core), the workers
PROCESSES = {
    "run": lambda workers: workers or os.cpu_count() or 1,
    "celery": lambda _: CELERY_WORKERS,
}


CHILDREN = "pool, reader and writer processes"  # run's children, all together


def embedded(
    path: Path, folder: Path, batch_size: int, workers: int
) -> tuple[str, float, dict[str, float]]:
    url = f"sqlite:///{folder / f'run-{uuid.uuid4().hex[:6]}.db'}"
    before = children_cpu()
    wall, main, named = cli(
        "run",
        str(path),
        "--batch-size",
        str(batch_size),
        "--workers",
        str(workers),
        env={"SUDOKU_DATABASE_URL": url},
    )
    spent = {
        "main process": main,
        CHILDREN: children_cpu() - before - main,
        # by the name each shows: the pool's, the reader's, the chunks' and results' writers
        **{f"  {name}": seconds for name, seconds in sorted(named.items())},
    }
    return f"run (embedded, SQLite, {PROCESSES['run'](workers)} workers)", wall, spent


WORKER = [sys.executable, "-m", "worker", "worker", "--without-gossip", "--without-mingle"]


def start_workers(env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    """CELERY_WORKERS Celery workers of one pool process each, in their own process groups."""
    return [
        subprocess.Popen(
            [*WORKER, "--concurrency=1", f"--hostname=bench{i}@%h"],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for i in range(CELERY_WORKERS)
    ]


def distributed(
    path: Path, folder: Path, batch_size: int, workers: int
) -> tuple[str, float, dict[str, float]]:
    with fresh_database("postgresql") as url:
        upgrade(url)
        queue = f"bench-{uuid.uuid4().hex[:8]}"
        env = {"SUDOKU_DATABASE_URL": url, "SUDOKU_BROKER_URL": REDIS_URL, "SUDOKU_QUEUE": queue}
        workers = start_workers(env)
        time.sleep(5)  # let the workers start and connect before the clock starts
        before = [sum(tree_cpu(w.pid) for w in workers), children_cpu()]
        before += [postgres_cpu(), redis_cpu()]
        try:
            args = ("import", str(path), "--batch-size", str(batch_size), "--wait")
            wall, _, _ = cli(*args, env=env)
            after = [sum(tree_cpu(w.pid) for w in workers), children_cpu()]
            after += [settled_postgres_cpu(), redis_cpu()]
        finally:
            for proc in workers:
                os.killpg(proc.pid, signal.SIGTERM)
            for proc in workers:
                proc.wait(30)
    groups = ("workers (consumers and pool)", "producer (import --wait)", "postgresql", "redis")
    spent = {group: a - b for group, a, b in zip(groups, after, before, strict=True)}
    return f"celery ({CELERY_WORKERS} workers, PostgreSQL)", wall, spent


def report(
    n: int,
    runs: int,
    baseline: float,
    walls: dict[str, list[float]],
    alone: dict[str, tuple[int, list[float]]],
) -> None:
    print(f"\n{n:,} distinct puzzles, median of {runs} runs, {os.cpu_count()} cores,")
    print(f"solver backend {solver.backend()!r}: {1 / baseline:,.0f} puzzles/s alone on one core")
    heading = ("end to end", "seconds", "puzzles/s", "x one core", "solver alone", "share")
    print("{:40} {:>8} {:>10} {:>10} {:>18} {:>6}".format(*heading))
    for name, values in walls.items():
        seconds = statistics.median(values)
        rate = n / seconds
        processes, rates = alone[name]
        best = statistics.median(rates)
        print(
            f"{name:40} {seconds:8.2f} {rate:10,.0f} {rate * baseline:10.2f}"
            f" {best:10,.0f} on {processes:>2} {rate / best:6.2f}"
        )


def report_cpu(title: str, n: int, cpu: dict[str, list[float]]) -> None:
    print(f"\n{title}")
    for name, values in cpu.items():
        seconds = statistics.median(values)
        print(f"  {name:40} {seconds:8.2f} s CPU {seconds / n * 1e6:8.1f} us/puzzle")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=["run", "celery"])
    parser.add_argument("--batch-size", type=int, default=1_000)
    parser.add_argument("--sample", type=int, default=20_000, help="puzzles solved alone")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--workers", type=int, default=0, help="run's pool processes (0: one per core)"
    )
    parser.add_argument(
        "--rating", choices=RATING_MODES, default=settings.rating_mode(), help="SUDOKU_RATING"
    )
    parser.add_argument(
        "--sqlite-only", action="store_true", help="no PostgreSQL: its stages and Celery left out"
    )
    args = parser.parse_args()
    if args.sqlite_only and args.only == "celery":
        parser.error("--only celery needs PostgreSQL: drop --sqlite-only")
    kinds = ("sqlite",) if args.sqlite_only else ("sqlite", "postgresql")
    parts = ("run",) if args.sqlite_only else ("run", "celery")
    os.environ["SUDOKU_RATING"] = args.rating  # the end-to-end runs' and the solver's alone
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "symmetric.tsv"
        path.write_text("\n".join(symmetric_copies(args.count, args.seed)) + "\n")
        walls: dict[str, list[float]] = {}
        alone: dict[str, tuple[int, list[float]]] = {}  # processes, puzzles/s each run
        cpu: dict[str, dict[str, list[float]]] = {}
        baselines = []
        for _ in range(args.runs):
            baselines.append(solver_alone(path, min(args.sample, args.count), args.batch_size))
            for stage, seconds in stages(path, args.batch_size, args.sample, kinds).items():
                cpu.setdefault("stages", {}).setdefault(stage, []).append(seconds)
            for kind, run in (("run", embedded), ("celery", distributed)):
                if kind in parts and args.only in (None, kind):
                    label, wall, spent = run(path, folder, args.batch_size, args.workers)
                    walls.setdefault(label, []).append(wall)
                    processes = PROCESSES[kind](args.workers)
                    share = max(1, min(args.sample, args.count // processes))
                    rate = solver_alone_on(processes, path, share, args.batch_size)
                    alone.setdefault(label, (processes, []))[1].append(rate)
                    for group, seconds in spent.items():
                        cpu.setdefault(label, {}).setdefault(group, []).append(seconds)
    baseline = statistics.median(baselines)
    print(f"rating: {args.rating}")
    report(args.count, args.runs, baseline, walls, alone)
    report_cpu("where the time goes: each stage alone, one process", args.count, cpu["stages"])
    for label in walls:
        report_cpu(f"CPU during {label}", args.count, {**cpu[label], **overhead(label, cpu)})
    report_targets(args.count, walls, cpu, PROCESSES["run"](args.workers))


# The bulk path's targets: what, the figure's unit, the bound, and whether the figure is to stay
# at or below it (else at or above it).
TARGET_COUNT = 1_000_000  # the puzzles the targets are set for (issue "The bulk path scales")
TARGETS = {
    "run's main process, CPU a puzzle": ("us", 15.0, True),
    "run against the pool's own work on its processes": ("x", 1.25, True),
    "PostgreSQL server CPU a puzzle, import and results": ("us", 20.0, True),
    "Celery's rate against run's": ("x", 0.9, False),
}


def targets(
    n: int, walls: dict[str, list[float]], cpu: dict[str, dict[str, list[float]]], processes: int
) -> dict[str, float]:
    """Each target's figure in this run (medians), for the parts that ran."""
    median = {label: statistics.median(values) for label, values in walls.items()}
    stage = {name: statistics.median(values) for name, values in cpu["stages"].items()}
    run = next((label for label in median if label.startswith("run")), None)
    celery = next((label for label in median if label.startswith("celery")), None)
    found = {}
    if run is not None:
        main = statistics.median(cpu[run]["main process"])
        found["run's main process, CPU a puzzle"] = main / n * 1e6
        pool = stage["solve (solver + rows, one core)"] / processes
        found["run against the pool's own work on its processes"] = median[run] / pool
    if "import, postgresql (server)" in stage:
        server = stage["import, postgresql (server)"] + stage["result write, postgresql (server)"]
        found["PostgreSQL server CPU a puzzle, import and results"] = server / n * 1e6
    if run is not None and celery is not None:
        found["Celery's rate against run's"] = median[run] / median[celery]
    return found


def report_targets(
    n: int, walls: dict[str, list[float]], cpu: dict[str, dict[str, list[float]]], processes: int
) -> None:
    """The bulk path's targets beside this run's figures (the server's from the stages
    alone)."""
    print("\ntargets (this run's medians)")
    if n != TARGET_COUNT:
        print(f"  (set for --count {TARGET_COUNT:,}: on fewer, run's start weighs more a puzzle)")
    for name, figure in targets(n, walls, cpu, processes).items():
        unit, bound, at_most = TARGETS[name]
        met = figure <= bound if at_most else figure >= bound
        sign = "<=" if at_most else ">="
        verdict = "met" if met else "not met"
        print(f"  {name:52} {figure:8.2f} {unit:2}  target {sign} {bound:g}  {verdict}")


def overhead(label: str, cpu: dict[str, dict[str, list[float]]]) -> dict[str, list[float]]:
    """What an end-to-end run spent beyond its stages measured alone (medians)."""
    stage = {name: statistics.median(values) for name, values in cpu["stages"].items()}
    spent = {name: statistics.median(values) for name, values in cpu[label].items()}
    solve = stage["solve (solver + rows, one core)"]
    if label.startswith("run"):
        kind = "sqlite"
        work = stage["read/parse"] + stage[f"import, {kind} (client, read excluded)"]
        work += solve + stage[f"result write, {kind} (client)"]
        return {"  beyond the stages alone": [spent["main process"] + spent[CHILDREN] - work]}
    write = stage["result write, postgresql (client)"]
    workers = spent["workers (consumers and pool)"] - solve - write
    return {"  Celery overhead (beyond solve, write)": [workers + spent["redis"]]}


if __name__ == "__main__":
    main()
