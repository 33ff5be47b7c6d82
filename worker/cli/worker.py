"""`sudoku-batch worker`: a Celery worker on the app, with every `celery worker` option.

Its help shows Celery's own option list (read from Celery's `worker` command), after what
this project adds: the start-up check and the settings a worker reads.
"""

from __future__ import annotations

import click

from db.tiers import BULK, DEEP

TIERS = (BULK, DEEP)  # the queues a worker may keep to


class CeleryWorkerCommand(click.Command):
    """A command whose arguments all go to `celery worker`, and whose help lists them."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[CELERY WORKER OPTIONS]")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)  # --help
        from celery.bin.worker import worker as celery_worker

        with formatter.section("Celery worker options, passed through"):
            # No help option of its own: ours is the one listed above.
            celery_ctx = click.Context(celery_worker, info_name="worker", help_option_names=[])
            celery_worker.format_options(celery_ctx, formatter)


@click.command(
    "worker",
    cls=CeleryWorkerCommand,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.option(
    "--tier",
    type=click.Choice(TIERS),
    help="Take only one tier's batches: bulk (SUDOKU_QUEUE) or deep (the puzzles the bulk path "
    "left pending, on SUDOKU_QUEUE.deep). Default: both.",
)
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
def worker(tier: str | None, celery_args: tuple[str, ...]) -> None:
    """Start a Celery worker that solves the queued batches (`celery -A worker worker` is the
    same worker): the bulk path's and the deep tier's, unless --tier says one.

    Before it takes a batch, the worker checks that its database answers and is migrated,
    and that its broker answers; if not, it refuses to start with one line saying why
    (exit 1), for its supervisor to start it again later. Settings: SUDOKU_DATABASE_URL,
    SUDOKU_BROKER_URL, SUDOKU_QUEUE and the worker's own (docs/guide/settings.md).
    """
    from worker import settings
    from worker.app import app

    queues = []
    if tier is not None:
        queue = settings.queue()
        queues = ["-Q", queue if tier == BULK else settings.deep_queue(queue)]
    # INFO unless told otherwise: Celery's `ready.` line, and a line per task received and done.
    level = [] if any(_is_loglevel(arg) for arg in celery_args) else ["--loglevel=INFO"]
    warn_once_if_root()
    app.worker_main(["worker", *queues, *level, *celery_args])


def _is_loglevel(arg: str) -> bool:
    return arg in ("-l", "--loglevel") or arg.startswith(("-l", "--loglevel="))


def warn_once_if_root() -> None:
    """One line, not Celery's ten, when the worker runs as root (Celery's SecurityWarning)."""
    import logging
    import os
    import warnings

    from celery.exceptions import SecurityWarning

    warnings.filterwarnings("ignore", category=SecurityWarning)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        logging.getLogger("worker").warning(
            "the worker runs as root: Celery advises another user (--uid, or USER in a "
            "container image)"
        )
