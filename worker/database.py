"""The worker side's one engine per process, opened lazily from the settings."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from db.engine import make_engine, session_factory
from worker.settings import database_url

_engine: Engine | None = None


def engine() -> Engine:
    """This process's engine (created on first use, after any fork)."""
    global _engine
    if _engine is None:
        _engine = make_engine(database_url())
    return _engine


def open_session() -> Session:
    """A new session on this process's engine; the caller commits."""
    return session_factory(engine())()


def reset_engine(*, after_fork: bool = False) -> None:
    """Forget the engine: after a fork (the parent's connections are left to the parent),
    or when the database URL changed (its connections are closed)."""
    global _engine
    if _engine is not None:
        _engine.dispose(close=not after_fork)
    _engine = None
