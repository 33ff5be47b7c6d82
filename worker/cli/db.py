"""`sudoku-batch db ...`: create and migrate the database schema (Alembic revisions), and
reclaim the space of puzzles no collection holds any more (`prune`)."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from db.urls import mask_url
from worker.cli.failure import fail
from worker.exits import EXIT_FAILED, EXIT_USAGE
from worker.settings import database_url

# Alembic, and SQLAlchemy under it, are imported when a db command runs, not on --help.


@click.group()
def db() -> None:
    """Create and migrate the database schema, reclaim space (SUDOKU_DATABASE_URL selects the
    database)."""


@db.command()
@click.argument("revision", default="head")
def upgrade(revision: str) -> None:
    from db import migrate

    _migrate(migrate.upgrade, revision)


@db.command()
@click.argument("revision")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation (for scripts).")
def downgrade(revision: str, yes: bool) -> None:
    """Migrate the database down to REVISION ("base" drops every table and its data).

    Asks for confirmation first; off a terminal (a script, a pipe) it refuses unless --yes.
    """
    from db import migrate

    url = database_url()
    if not yes:
        if not at_a_terminal():
            fail(
                "db downgrade drops tables and the data in them: confirm at a terminal,"
                " or pass --yes",
                EXIT_USAGE,
            )
        found = migrate.current(url) or "base"
        question = (
            f"Downgrade {mask_url(url)} from {found} to {revision}? This drops the tables"
            " of every revision undone, with their data"
        )
        if not click.confirm(question, default=False, err=True):
            fail("not confirmed: nothing was changed", EXIT_FAILED)
    _migrate(migrate.downgrade, revision)


def at_a_terminal() -> bool:
    """True when a person can answer a question: standard input is a terminal."""
    return sys.stdin.isatty()


def _migrate(step: Callable[[str, str], None], revision: str) -> None:
    """Run one migration step on the configured database and say where it now stands."""
    from db import migrate

    url = database_url()
    step(url, revision)
    click.echo(f"{mask_url(url)}: at revision {migrate.current(url) or 'base'}")


@db.command()
def current() -> None:
    """Print the revision the database is at, and the newest one."""
    from db import migrate
    from db.engine import UPGRADE_HINT

    url = database_url()
    found = migrate.current(url)
    head = migrate.head()
    state = "up to date" if found == head else UPGRADE_HINT
    click.echo(f"{mask_url(url)}: at revision {found or 'none'}, head is {head} ({state})")


@db.command()
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation (for scripts).")
def prune(yes: bool) -> None:
    """Remove the puzzles no collection holds any more (after `delete`), with their results
    and solving paths. Importing one of them again then solves it again.

    Asks for confirmation first; off a terminal it refuses unless --yes.
    """
    from db.removal import prune_orphans
    from worker.cli.common import open_database

    if not yes:
        if not at_a_terminal():
            fail("db prune deletes results: confirm at a terminal, or pass --yes", EXIT_USAGE)
        if not click.confirm("Remove the puzzles no collection holds?", default=False, err=True):
            fail("not confirmed: nothing was changed", EXIT_FAILED)
    sessions = open_database()
    with sessions() as session:
        pruned = prune_orphans(session)
        session.commit()
    click.echo(
        f"removed {pruned.puzzles:,} puzzles no collection holds, with {pruned.results:,} "
        f"results and {pruned.paths:,} solving paths"
    )
