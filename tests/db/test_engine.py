"""The engine on PostgreSQL: a call cut short by a time limit leaves nothing locked."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator

import pytest
from billiard.exceptions import SoftTimeLimitExceeded
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from db.bulk import copy_rows, driver_connection
from db.engine import make_engine, session_factory


@pytest.fixture
def soft_time_limit() -> Iterator[None]:
    """SIGALRM raises Celery's soft time limit where the process happens to be, as SIGUSR1
    does in a pool process."""

    def raise_limit(*_: object) -> None:
        raise SoftTimeLimitExceeded()

    previous = signal.signal(signal.SIGALRM, raise_limit)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def _slow_rows() -> Iterator[tuple[int]]:
    for value in range(10**9):
        if value % 1_000 == 0:
            time.sleep(0.01)
        yield (value,)


def _cut_short(session: Session, call: Callable[[Session], object]) -> None:
    """Lock as a batch's transaction does, then make `call` until the time limit."""
    with session:
        session.execute(text("SELECT pg_advisory_xact_lock(31)"))
        session.execute(text("CREATE TEMPORARY TABLE stage (value integer)"))
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        call(session)


CALLS: dict[str, Callable[[Session], object]] = {
    "a statement": lambda session: session.execute(text("SELECT pg_sleep(60)")),
    "a statement below the ORM": lambda session: driver_connection(session).execute(
        "SELECT pg_sleep(60)"
    ),
    "a COPY": lambda session: copy_rows(session, "stage", ["value"], _slow_rows()),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=list(CALLS))
def test_a_call_cut_short_by_the_soft_time_limit_raises_it_and_leaves_no_lock_held(
    postgres_url: str, soft_time_limit: None, call: Callable[[Session], object]
) -> None:
    engine = make_engine(postgres_url)
    other = make_engine(postgres_url)
    try:
        with pytest.raises(SoftTimeLimitExceeded):
            _cut_short(session_factory(engine)(), call)
        with other.connect() as conn:  # another worker's process gets the lock at once
            conn.execute(text("SET lock_timeout = '5s'"))
            conn.execute(text("SELECT pg_advisory_xact_lock(31)"))
        with session_factory(engine)() as session:  # the same process goes on working
            assert session.execute(text("SELECT 1")).scalar() == 1
    finally:
        engine.dispose()
        other.dispose()


def _terminated(session: Session, other: Engine) -> None:
    """A statement below the ORM on a connection the server ends meanwhile (an outage)."""
    with session:
        pid = session.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with other.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        driver_connection(session).execute("SELECT 1")


def test_a_database_outage_below_the_orm_comes_out_as_sqlalchemys_error(
    postgres_url: str,
) -> None:
    """The error callers retry a database outage on (workers, `Client.wait`) is SQLAlchemy's,
    also when the statement that met the outage ran below the ORM."""
    engine = make_engine(postgres_url)
    other = make_engine(postgres_url)
    try:
        with pytest.raises(OperationalError):
            _terminated(session_factory(engine)(), other)
    finally:
        engine.dispose()
        other.dispose()
