"""Producers pushing puzzles (task `sudoku.solve`), each figure beside its yardstick.

    .venv/bin/python benchmarks/producer.py [--count 200000] [--messages 20000]
        [--pushes 200] [--repeat 3] [--only lists,singles,latency] [--puzzles FILE]
        [--seed 2024]

Servers: the local Redis (SUDOKU_BENCH_REDIS_URL, default redis://127.0.0.1:6379/12: that
database is flushed before each measurement) and the local PostgreSQL
(SUDOKU_BENCH_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres), where
the scratch database `bench_producer` is dropped and created again, at the head revision,
for each measurement. Every measurement starts two workers of one pool process each (their
own process groups, a queue of their own), waits until both consume the queue, and stops
them afterwards.

1. Lists: `--count` puzzles pushed with `Client.submit` (messages of SUDOKU_BATCH_SIZE) then
   `Client.wait_stored`, from submit to its return (every message stored, nothing read
   back: what `import --wait` does), against `sudoku-batch import FILE --wait` on the same
   puzzles with the same kind of workers, from the command's start to its exit; then, for
   information, `Client.wait` instead (every result read back as it lands). The three
   alternate their order, run by run.
2. Single-puzzle messages: `--messages` messages from one producer, one
   `send_task("sudoku.solve", args=[puzzle])` each, against the same number of messages of
   the no-op task of `benchmarks/noop_app.py` (the worker's app and settings, a task that does
   nothing) with the same arguments; each from the first send until every message is
   consumed and acknowledged (Redis holds none queued or unacknowledged); for sudoku.solve,
   every string is then checked to be stored. The no-op ceiling is measured twice: with the
   worker's app settings as they are, task events on (three events a message, for Flower,
   which the grouped sudoku.solve messages do not send), and without them, the stricter one.
3. Latency: `--pushes` single puzzles pushed one at a time to idle workers (default grouping
   settings); from the send until the puzzle's result is readable in SQL (polled every
   millisecond on one connection: the submission joined to its line and its result), then a
   pause of 50-150 ms.

Each figure is measured `--repeat` times; the tables show every run and the median, and a
ratio is computed within each run, then its median taken. Beside the rates, the CPU each
measurement cost a puzzle (or a message), median of the runs: the workers (main and pool
processes), the PostgreSQL server (its backends), and the producer (this process for
Client and send_task, the `import` command). The workers log at SUDOKU_BENCH_LOGLEVEL
(default WARNING). Input: `--puzzles FILE` (or
SUDOKU_BENCH_PUZZLES; one puzzle a line, the first tab-separated field), by default
../shared/data/krazydad_graded_56k.tsv and seventeen_clue_49k.txt (105,158 puzzles of every
grade); as many distinct puzzles as needed are made of them, each source line used in turn,
copies under random Sudoku symmetries (as benchmarks/pipeline.py does).
"""

from __future__ import annotations

import argparse
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
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
import redis  # noqa: E402
from pipeline import symmetry, tree_cpu  # noqa: E402  (benchmarks/pipeline.py)

from db.migrate import upgrade  # noqa: E402
from worker.app import producer_app  # noqa: E402
from worker.client import Client  # noqa: E402
from worker.messages import PUSH_TASK_NAME  # noqa: E402

DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
SOURCES = ("krazydad_graded_56k.tsv", "seventeen_clue_49k.txt")
REDIS_URL = os.environ.get("SUDOKU_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
ADMIN_URL = os.environ.get(
    "SUDOKU_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
DATABASE = "bench_producer"
WORKERS = 2
NOOP_TASK = "bench.noop"  # benchmarks/noop_app.py's task (not imported: it builds a worker app)
# The workers log at WARNING (celery's default) unless told: the default strategy, not the
# grouping one, logs two INFO lines a message, which would slow down the no-op workers alone.
LOGLEVEL = os.environ.get("SUDOKU_BENCH_LOGLEVEL", "WARNING")
CELERY_FLAGS = ("--concurrency=1", "--without-gossip", "--without-mingle", f"--loglevel={LOGLEVEL}")
PUSH_WORKER = (sys.executable, "-m", "worker", "worker")
NOOP_WORKER = (sys.executable, "-m", "celery", "-A", "benchmarks.noop_app", "worker")
DRAINED_POLL = 0.005  # seconds between two looks at Redis while messages are in flight
READABLE_POLL = 0.001  # seconds between two looks at SQL for one pushed puzzle
READABLE = """
    SELECT r.status FROM submissions s
    JOIN collection_puzzles cp ON cp.collection_id = s.collection_id AND cp.line = s.first_line
    JOIN results r ON r.puzzle_id = cp.puzzle_id
    WHERE s.task_id = %s
"""


# --- input --------------------------------------------------------------------------------


def base_puzzles(given: str | None) -> tuple[str, list[str]]:
    """(what the input is, its puzzles): the first field of every line of the file given,
    or of the default collections."""
    files = [Path(given)] if given else [DATA / name for name in SOURCES]
    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        raise SystemExit(f"no puzzle file {', '.join(missing)}: give one with --puzzles FILE")
    puzzles = []
    for path in files:
        with path.open() as source:
            for line in source:
                puzzle = line.split("\t")[0].strip().replace("0", ".")
                if len(puzzle) == 81:  # a header or a comment is no puzzle
                    puzzles.append(puzzle)
    return " + ".join(path.name for path in files), puzzles


def distinct_puzzles(base: list[str], count: int, seed: int) -> list[str]:
    """`count` distinct puzzles: the base puzzles in a shuffled order, over and over, each
    after its first use as a copy under a random symmetry not seen before."""
    rng = random.Random(seed)
    order = list(dict.fromkeys(base))
    rng.shuffle(order)
    symmetries = [symmetry(rng) for _ in range(4096)]
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        for givens in order[: count - len(out)]:
            copy = givens
            while copy in seen:
                cells, relabel = rng.choice(symmetries)
                copy = "".join(cells(givens)).translate(relabel)
            seen.add(copy)
            out.append(copy)
    return out


# --- servers and workers ------------------------------------------------------------------


def scratch_database() -> str:
    """The URL of `bench_producer`, dropped and created again, migrated to the head."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    url = f"{ADMIN_URL.rsplit('/', 1)[0]}/{DATABASE}"
    upgrade(url)
    return url


def drop_database() -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def worker_env(url: str, queue: str) -> dict[str, str]:
    return {
        **os.environ,
        "SUDOKU_DATABASE_URL": url,
        "SUDOKU_BROKER_URL": REDIS_URL,
        "SUDOKU_QUEUE": queue,
    }


def consuming(queue: str, expected: int) -> int:
    """How many workers answer that they consume `queue` (waits at most 0.5 s)."""
    celery = producer_app(REDIS_URL, queue)
    try:
        inspect = celery.control.inspect(timeout=0.5, limit=expected)
        replies = inspect.active_queues() or {}
    finally:
        celery.close()
    return sum(any(q.get("name") == queue for q in queues) for queues in replies.values())


@contextmanager
def workers(
    command: Sequence[str], env: dict[str, str], log: Path
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """WORKERS workers of one pool process each, consuming env's queue; stopped on exit."""
    procs = []
    with log.open("ab") as out:
        for i in range(WORKERS):
            procs.append(
                subprocess.Popen(
                    [*command, *CELERY_FLAGS, f"--hostname=bench{i}-{uuid.uuid4().hex[:6]}@%h"],
                    cwd=ROOT,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
    try:
        deadline = time.monotonic() + 90
        while consuming(env["SUDOKU_QUEUE"], WORKERS) < WORKERS:
            if any(proc.poll() is not None for proc in procs) or time.monotonic() > deadline:
                tail = log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the workers did not start; their log ends:\n{tail}")
        yield procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def postmaster(url: str) -> int:
    """The process id of the PostgreSQL server's main process (parent of every backend)."""
    with psycopg.connect(url) as conn:  # the backend lives as long as its connection
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        stat = Path(f"/proc/{row[0]}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def own_cpu() -> float:
    """CPU seconds of this process and of its children waited for (an `import` command)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass(frozen=True)
class Setup:
    """A measurement's database, queue and running workers."""

    url: str
    queue: str
    procs: list[subprocess.Popen[bytes]]
    server: int  # the PostgreSQL server's main process

    def cpu(self) -> tuple[float, float, float]:
        """CPU seconds so far of (the workers, the PostgreSQL server, this process)."""
        spent = sum(tree_cpu(proc.pid) for proc in self.procs)
        return spent, tree_cpu(self.server), own_cpu()


@contextmanager
def measurement(
    command: Sequence[str], log: Path, env: dict[str, str] | None = None
) -> Iterator[Setup]:
    """A fresh database and Redis database, workers running on a new queue."""
    redis.Redis.from_url(REDIS_URL).flushdb()
    url = scratch_database()
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    with workers(command, {**worker_env(url, queue), **(env or {})}, log) as procs:
        yield Setup(url, queue, procs, postmaster(url))


Cpu = tuple[float, float, float]  # CPU seconds of the workers, PostgreSQL, the producer


def spent(before: Cpu, after: Cpu) -> Cpu:
    workers, server, producer = (a - b for a, b in zip(after, before, strict=True))
    return workers, server, producer


def drained(broker: redis.Redis, queue: str) -> bool:
    """No message queued nor unacknowledged (kombu's Redis transport keeps those in the
    `unacked` hash until the worker acknowledges them)."""
    pipe = broker.pipeline(transaction=False)
    pipe.llen(queue)
    pipe.hlen("unacked")
    queued, unacked = pipe.execute()
    return queued == 0 and unacked == 0


def wait_drained(broker: redis.Redis, queue: str, timeout: float = 600) -> float:
    """The time (perf_counter) Redis was first seen empty, twice in a row."""
    deadline = time.monotonic() + timeout
    first = None
    while time.monotonic() < deadline:
        now = time.perf_counter()
        if drained(broker, queue):
            if first is not None:
                return first
            first = now
        else:
            first = None
        time.sleep(DRAINED_POLL)
    raise RuntimeError(f"messages still in Redis after {timeout} s")


def count_rows(url: str, table: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()  # noqa: S608 (ours)
    return int(row[0]) if row else 0


# --- 1. lists -----------------------------------------------------------------------------


def client_lists(puzzles: list[str], log: Path, *, read: bool) -> tuple[float, Cpu]:
    """Seconds from Client.submit to the return of Client.wait (`read`: every result read
    back) or Client.wait_stored (nothing read back, as import --wait); CPU."""
    with measurement(PUSH_WORKER, log) as run, Client(REDIS_URL, run.url, queue=run.queue) as c:
        c.celery.connection_for_write().ensure_connection()  # import celery's modules first
        before = run.cpu()
        started = time.perf_counter()
        receipts = c.submit(puzzles, collection="bench")
        if read:
            results = c.wait(receipts, timeout=1800)
        else:
            c.wait_stored(receipts, timeout=1800)
        seconds = time.perf_counter() - started
        cpu = spent(before, run.cpu())
        if not read:
            results = c.results(receipts)
    stored = sum(r is not None and r["status"] is not None for r in results)
    if stored != len(puzzles):
        raise RuntimeError(f"Client.wait returned {stored:,} results of {len(puzzles):,}")
    return seconds, cpu


def import_file(path: Path, count: int, log: Path) -> tuple[float, Cpu]:
    """Seconds `sudoku-batch import FILE --wait` takes, start to exit; CPU."""
    with measurement(PUSH_WORKER, log) as run:
        before = run.cpu()
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "worker", "import", str(path), "--wait"],
            cwd=ROOT,
            env=worker_env(run.url, run.queue),
            capture_output=True,
            check=False,
        )
        seconds = time.perf_counter() - started
        cpu = spent(before, run.cpu())
        if done.returncode != 0:
            raise RuntimeError(f"import failed: {done.stderr.decode()[-2000:]}")
        results = count_rows(run.url, "results")
    if results != count:
        raise RuntimeError(f"import --wait stored {results:,} results of {count:,}")
    return seconds, cpu


# --- 2. single-puzzle messages --------------------------------------------------------------


def send_singles(task: str, puzzles: list[str], run: Setup) -> tuple[float, Cpu]:
    """Seconds from the first send of one message a puzzle until Redis holds none; CPU."""
    celery = producer_app(REDIS_URL, run.queue)
    broker = redis.Redis.from_url(REDIS_URL)
    try:
        with celery.producer_or_acquire() as producer:  # one connection, warmed up
            producer.connection.ensure_connection()
            before = run.cpu()
            started = time.perf_counter()
            for puzzle in puzzles:
                celery.send_task(task, args=[puzzle], producer=producer)
        seconds = wait_drained(broker, run.queue) - started
        return seconds, spent(before, run.cpu())
    finally:
        celery.close()


def noop_singles(puzzles: list[str], log: Path, *, events: bool = True) -> tuple[float, Cpu]:
    env = {} if events else {"SUDOKU_BENCH_NOOP_EVENTS": "0"}
    with measurement(NOOP_WORKER, log, env) as run:
        return send_singles(NOOP_TASK, puzzles, run)


def pushed_singles(puzzles: list[str], log: Path) -> tuple[float, Cpu]:
    with measurement(PUSH_WORKER, log) as run:
        seconds, cpu = send_singles(PUSH_TASK_NAME, puzzles, run)
        stored = count_rows(run.url, "submissions")
    if stored != len(puzzles):
        raise RuntimeError(f"{stored:,} of {len(puzzles):,} single-puzzle messages stored")
    return seconds, cpu


# --- 3. latency -----------------------------------------------------------------------------


def latencies(puzzles: list[str], log: Path, seed: int) -> list[float]:
    """Seconds from each send until the puzzle's result is readable in SQL, one at a time."""
    rng = random.Random(seed)
    out = []
    with measurement(PUSH_WORKER, log) as run, psycopg.connect(run.url) as conn:
        conn.autocommit = True
        celery = producer_app(REDIS_URL, run.queue)
        try:
            with celery.producer_or_acquire() as producer:
                producer.connection.ensure_connection()
                for puzzle in puzzles:
                    time.sleep(rng.uniform(0.05, 0.15))  # the worker is idle again
                    task_id = str(uuid.uuid4())
                    started = time.perf_counter()
                    celery.send_task(
                        PUSH_TASK_NAME, args=[puzzle], task_id=task_id, producer=producer
                    )
                    while conn.execute(READABLE, (task_id,), prepare=True).fetchone() is None:
                        if time.perf_counter() - started > 60:
                            raise RuntimeError(f"puzzle {puzzle} not stored after 60 s")
                        time.sleep(READABLE_POLL)
                    out.append(time.perf_counter() - started)
        finally:
            celery.close()
    return out


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


# --- report ---------------------------------------------------------------------------------


def row(label: str, values: list[float], shown: Callable[[float], str]) -> str:
    cells = [f"{shown(v):>10}" for v in values]
    return f"  {label:44}{''.join(cells)} {shown(statistics.median(values)):>10}"


def rate(value: float) -> str:
    return f"{value:,.0f}"


def percent(value: float) -> str:
    return f"{value:.0%}"


def milliseconds(value: float) -> str:
    return f"{value * 1000:.0f} ms"


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


@dataclass
class Figures:
    """Every run's figures by name, and the CPU each measurement took by kind."""

    values: dict[str, list[float]]
    cpu: dict[str, list[Cpu]]

    def keep(self, name: str, value: float) -> None:
        self.values.setdefault(name, []).append(value)
        shown = percent if "ratio" in name else milliseconds if name[0] in "pm" else rate
        note(f"  {name}: {shown(value)}")

    def timed(self, kind: str, units: int, outcome: tuple[float, Cpu]) -> float:
        """Keep one measurement's rate (units a second) and CPU; the rate."""
        seconds, cpu = outcome
        self.cpu.setdefault(kind, []).append(cpu)
        self.keep(kind, units / seconds)
        return units / seconds

    def cpu_row(self, label: str, kind: str, units: int) -> str:
        """Median CPU microseconds a unit: workers + PostgreSQL + producer = total."""
        parts = [statistics.median(c[k] for c in self.cpu[kind]) * 1e6 / units for k in range(3)]
        cells = " + ".join(f"{part:4.0f}" for part in parts)
        return f"  {label:44}{cells} = {sum(parts):4.0f}"


def lists(
    args: argparse.Namespace, puzzles: list[str], path: Path, log: Path, run: int, figures: Figures
) -> None:
    kinds = ["client", "import", "client read"]
    order = kinds if run % 2 == 0 else kinds[::-1]
    rates = {}
    for kind in order:
        if kind == "import":
            outcome = import_file(path, args.count, log)
        else:
            outcome = client_lists(puzzles[: args.count], log, read=kind == "client read")
        rates[kind] = figures.timed(kind, args.count, outcome)
    figures.keep("lists ratio", rates["client"] / rates["import"])
    figures.keep("read ratio", rates["client read"] / rates["import"])


def singles(
    args: argparse.Namespace, puzzles: list[str], log: Path, run: int, figures: Figures
) -> None:
    messages = puzzles[: args.messages]
    kinds = ["singles", "noop", "noop quiet"]
    rates = {}
    for kind in kinds[run % 3 :] + kinds[: run % 3]:  # each goes first in turn
        if kind == "singles":
            outcome = pushed_singles(messages, log)
        else:
            outcome = noop_singles(messages, log, events=kind == "noop")
        rates[kind] = figures.timed(kind, args.messages, outcome)
    figures.keep("singles ratio", rates["singles"] / rates["noop"])
    figures.keep("quiet ratio", rates["singles"] / rates["noop quiet"])


def report(
    args: argparse.Namespace,
    parts: set[str],
    source: str,
    figures: Figures,
    pushes: list[list[float]],
) -> None:
    values = figures.values
    runs = "".join(f"{f'run {k + 1}':>10}" for k in range(args.repeat))
    print(
        f"\nproducers of sudoku.solve: {WORKERS} workers of one pool process each, Redis "
        f"{REDIS_URL.rsplit('/', 1)[1]} and PostgreSQL, {os.cpu_count()} cores; input {source}"
    )
    print(f"{'':46}{runs} {'median':>10}")
    cpu_heading = "CPU us a {} (median): workers + PostgreSQL + producer = total"
    if "lists" in parts:
        print(f"1. lists: {args.count:,} puzzles, puzzles/s (start to last result stored)")
        print(row("Client.submit + Client.wait_stored", values["client"], rate))
        print(row("import FILE --wait (same workers)", values["import"], rate))
        print(row("ratio (target >= 90%)", values["lists ratio"], percent))
        print(row("Client.submit + Client.wait (read back)", values["client read"], rate))
        print(row("ratio to import FILE --wait", values["read ratio"], percent))
        print(f"  {cpu_heading.format('puzzle')}")
        print(figures.cpu_row("Client.submit + Client.wait_stored", "client", args.count))
        print(figures.cpu_row("import FILE --wait", "import", args.count))
        print(figures.cpu_row("Client.submit + Client.wait", "client read", args.count))
    if "singles" in parts:
        print(f"2. single-puzzle messages: {args.messages:,} from one producer, messages/s")
        print(row("sudoku.solve, one puzzle a message", values["singles"], rate))
        print(row("no-op task, the worker's app settings", values["noop"], rate))
        print(row("  ratio (target >= 80%)", values["singles ratio"], percent))
        print(row("no-op task, without task events", values["noop quiet"], rate))
        print(row("  ratio (target >= 80%)", values["quiet ratio"], percent))
        print(f"  {cpu_heading.format('message')}")
        print(figures.cpu_row("sudoku.solve", "singles", args.messages))
        print(figures.cpu_row("no-op task", "noop", args.messages))
        print(figures.cpu_row("no-op task, without task events", "noop quiet", args.messages))
    if "latency" in parts:
        print(f"3. latency: {args.pushes} pushes one at a time to idle workers, send to readable")
        for label in ("p50", "p95", "max"):
            target = " (target <= 250 ms)" if label == "p95" else ""
            print(row(f"{label}{target}", values[label], milliseconds))
        every = [value for run in pushes for value in run]
        print(
            f"  all {len(every):,} pushes together: p50 {milliseconds(percentile(every, 0.5))}, "
            f"p95 {milliseconds(percentile(every, 0.95))}, max {milliseconds(max(every))}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200_000, help="puzzles pushed as lists")
    parser.add_argument("--messages", type=int, default=20_000, help="single-puzzle messages")
    parser.add_argument("--pushes", type=int, default=200, help="latency samples")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="lists,singles,latency", help="comma-separated")
    parser.add_argument("--puzzles", default=os.environ.get("SUDOKU_BENCH_PUZZLES"))
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if parts - {"lists", "singles", "latency"}:
        parser.error(f"--only: unknown {sorted(parts - {'lists', 'singles', 'latency'})}")
    source, base = base_puzzles(args.puzzles)
    puzzles = distinct_puzzles(base, max(args.count, args.messages, args.pushes), args.seed)
    figures = Figures({}, {})
    pushes: list[list[float]] = []
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "bench.txt"
        path.write_text("\n".join(puzzles[: args.count]) + "\n")
        log = Path(name) / "workers.log"
        try:
            for run in range(args.repeat):
                note(f"run {run + 1} of {args.repeat}")
                if "lists" in parts:
                    lists(args, puzzles, path, log, run, figures)
                if "singles" in parts:
                    singles(args, puzzles, log, run, figures)
                if "latency" in parts:
                    pushes.append(latencies(puzzles[-args.pushes :], log, args.seed + run))
                    for label, fraction in (("p50", 0.5), ("p95", 0.95), ("max", 1.0)):
                        figures.keep(label, percentile(pushes[-1], fraction))
        except BaseException:
            note(f"workers' log ends:\n{log.read_text(errors='replace')[-4000:]}")
            raise
        finally:
            drop_database()
            redis.Redis.from_url(REDIS_URL).flushdb()
    report(args, parts, source, figures, pushes)


if __name__ == "__main__":
    main()
