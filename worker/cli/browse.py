"""``sudoku-batch browse``: the results in a web browser (Datasette, the extra `browse`)."""

from __future__ import annotations

from pathlib import Path

import click
from sqlalchemy.engine import make_url

from db.engine import ensure_schema, make_engine
from db.errors import DatabaseUnavailable
from db.urls import in_memory, mask_url
from solver.errors import SudokuBatchError
from worker import settings
from worker.cli.browser import browser, listen, serve
from worker.errors import SettingsError


def sqlite_file(url: str) -> Path:
    """The SQLite file of `url`, made absolute, its schema checked; SettingsError for a
    PostgreSQL URL or an in-memory database, DatabaseUnavailable for a missing file."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise SettingsError(
            f"SUDOKU_DATABASE_URL={mask_url(url)!r}: browse serves SQLite files only "
            "(Datasette browses SQLite); read a PostgreSQL database with a SQL client such as "
            "psql, or export a collection (sudoku-batch export)"
        )
    if in_memory(parsed.database):
        raise SettingsError(f"SUDOKU_DATABASE_URL={url!r}: browse needs a database file")
    path = Path(parsed.database or "").resolve()
    if not path.is_file():
        raise DatabaseUnavailable(
            f"no database at {path}: `sudoku-batch run FILE` makes one "
            "(SUDOKU_DATABASE_URL selects the database)"
        )
    engine = make_engine(url)
    try:
        ensure_schema(engine)  # a database of an older release is named, not browsed half-shown
    finally:
        engine.dispose()
    return path


@click.command("browse")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8001,
    show_default=True,
    help="Port to listen on (0: any free one; the URL printed says which).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0: every interface, other machines included).",
)
@click.option(
    "--open/--no-open", "open_", default=False, show_default=True, help="Open it in a web browser."
)
def browse(port: int, host: str, open_: bool) -> None:
    """Browse the results of the SQLite database (SUDOKU_DATABASE_URL) in a web browser, with
    Datasette: every table and the puzzle_results view, described from the schema's comments,
    faceted by difficulty, status, technique, profile and rating state, with the documented
    queries, and each puzzle and solution drawn as a grid. The file is opened read-only: a
    `run` can go on meanwhile. Needs the extra `browse`."""
    path = sqlite_file(settings.database_url())
    ds = browser(path)
    try:
        sock = listen(host, port)
    except OSError as exc:
        raise SudokuBatchError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port"
        ) from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}{ds.urls.database(path.stem)}"
    click.echo(f"browsing {path} at {url} (read-only; Ctrl-C stops)", err=True)
    with sock:
        serve(ds, sock, url, open_)
