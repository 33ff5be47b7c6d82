"""What every command shares: the settings, the database, the console."""

from __future__ import annotations

import logging
import sys

import click
from rich.console import Console
from sqlalchemy.orm import Session, sessionmaker

from db.engine import ensure_schema, make_engine, session_factory
from db.urls import mask_url
from worker import settings

log = logging.getLogger("sudoku_batch")

console = Console(stderr=True)
# Tables stay readable when piped or captured (rich would assume 80 columns).
out = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 120)


def open_database(url: str | None = None) -> sessionmaker[Session]:
    """Sessions on the database (default: SUDOKU_DATABASE_URL), its schema checked (an empty
    SQLite is migrated).

    Raises `DatabaseUnavailable` or `SchemaNotReady`; the command line reports either in
    one line (`worker.cli.exits`).
    """
    url = url or settings.database_url()
    log.info("database %s", mask_url(url))
    engine = make_engine(url)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(engine.dispose)
    ensure_schema(engine)
    return session_factory(engine)
