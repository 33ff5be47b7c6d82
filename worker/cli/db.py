"""`sudoku-batch db ...`: create and migrate the database schema (Alembic revisions)."""

from __future__ import annotations

from collections.abc import Callable

import click
from sqlalchemy.exc import OperationalError

from db import migrate
from db.urls import mask_url
from worker.settings import get_settings


def _url() -> str:
    return get_settings().database_url


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
    url = _url()
    try:
        step(url, revision)
    except OperationalError as exc:
        raise click.ClickException(f"cannot reach {mask_url(url)}: {exc.orig}") from exc
    click.echo(f"{mask_url(url)}: at revision {migrate.current(url) or 'base'}")


@db.command()
def current() -> None:
    """Print the revision the database is at, and the newest one."""
    url = _url()
    try:
        found = migrate.current(url)
    except OperationalError as exc:
        raise click.ClickException(f"cannot reach {mask_url(url)}: {exc.orig}") from exc
    head = migrate.head()
    state = "up to date" if found == head else "run `sudoku-batch db upgrade`"
    click.echo(f"{mask_url(url)}: at revision {found or 'none'}, head is {head} ({state})")
