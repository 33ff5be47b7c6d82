"""`sudoku-batch delete COLLECTION`: remove a collection, after asking."""

from __future__ import annotations

import click

from db.removal import delete_collection, find_collection
from worker.cli.common import open_database
from worker.cli.failure import fail


@click.command("delete")
@click.argument("collection")
@click.option("--yes", "-y", is_flag=True, help="Delete without asking.")
def delete(collection: str, yes: bool) -> None:
    """Delete COLLECTION: its lines, rejected lines and batches.

    Puzzles and their results stay: other collections may hold them, and a file holding them
    imported later finds them solved. The name is free for another file at once.
    """
    sessions = open_database()
    with sessions() as session:
        found = find_collection(session, collection)  # UnknownCollection: exit 1
    what = (
        f"collection {found.name!r} ({found.lines_read:,} lines from {found.source_file}, "
        f"{found.done:,} of {found.total:,} distinct puzzles solved)"
    )
    if not yes and not click.confirm(f"Delete {what}?", err=True):
        fail(f"{what} not deleted")
    with sessions() as session:
        removed = delete_collection(session, collection)
        session.commit()
    click.echo(
        f"deleted collection {collection!r} (lines: {removed.lines:,}, rejected lines: "
        f"{removed.rejected:,}, batches: {removed.batches:,}); its puzzles and their results "
        "are kept"
    )
