"""Alembic environment: the URL our code passed in, else (`alembic` run by hand) the settings'.

Installed as `db.migrations`; `db.migrate` drives it with a URL or a connection, so the
storage layer never needs the worker's settings. Only the `alembic` command reads them.
"""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import Connection, make_url
from sqlalchemy.pool import NullPool

from db.engine import make_engine
from db.migrate import compared_on
from db.models import Base
from db.urls import mask_url, normalize_url

config = context.config
log = logging.getLogger("alembic.env")

if config.config_file_name is not None and not config.attributes:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def database_url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    if not url:  # the `alembic` command, run by hand from the repository root
        from worker.settings import database_url

        url = database_url()
    return normalize_url(url)


def configure(dialect: str, **kwargs: Any) -> None:
    context.configure(
        target_metadata=Base.metadata,
        compare_type=True,
        include_object=compared_on(dialect),
        **kwargs,
    )


def run_offline() -> None:
    url = database_url()
    dialect = make_url(url).get_backend_name()
    configure(dialect, url=url, literal_binds=True, render_as_batch=dialect == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_on(connection: Connection) -> None:
    dialect = connection.dialect.name
    configure(dialect, connection=connection, render_as_batch=dialect == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_on(connection)
        return
    url = database_url()
    log.info("migrating %s", mask_url(url))
    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            run_on(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
