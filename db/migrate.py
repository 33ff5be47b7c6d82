"""Alembic, driven from code: the same revisions the `alembic` command and the CLI run.

The Config is built here rather than read from `alembic.ini`, with `script_location`
pointing at the package `db.migrations` (the repository's `migrations/`, installed under
`db`), so this works from a checkout, an editable install and a wheel alike.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Engine

from db.engine import make_engine, reachable
from db.errors import MigrationError, StorageError
from db.models import made_on
from db.urls import mask_url
from db.views import VIEW_NAME

log = logging.getLogger(__name__)

MIGRATIONS = "db.migrations"


def compared_on(dialect: str) -> Callable[[object, str | None, str, bool, object], bool]:
    """Autogenerate's `include_object` on `dialect`: the models' objects made there
    (`db.models.made_on`), the view aside (made by hand in a revision)."""

    def include(obj: object, name: str | None, type_: str, reflected: bool, other: object) -> bool:
        if type_ == "table" and name == VIEW_NAME:
            return False
        return reflected or made_on(obj, dialect)

    return include


@cache
def script_location() -> str:
    """The directory of the revisions: found, not imported (its env.py runs only in Alembic).

    The package maps to the repository's `migrations/` in a checkout and an editable install,
    and to `db/migrations` in site-packages when installed from a wheel.
    """
    spec = find_spec(MIGRATIONS)
    if spec is None or not spec.submodule_search_locations:
        raise StorageError(f"the package {MIGRATIONS} is not installed: reinstall sudoku-batch")
    return str(Path(next(iter(spec.submodule_search_locations))).resolve())


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    """A Config for our revisions; `url` or `connection` override the settings' URL."""
    config = Config()
    config.set_main_option("script_location", script_location())
    config.set_main_option("path_separator", "os")
    if url is not None:
        config.attributes["url"] = url
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision id."""
    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    if len(heads) != 1:
        raise StorageError(f"expected one head revision, found {heads}")
    return heads[0]


def revision_of(connection: Connection) -> str | None:
    """The revision the database is at, None when it was never migrated."""
    return MigrationContext.configure(connection).get_current_revision()


@contextmanager
def _migrating(url: str) -> Iterator[None]:
    """One Alembic command on `url`: DatabaseUnavailable or MigrationError when it fails."""
    with reachable(url):
        try:
            yield
        except CommandError as exc:
            raise MigrationError(str(exc)) from exc


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at `url` up to `revision`."""
    log.info("upgrading %s to %s", mask_url(url), revision)
    with _migrating(url):
        command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database at `url` down to `revision` ("base" drops everything)."""
    log.info("downgrading %s to %s", mask_url(url), revision)
    with _migrating(url):
        command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """The revision the database at `url` is at, None when it was never migrated."""
    engine = make_engine(url)
    try:
        with reachable(url), engine.connect() as connection:
            return revision_of(connection)
    finally:
        engine.dispose()


def upgrade_engine(engine: Engine, revision: str = "head") -> None:
    """Migrate through an existing engine (one transaction, committed here)."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection=connection), revision)
