"""`run` (embedded, no servers) and `import` (to the Celery queue)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import click
from sqlalchemy.orm import Session, sessionmaker

from db.imports import BatchWork, CollectionConflict
from db.tiers import IMPORT, RERATE
from worker import settings
from worker.bulk.producer import (
    Import,
    deep_leftovers,
    drop_if_nothing_stored,
    import_chunks,
    leftover_batches,
    open_import,
    send_batches,
)
from worker.bulk.runner import LocalPool, local_pool
from worker.cli.common import console, open_database
from worker.cli.progress import Advance, bar, counted, duration
from worker.cli.summary import exit_code, print_summary
from worker.errors import SourceError
from worker.files.inputs import Input, Readable, readable

# Checked by `_named_inputs`, in one line each (`Input.check`), not by click's usage error.
FILES = click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
COLLECTION = click.option(
    "--collection",
    help="Collection name (default: the file name without its suffixes; `stdin` for -).",
)
REPLACE = click.option(
    "--replace",
    is_flag=True,
    help="Replace a collection of that name holding another file (its lines, rejected lines "
    "and batches are removed; puzzles and results stay).",
)
PATHS = click.option(
    "--paths",
    "keep_paths",
    is_flag=True,
    help="Keep each solved puzzle's solving path (table solving_paths; export --paths).",
)
BATCH_SIZE = click.option(
    "--batch-size",
    type=click.IntRange(1, settings.MAX_BATCH_SIZE),
    default=settings.batch_size,  # a bad value names the variable, not this option
    show_default=f"SUDOKU_BATCH_SIZE or {settings.DEFAULT_BATCH_SIZE:,}",
    help="Puzzles per batch (one task each).",
)


@click.command("run")
@FILES
@COLLECTION
@REPLACE
@BATCH_SIZE
@PATHS
@click.option(
    "--workers", type=click.IntRange(0), default=0, help="Pool processes (0: one per core)."
)
def run(
    files: tuple[str, ...],
    collection: str | None,
    replace: bool,
    batch_size: int,
    keep_paths: bool,
    workers: int,
) -> None:
    """Import FILES (`-`: standard input) and solve them here, in a local process pool (no
    servers needed). Ratings are Sudoku Explainer's own: the puzzles that need more work than
    the bulk path's budget are rated again, alone, in a second phase (docs/rating/exact.md).

    Interrupted or killed, run the same command again: it finishes the remaining work and
    redoes nothing.
    """
    inputs = _named_inputs(files, collection)
    settings.use_solver_backend()
    node_budget = settings.node_budget()
    plan = settings.rating_plan()
    sessions = open_database()
    cores = workers or os.cpu_count() or 1
    with local_pool(sessions, cores, node_budget, plan=plan) as pool:
        with bar(console, "solving", None, "puzzle") as advance:
            pool.on_solved = advance
            # No total while the files are read (a share of what is read so far would say 80%
            # done with 40% of the file imported): the note counts what is read; then the total.
            pool.on_dispatched = lambda read: advance(0, note=f"importing: {read:,} read")
            # every unfinished batch: `run` leaves none waiting in a queue
            unfinished = partial(leftover_batches, sessions, requeue=True, kinds=(IMPORT, RERATE))
            feed = _Feed(pool.dispatch_all, unfinished)
            outcome = _import_all(
                sessions, inputs, batch_size, feed, replace=replace, keep_paths=keep_paths
            )
            advance(0, total=pool.dispatched, note="")
            pool.drain()
        heading = advance.meter.describe("finished")  # the bar's last figures
        heading += run_deep(pool, deep_leftovers(sessions, outcome.collection_ids()))
    stats = print_summary(sessions, outcome.collection_ids(), heading, advance.meter.count)
    raise SystemExit(exit_code(stats, outcome.unread, outcome.empty))


def run_deep(pool: LocalPool, more: list[BatchWork]) -> str:
    """The deep tier's phase of `run` (and `rerate`), with its own bar: the puzzles the bulk
    path left pending, and `more`; what the summary's heading adds ("" when there were none)."""
    total = len({work.batch_id for work in [*pool.deep, *more]})
    if not total:
        return ""
    with bar(console, "deep ratings", total, "puzzle") as rated:
        pool.run_deep(rated, more)
    return f"; {rated.meter.describe('rated again within the deep budget')}"


