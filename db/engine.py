"""Engines and sessions, and the check that the schema is the one the code expects.

SQLite is the embedded default (WAL, so readers never block the writer, and a busy
timeout, so two writers wait instead of failing); PostgreSQL goes through psycopg 3.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from db.errors import DatabaseUnavailable, SchemaNotReady
from db.urls import in_memory, mask_url, normalize_url

log = logging.getLogger(__name__)

# Bytes a page of a new SQLite file (a file made before keeps its own): an index of the 81-
# character givens is a level shallower than with the default 4 KiB, its random inserts
# cheaper (docs: Benchmarks). Set before WAL mode, which fixes it.
SQLITE_PAGE_SIZE = 16_384
SQLITE_PRAGMAS = (
    f"PRAGMA page_size={SQLITE_PAGE_SIZE}",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=5000",
    "PRAGMA foreign_keys=ON",
    "PRAGMA cache_size=-65536",  # 64 MiB: random-order index inserts stay in memory
    "PRAGMA wal_autocheckpoint=10000",
)
UPGRADE_HINT = "run `sudoku-batch db upgrade` (SUDOKU_DATABASE_URL selects the database)"
# Seconds to wait for a PostgreSQL server to answer, unless the URL sets connect_timeout:
# a host that drops packets is reported as one, not waited on for minutes.
CONNECT_TIMEOUT = 5


def _drop_if_left_mid_command(context: ExceptionContext) -> None:
    """A call into PostgreSQL cut short by an exception raised from a signal handler (Celery's
    soft time limit, in a pool process) leaves the connection in the middle of its command:
    it can run nothing more, not even the rollback that would end its transaction, so the
    server keeps that transaction and its row locks for as long as the process lives, and
    every later batch of the collection waits on them. Such a connection counts as lost: its
    command is cancelled (as psycopg does on Ctrl-C), SQLAlchemy closes it (the server then
    rolls back) and the exception goes on unchanged."""
    import psycopg  # PostgreSQL only: SQLite never imports psycopg

    connection = context.connection
    if connection is None or connection.invalidated:
        return
    raw = connection.connection.dbapi_connection
    if isinstance(raw, psycopg.Connection) and (
        raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.ACTIVE
    ):
        with suppress(psycopg.Error, OSError):  # not cancelled: it ends with its command
            raw.cancel_safe(timeout=CONNECT_TIMEOUT)
        context.is_disconnect = True
        context.invalidate_pool_on_disconnect = False  # the pool's other connections are fine


def _set_sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for `url`; extra keyword arguments go to `create_engine`."""
    normalized = normalize_url(url)
    if make_url(normalized).get_backend_name() == "postgresql":
        kwargs["connect_args"] = {
            "connect_timeout": CONNECT_TIMEOUT,
            **kwargs.get("connect_args", {}),
        }
    engine = create_engine(normalized, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _set_sqlite_pragmas)
    else:
        event.listen(engine, "handle_error", _drop_if_left_mid_command)
    log.info("database: %s", mask_url(url))
    return engine


@contextmanager
def reachable(url: str) -> Iterator[None]:
    """Turn the database at `url` failing to answer (or, for SQLite, to open) into
    `DatabaseUnavailable`, whose message names the URL (password masked) and why."""
    try:
        yield
    except OperationalError as exc:
        raise unavailable(url, exc) from exc
    except DatabaseError as exc:  # SQLite: "file is not a database" (other kinds are bugs)
        if make_url(url).get_backend_name() != "sqlite":
            raise
        raise unavailable(url, exc) from exc


def unavailable(url: str, exc: DatabaseError) -> DatabaseUnavailable:
    """Why the database at `url` cannot be used, in words a user can act on."""
    parsed = make_url(url)
    reason = " ".join(str(exc.orig).split())  # the driver's words, on one line
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return DatabaseUnavailable(
            f"cannot open {mask_url(url)}: {_sqlite_problem(Path(parsed.database), reason)}"
        )
    if parsed.database and f'database "{parsed.database}" does not exist' in reason:
        reason += (
            f'; create it (CREATE DATABASE "{parsed.database}"), then run `sudoku-batch db upgrade`'
        )
    return DatabaseUnavailable(f"cannot reach {mask_url(url)}: {reason}")


def _sqlite_problem(path: Path, reason: str) -> str:
    """What is wrong with the SQLite file at `path`, the driver saying `reason`."""
    folder = path.parent
    if path.is_dir():
        return f"{path} is a folder, not a database file"
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if "file is not a database" in reason:
        return f"{path} is not a SQLite database"
    if not path.exists() and not os.access(folder, os.W_OK):
        return f"cannot create a file in {folder} (permission denied)"
    return reason


def shown_url(engine: Engine) -> str:
    """The engine's URL as a user writes it: `postgresql://`, not the driver we chose."""
    return engine.url.set(drivername=engine.url.get_backend_name()).render_as_string(
        hide_password=False
    )


class FirstErrorSession(Session):
    """A session whose `with` block, left by an exception that is not the database's, raises
    that exception even when closing fails as well: the rollback of a connection an
    interrupted call left unusable fails, and its error would otherwise hide the time limit
    (or the bug) that stopped the work; the closing error is logged. A driver's own error (a
    statement below the ORM) still gives way to the closing error, SQLAlchemy's account of
    the same failure, which callers catch (a database outage is retried)."""

    def __exit__(self, type_: Any, value: Any, traceback: Any) -> None:
        if value is None:
            self.close()
            return
        try:
            self.close()
        except Exception:
            if isinstance(value, self.get_bind().dialect.loaded_dbapi.Error):
                raise
            log.warning("closing the session after %r failed too", value, exc_info=True)


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions bound to `engine`; objects stay readable after commit."""
    return sessionmaker(engine, class_=FirstErrorSession, expire_on_commit=False)


def shared_url(sessions: sessionmaker[Session]) -> str | None:
    """The URL another process opens the sessions' database with; None for SQLite in memory,
    which only this process can open."""
    url = sessions.kw["bind"].url
    if url.get_backend_name() == "sqlite" and in_memory(url.database):
        return None
    rendered: str = url.render_as_string(hide_password=False)
    return rendered


def sessions_at(url: str) -> sessionmaker[Session]:
    """Sessions on this process's own engine for `url` (made on first use): a process that
    writes beside the one that started it (the import's reader, `run`'s pool)."""
    return _sessions_of(url, os.getpid())


@cache
def _sessions_of(url: str, _pid: int) -> sessionmaker[Session]:
    return session_factory(make_engine(url))  # per process: an engine is never shared by a fork


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

    url = shown_url(engine)
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
        f"the database {where} is {state}; this code needs {head}: {UPGRADE_HINT}."
    )
