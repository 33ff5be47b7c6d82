"""`run` (embedded, no servers) and `import` (to the Celery queue)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import click
from sqlalchemy.orm import Session, sessionmaker

from db.imports import BatchWork, CollectionConflict
from worker import settings
from worker.cli.common import console, open_database
from worker.cli.summary import exit_code, print_summary
from worker.errors import SourceError
from worker.producer import (
    Import,
    import_chunks,
    leftover_batches,
    open_import,
    send_batches,
)
from worker.progress import Advance, bar
from worker.runner import local_pool

FILES = click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
COLLECTION = click.option(
    "--collection", help="Collection name (default: the file name without its suffixes)."
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
@BATCH_SIZE
@click.option(
    "--workers", type=click.IntRange(0), default=0, help="Pool processes (0: one per core)."
)
def run(files: tuple[Path, ...], collection: str | None, batch_size: int, workers: int) -> None:
    """Import FILES and solve them here, in a local process pool (no servers needed).

    Interrupted or killed, run the same command again: it finishes the remaining work and
    redoes nothing.
    """
    _one_collection_per_file(files, collection)
    settings.use_solver_backend()
    node_budget = settings.node_budget()
    sessions = open_database()
    started = time.monotonic()
    cores = workers or os.cpu_count() or 1
    with (
        bar(console, "solving", None, "puzzles") as advance,
        local_pool(
            sessions,
            cores,
            node_budget,
            on_solved=advance,
            on_dispatched=lambda total: advance(0, total=total),
        ) as pool,
    ):
        # every unfinished batch: `run` leaves none waiting in a queue
        unfinished = partial(leftover_batches, sessions, requeue=True)
        feed = _Feed(pool.dispatch_all, unfinished)
        jobs, unread = _import_all(sessions, files, collection, batch_size, feed)
    elapsed = time.monotonic() - started
    stats = print_summary(sessions, [job.collection_id for job in jobs], elapsed, pool.dispatched)
    raise SystemExit(exit_code(stats, unread))


@click.command("import")
@FILES
@COLLECTION
@BATCH_SIZE
@click.option("--wait", is_flag=True, help="Show live progress until every batch is solved.")
@click.option(
    "--requeue",
    is_flag=True,
    help="Queue every unfinished batch again (after the broker lost its queue).",
)
def import_(
    files: tuple[Path, ...], collection: str | None, batch_size: int, wait: bool, requeue: bool
) -> None:
    """Import FILES and queue their batches for the Celery workers (`sudoku-batch worker`).

    Importing a file again changes nothing; it only queues batches an interrupted import had
    stored but not sent.
    """
    from worker.app import producer_app
    from worker.cli.waiting import wait_for
    from worker.consumers import QueueWatch
    from worker.messages import batch_sender, check_broker

    _one_collection_per_file(files, collection)
    celery = producer_app()
    sessions = open_database()
    check_broker(celery)  # before anything is stored that could not be sent
    started = time.monotonic()
    sender = batch_sender(celery)
    feed = _Feed(
        lambda works: send_batches(sessions, works, sender),
        lambda job: leftover_batches(sessions, job, requeue=requeue),
        lambda path: bar(console, f"importing {path.name}", None, "puzzles"),
    )
    jobs, unread = _import_all(sessions, files, collection, batch_size, feed)
    if wait:
        watch = QueueWatch(celery, settings.queue())
        wait_for(sessions, [job.collection_id for job in jobs], watch)
    stats = print_summary(sessions, [job.collection_id for job in jobs], time.monotonic() - started)
    raise SystemExit(exit_code(stats, unread))


def _one_collection_per_file(files: tuple[Path, ...], collection: str | None) -> None:
    if collection and len(files) > 1:
        raise click.UsageError("--collection names one file's collection: give a single FILE")


def _no_bar(_path: Path) -> AbstractContextManager[Advance]:
    return nullcontext(lambda n=1, *, total=None, note=None: None)


@dataclass(frozen=True)
class _Feed:
    """Where an import's committed batches go: `send` takes them, the `leftovers` an earlier
    run stored but did not finish go first; `progress` shows one file's import."""

    send: Callable[[list[BatchWork]], None]
    leftovers: Callable[[Import], list[BatchWork]]
    progress: Callable[[Path], AbstractContextManager[Advance]] = _no_bar


def _import_all(
    sessions: sessionmaker[Session],
    files: tuple[Path, ...],
    collection: str | None,
    batch_size: int,
    feed: _Feed,
) -> tuple[list[Import], int]:
    """Import every file; returns the imports and how many files could not be read to the end.

    Each chunk's batches go to the feed as soon as they are committed, after the batches an
    earlier, interrupted run left behind. A file that fails (a CSV without a puzzle column, a
    collection name clash) is reported and the other files go on; what it stored before the
    failure is kept.
    """
    jobs, unread = [], 0
    for path in files:
        try:
            job = open_import(sessions, path, collection)
        except CollectionConflict as exc:
            console.print(f"[red]error:[/] {path}: {exc}")
            unread += 1
            continue
        jobs.append(job)
        if leftovers := feed.leftovers(job):
            feed.send(leftovers)
            console.print(f"{job.collection}: {len(leftovers)} unfinished batches sent again")
        try:
            with feed.progress(path) as advance:
                for works in import_chunks(sessions, job, batch_size):
                    feed.send(works)
                    advance(sum(len(work.puzzles) for work in works))
        except SourceError as exc:
            console.print(f"[red]error:[/] {exc}")
            unread += 1
    return jobs, unread
