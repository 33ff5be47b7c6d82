"""Alembic, driven from code: the same revisions the `alembic` command and the CLI run.

The Config is built here rather than read from `alembic.ini`, with `script_location`
pointing at the installed `migrations` package, so this works after `pip install .`.
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

import migrations
from db.engine import make_engine
from settings import mask_url

log = logging.getLogger(__name__)

# __path__, not __file__: it also works when an old editable install maps the package as a
# namespace package.
SCRIPT_LOCATION = str(Path(next(iter(migrations.__path__))).resolve())


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    """A Config for our revisions; `url` or `connection` override the settings' URL."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
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
        raise RuntimeError(f"expected one head revision, found {heads}")
    return heads[0]


def revision_of(connection: Connection) -> str | None:
    """The revision the database is at, None when it was never migrated."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at `url` up to `revision`."""
    log.info("upgrading %s to %s", mask_url(url), revision)
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    """Migrate the database at `url` down to `revision` ("base" drops everything)."""
    log.info("downgrading %s to %s", mask_url(url), revision)
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """The revision the database at `url` is at, None when it was never migrated."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return revision_of(connection)
    finally:
        engine.dispose()


def upgrade_engine(engine: Engine, revision: str = "head") -> None:
    """Migrate through an existing engine (one transaction, committed here)."""
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection=connection), revision)
