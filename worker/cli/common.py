"""What every command shares: the settings, the database, the console."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import click
from rich.console import Console
from sqlalchemy.orm import Session, sessionmaker

from db.engine import ensure_schema, make_engine, session_factory
from db.urls import mask_url
from worker import settings
from worker.errors import OutputError

log = logging.getLogger("sudoku_batch")

console = Console(stderr=True)
# Tables stay readable when piped or captured (rich would assume 80 columns).
out = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 120)


def check_writable(path: Path) -> None:
    """Raise `OutputError` unless a file can be written at `path`: checked before the work
    that fills it, so a typo in a folder name costs nothing."""
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(path, f"the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise OutputError(path, f"the folder {folder} is not writable")


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
