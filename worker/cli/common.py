"""What every command shares: the settings, the database, the console."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from sqlalchemy.orm import Session, sessionmaker

from db.engine import ensure_schema, make_engine, session_factory
from db.urls import mask_url
from worker import settings
from worker.cli.tables import UNLIMITED
from worker.errors import OutputError

log = logging.getLogger("sudoku_batch")

console = Console(stderr=True)


def show(*objects: Any) -> None:
    """Print to standard output as wide as the terminal (or `COLUMNS`, when set): a table
    cell that does not fit wraps onto more lines, it is never cut. Piped or captured without
    `COLUMNS`, a table keeps its natural width (rich alone would assume 80 columns)."""
    stdout = Console(soft_wrap=True)
    if not stdout.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        stdout = Console(soft_wrap=True, width=UNLIMITED)
    stdout.print(*objects)


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
    one line (`worker.cli.failure`).
    """
    url = url or settings.database_url()
    log.info("database %s", mask_url(url))
    engine = make_engine(url)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(engine.dispose)
    ensure_schema(engine)
    return session_factory(engine)
