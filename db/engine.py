"""Engines and sessions, and the check that the schema is the one the code expects.

SQLite is the embedded default (WAL, so readers never block the writer, and a busy
timeout, so two writers wait instead of failing); PostgreSQL goes through psycopg 3.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from db.errors import DatabaseUnavailable, SchemaNotReady
from db.urls import mask_url, normalize_url

log = logging.getLogger(__name__)

SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA foreign_keys=ON",
    "PRAGMA cache_size=-65536",  # 64 MiB: random-order index inserts stay in memory
    "PRAGMA wal_autocheckpoint=10000",
)
UPGRADE_HINT = "run `sudoku-batch db upgrade` (SUDOKU_DATABASE_URL selects the database)"


def _set_sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for `url`; extra keyword arguments go to `create_engine`."""
    engine = create_engine(normalize_url(url), **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _set_sqlite_pragmas)
    log.info("database: %s", mask_url(url))
    return engine


@contextmanager
def reachable(url: str) -> Iterator[None]:
    """Turn the database at `url` failing to answer into `DatabaseUnavailable` (URL masked)."""
    try:
        yield
    except OperationalError as exc:
        raise DatabaseUnavailable(f"cannot reach {mask_url(url)}: {exc.orig}") from exc


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to `engine`; objects stay readable after commit."""
    return sessionmaker(engine, expire_on_commit=False)


def is_embedded(engine: Engine) -> bool:
    """True for SQLite, the database that lives in a file next to the user."""
    return engine.dialect.name == "sqlite"


def ensure_schema(engine: Engine) -> None:
    """Return when the schema is at head; create it in an empty SQLite database; else raise.

    Raises `SchemaNotReady` (telling the user to run `sudoku-batch db upgrade`) for a
    non-empty database at another revision and for any PostgreSQL database not at head:
    a shared server is migrated on purpose, never as a side effect. Raises
    `DatabaseUnavailable` when the database does not answer.
    """
    from db import migrate  # migrate imports this module

    url = engine.url.render_as_string(hide_password=False)
    where = mask_url(url)
    with reachable(url), engine.connect() as connection:
        found = migrate.revision_of(connection)
        empty = not inspect(connection).get_table_names()
    head = migrate.head()
    if found == head:
        return
    if empty and is_embedded(engine):
        log.info("creating the schema in the empty database %s", where)
        migrate.upgrade_engine(engine)
        return
    state = f"at revision {found}" if found else "not migrated (no alembic_version)"
    raise SchemaNotReady(
        f"The database {where} is {state}; this code needs {head}: {UPGRADE_HINT}."
    )