@click.command("import")
@FILES
@COLLECTION
@REPLACE
@BATCH_SIZE
@PATHS
@click.option(
    "--wait",
    is_flag=True,
    help="Show live progress until every batch is solved and no rating is pending (the deep "
    "tier's puzzles, rated again alone).",
)
@click.option(
    "--requeue",
    is_flag=True,
    help="Queue every unfinished batch again (after the broker lost its queue).",
)
def import_(
    files: tuple[str, ...],
    collection: str | None,
    replace: bool,
    batch_size: int,
    keep_paths: bool,
    wait: bool,
    requeue: bool,
) -> None:
    """Import FILES (`-`: standard input) and queue their batches for the Celery workers
    (`sudoku-batch worker`).

    Importing a file again changes nothing; it only queues batches an interrupted import had
    stored but not sent.
    """
    from worker.app import producer_app
    from worker.cli.waiting import wait_for, wait_for_deep
    from worker.consumers import QueueWatch
    from worker.messages import batch_sender, check_broker

    inputs = _named_inputs(files, collection)
    celery = producer_app()
    sessions = open_database()
    check_broker(celery)  # before anything is stored that could not be sent
    started = time.monotonic()
    sender = batch_sender(celery)
    feed = _Feed(
        lambda works: send_batches(sessions, works, sender),
        lambda job: leftover_batches(sessions, job, requeue=requeue),
        lambda job: bar(console, f"importing {Path(job.shown).name}", None, "puzzle"),
    )
    outcome = _import_all(
        sessions, inputs, batch_size, feed, replace=replace, keep_paths=keep_paths
    )
    ids = outcome.collection_ids()
    # pending ratings that no deep batch holds (the unsent batches went with the leftovers)
    send_batches(sessions, deep_leftovers(sessions, ids, unfinished=False), sender)
    heading = f"imported in {duration(time.monotonic() - started)}"
    if wait:
        watch = QueueWatch(celery, settings.queue())
        heading += f"; {wait_for(sessions, ids, watch).describe('finished')}"
        deep = QueueWatch(celery, settings.deep_queue())
        if (rated := wait_for_deep(sessions, ids, deep)) is not None:
            heading += f"; {rated.describe('rated again within the deep budget')}"
    stats = print_summary(sessions, ids, heading)
    raise SystemExit(exit_code(stats, outcome.unread, outcome.empty))


def _named_inputs(files: tuple[str, ...], collection: str | None) -> list[tuple[Input, str]]:
    """Each FILE with its collection's name, checked before anything is read."""
    if collection and len(files) > 1:
        raise click.UsageError("--collection names one file's collection: give a single FILE")
    inputs = [Input(given) for given in files]
    for source in inputs:
        source.check()
    if sum(source.is_stdin for source in inputs) > 1:
        raise click.UsageError("standard input can be read only once: give - once")
    named = []
    for source in inputs:
        name = collection or source.default_name
        if not name:
            raise click.UsageError(
                f"{source.given} is a pipe with no file name to name its collection after: "
                "give one with --collection NAME"
            )
        named.append((source, name))
    return named


def _no_bar(_job: Import) -> AbstractContextManager[Advance]:
    return nullcontext(lambda n=1, *, total=None, note=None: None)


@dataclass(frozen=True)
class _Feed:
    """Where an import's committed batches go: `send` takes them, the `leftovers` an earlier
    run stored but did not finish go first; `progress` shows one file's import."""

    send: Callable[[list[BatchWork]], None]
    leftovers: Callable[[Import], list[BatchWork]]
    progress: Callable[[Import], AbstractContextManager[Advance]] = _no_bar


@dataclass
class _Outcome:
    """What importing the inputs gave: the imports that stored something, and how many inputs
    could not be read to the end (`unread`) or held no puzzle line (`empty`)."""

    jobs: list[Import] = field(default_factory=list)
    unread: int = 0
    empty: int = 0

    def collection_ids(self) -> list[int]:
        return [job.collection_id for job in self.jobs]


def _import_all(
    sessions: sessionmaker[Session],
    inputs: list[tuple[Input, str]],
    batch_size: int,
    feed: _Feed,
    *,
    replace: bool,
    keep_paths: bool = False,
) -> _Outcome:
    """Import every input, each read once.

    Each chunk's batches go to the feed as soon as they are committed, after the batches an
    earlier, interrupted run left behind. An input that fails (a CSV without a puzzle column,
    a collection name clash) is reported and the other inputs go on; what it stored before the
    failure is kept. An input that stored nothing leaves no collection behind (its name stays
    free); an empty one is reported as such.
    """
    outcome = _Outcome()
    for source, name in inputs:
        if source.is_terminal():
            console.print("reading puzzles from standard input (end with Ctrl-D)")
        with readable(source) as ready:
            _import_one(sessions, ready, name, batch_size, feed, (replace, keep_paths), outcome)
    return outcome


def _import_one(
    sessions: sessionmaker[Session],
    source: Readable,
    name: str,
    batch_size: int,
    feed: _Feed,
    flags: tuple[bool, bool],
    outcome: _Outcome,
) -> None:
    """Import one input into collection `name` (`flags`: replace, keep paths), adding what
    happened to `outcome`."""
    replace, keep_paths = flags
    try:
        job = open_import(sessions, source, name, replace=replace, keep_paths=keep_paths)
    except CollectionConflict as exc:
        console.print(f"[red]error:[/] {source.input.shown}: {exc}", soft_wrap=True)
        outcome.unread += 1
        return
    if leftovers := feed.leftovers(job):
        feed.send(leftovers)
        again = counted(len(leftovers), "unfinished batch", "unfinished batches")
        console.print(f"{job.collection}: {again} sent again")
    failed = False
    try:
        with feed.progress(job) as advance:
            for works in import_chunks(sessions, job, batch_size):
                feed.send(works)
                advance(sum(len(work.puzzles) for work in works))
    except SourceError as exc:
        console.print(f"[red]error:[/] {exc}", soft_wrap=True)
        outcome.unread += 1
        failed = True
    if not drop_if_nothing_stored(sessions, job):
        outcome.jobs.append(job)
    elif not failed:
        console.print(
            f"[yellow]warning:[/] {source.input.shown}: no puzzle line in it (it is empty, or "
            "holds only blank lines and # comments): nothing imported",
            soft_wrap=True,
        )
        outcome.empty += 1
