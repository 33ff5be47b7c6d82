"""`sudoku-batch rerate`: rate stored puzzles again with today's settings and solver.

How a user moves to another rating profile, a new solver release, or a larger deep budget: the
results `--because` picks are rated again, in `rerate` batches (db.ratings), here in the local
pool as `run` does (two phases: the bulk path, then the deep tier for what it leaves pending),
or, with `--queue`, by the Celery workers. A puzzle has one result: re-rating replaces it
(docs/rating/exact.md says why). Interrupted, run it again: it finishes the batches it made
and picks only the results still not re-rated.
"""

from __future__ import annotations

import os

import click
from sqlalchemy.orm import Session, sessionmaker

import solver
from db.imports import BatchWork, unfinished_batches
from db.models import Collection
from db.ratings import RERATE_REASONS, queue_rerate, stale
from db.tiers import RERATE, RatingPlan
from worker import settings
from worker.bulk.producer import deep_leftovers, send_batches
from worker.bulk.runner import local_pool
from worker.cli.common import console, open_database
from worker.cli.pipeline import BATCH_SIZE, run_deep
from worker.cli.progress import bar, counted
from worker.cli.summary import exit_code, print_summary
from worker.errors import SettingsError


@click.command("rerate")
@click.argument("collections", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Every collection.")
@click.option(
    "--because",
    "reasons",
    type=click.Choice(RERATE_REASONS),
    multiple=True,
    help="Which results: made with other settings (another SUDOKU_RATING_PROFILE, or "
    "SUDOKU_RATING other than now), by another solver version, or estimated (say after "
    "raising SUDOKU_DEEP_WORK_BUDGET). Repeat it for several; default: all three.",
)
@BATCH_SIZE
@click.option("--queue", "to_queue", is_flag=True, help="Queue them for the Celery workers.")
@click.option("--wait", is_flag=True, help="With --queue: show progress until they are rated.")
@click.option(
    "--workers", type=click.IntRange(0), default=0, help="Pool processes (0: one per core)."
)
def rerate(
    collections: tuple[str, ...],
    every: bool,
    reasons: tuple[str, ...],
    batch_size: int,
    to_queue: bool,
    wait: bool,
    workers: int,
) -> None:
    """Rate the puzzles of COLLECTIONS (or --all) again with today's settings, replacing the
    results --because picks; here in a local pool, or with --queue by the workers.

    Interrupted, run it again: it finishes what it started and redoes nothing.
    """
    if bool(collections) == every:
        raise click.UsageError("name the collections to rate again, or give --all")
    if wait and not to_queue:
        raise click.UsageError("--wait goes with --queue (without it, rerate waits anyway)")
    settings.use_solver_backend()
    plan = settings.rating_plan()
    sessions = open_database()
    ids = _collection_ids(sessions, collections)
    works = _batches(sessions, ids, plan, reasons or RERATE_REASONS, batch_size, queued=to_queue)
    picked = counted(sum(len(work.puzzles) for work in works), "puzzle")
    if to_queue:
        heading = f"{picked} queued to rate again{_queued(sessions, ids, works, wait)}"
    else:
        heading = _local(sessions, works, ids, workers or os.cpu_count() or 1, plan)
    stats = print_summary(sessions, ids, heading)
    raise SystemExit(exit_code(stats, 0))


def _collection_ids(sessions: sessionmaker[Session], names: tuple[str, ...]) -> list[int]:
    """The ids of the named collections (every one, when none is named); SettingsError naming
    one that does not exist."""
    from sqlalchemy import select

    with sessions() as session:
        found = dict(session.execute(select(Collection.name, Collection.id)).all())
    unknown = [name for name in names if name not in found]
    if unknown:
        raise SettingsError(f"no collection named {unknown[0]!r}: see `sudoku-batch status`")
    return [found[name] for name in names] if names else sorted(found.values())


def _batches(
    sessions: sessionmaker[Session],
    ids: list[int],
    plan: RatingPlan,
    reasons: tuple[str, ...],
    batch_size: int,
    *,
    queued: bool,
) -> list[BatchWork]:
    """The rerate batches to run: those an interrupted rerate left, then new ones for the
    results picked that no pending rerate batch holds."""
    picked = stale(plan.profile, plan.exact, solver.SOLVER_VERSION, reasons)
    works: list[BatchWork] = []
    with sessions() as session:
        for collection_id in ids:
            works += unfinished_batches(session, collection_id, kinds=(RERATE,))
            works += queue_rerate(session, collection_id, picked, batch_size, queued=queued)
        session.commit()
    return works


def _local(
    sessions: sessionmaker[Session],
    works: list[BatchWork],
    ids: list[int],
    cores: int,
    plan: RatingPlan,
) -> str:
    """Run the batches in a local pool, then the deep tier; the heading's words."""
    with local_pool(sessions, cores, settings.node_budget(), plan=plan) as pool:
        heading = "nothing to rate again (--because picks which results)"
        if works:
            total = sum(len(work.puzzles) for work in works)
            with bar(console, "rating again", total, "puzzle") as advance:
                pool.on_solved = advance
                pool.dispatch_all(works)
                pool.drain()
            heading = advance.meter.describe("rated again")
        return heading + run_deep(pool, deep_leftovers(sessions, ids))


def _queued(
    sessions: sessionmaker[Session], ids: list[int], works: list[BatchWork], wait: bool
) -> str:
    """Send the batches to the workers (and wait for them); the heading's words."""
    from worker.app import producer_app
    from worker.cli.waiting import wait_for_deep, wait_for_rerate
    from worker.consumers import QueueWatch
    from worker.messages import batch_sender, check_broker

    celery = producer_app()
    check_broker(celery)
    send_batches(sessions, works, batch_sender(celery))
    send_batches(sessions, deep_leftovers(sessions, ids, unfinished=False), batch_sender(celery))
    if not wait:
        return ""
    heading = ""
    if (meter := wait_for_rerate(sessions, ids, QueueWatch(celery, settings.queue()))) is not None:
        heading += f"; {meter.describe('rated again')}"
    deep = wait_for_deep(sessions, ids, QueueWatch(celery, settings.deep_queue()))
    if deep is not None:
        heading += f"; {deep.describe('rated again within the deep budget')}"
    return heading
