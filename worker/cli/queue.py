"""`sudoku-batch queue`: the batches waiting in the queues of both tiers, who takes them, and
`--purge` (what Celery users do with `celery inspect` and `celery purge`).

A purged batch is not lost: it stays `pending` in the database, marked as never sent, so that
no worker's lost-batch check sends it again on its own; importing its file again (or `import
--requeue`) sends it, and `delete` drops its collection's work for good.
"""

from __future__ import annotations

from collections.abc import Sequence

import click
from celery import Celery

from worker import settings
from worker.cli.common import open_database
from worker.cli.db import at_a_terminal
from worker.cli.failure import fail
from worker.exits import EXIT_FAILED, EXIT_USAGE


def waiting(celery: Celery, names: Sequence[str]) -> dict[str, int]:
    """Messages waiting in each queue (0 for one the broker does not know)."""
    found = {}
    with celery.connection_for_read() as connection:
        channel = connection.default_channel
        for name in names:
            try:
                found[name] = channel.queue_declare(queue=name, passive=True).message_count
            except connection.channel_errors:  # never declared: nothing waits there
                found[name] = 0
                channel = connection.channel()
    return found


def purge_queues(celery: Celery, names: Sequence[str]) -> int:
    """Remove every waiting message of these queues; how many."""
    with celery.connection_for_write() as connection:
        return sum(connection.default_channel.queue_purge(name) or 0 for name in names)


@click.command("queue")
@click.option(
    "--purge",
    is_flag=True,
    help="Remove the waiting batches from both queues; they stay pending in the database, to "
    "be sent again by importing their file again (or `import --requeue`).",
)
@click.option("--yes", "-y", is_flag=True, help="Purge without asking.")
def queue(purge: bool, yes: bool) -> None:
    """Show how many batches wait in the bulk queue (SUDOKU_QUEUE) and the deep tier's, and
    which workers take them; --purge removes them."""
    from worker.app import producer_app
    from worker.consumers import consumers
    from worker.messages import check_broker

    celery = producer_app()
    check_broker(celery)
    names = (settings.queue(), settings.deep_queue())
    for name, count in waiting(celery, names).items():
        takers = ", ".join(consumers(celery, name)) or "no worker"
        click.echo(f"{name}: {count:,} batches waiting; taken by {takers}")
    if not purge:
        return
    if not yes:
        if not at_a_terminal():
            fail(
                "queue --purge removes queued batches: confirm at a terminal, or pass --yes",
                EXIT_USAGE,
            )
        if not click.confirm("Remove every batch waiting in these queues?", err=True):
            fail("not confirmed: nothing was changed", EXIT_FAILED)
    from db.imports import unqueue_pending

    sessions = open_database()
    removed = purge_queues(celery, names)
    with sessions() as session:
        unqueued = unqueue_pending(session)
        session.commit()
    click.echo(
        f"purged {removed:,} batches from the queues; {unqueued:,} pending batches are now "
        "marked as never sent: import their files again (or `import --requeue`) to send them"
    )
