"""`sudoku-batch db ...`: create and migrate the database schema (Alembic revisions)."""

from __future__ import annotations

from collections.abc import Callable

import click

from db import migrate
from db.engine import UPGRADE_HINT
from db.urls import mask_url
from worker.settings import database_url


@click.group()
def db() -> None:
    """Create and migrate the database schema (SUDOKU_DATABASE_URL selects the database)."""


@db.command()
@click.argument("revision", default="head")
def upgrade(revision: str) -> None:
    """Migrate the database up to REVISION (default: the newest, head)."""
    _migrate(migrate.upgrade, revision)


@db.command()
@click.argument("revision")
def downgrade(revision: str) -> None:
    """Migrate the database down to REVISION ("base" drops every table)."""
    _migrate(migrate.downgrade, revision)


def _migrate(step: Callable[[str, str], None], revision: str) -> None:
    """Run one migration step on the configured database and say where it now stands."""
    url = database_url()
    step(url, revision)
    click.echo(f"{mask_url(url)}: at revision {migrate.current(url) or 'base'}")


@db.command()
def current() -> None:
    """Print the revision the database is at, and the newest one."""
    url = database_url()
    found = migrate.current(url)
    head = migrate.head()
    state = "up to date" if found == head else UPGRADE_HINT
    click.echo(f"{mask_url(url)}: at revision {found or 'none'}, head is {head} ({state})")
