"""The engine on PostgreSQL: a query cut short by a time limit leaves nothing locked."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from billiard.exceptions import SoftTimeLimitExceeded
from sqlalchemy import text

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


def test_a_query_cut_short_by_the_soft_time_limit_leaves_no_lock_held(
    postgres_url: str, soft_time_limit: None
) -> None:
    engine = make_engine(postgres_url)
    other = make_engine(postgres_url)
    try:
        with session_factory(engine)() as session:
            session.execute(text("SELECT pg_advisory_xact_lock(31)"))  # a batch's row locks
            signal.setitimer(signal.ITIMER_REAL, 0.2)
            with pytest.raises(SoftTimeLimitExceeded):
                session.execute(text("SELECT pg_sleep(60)"))
        with other.connect() as conn:  # another worker's process gets the lock at once
            conn.execute(text("SET lock_timeout = '5s'"))
            conn.execute(text("SELECT pg_advisory_xact_lock(31)"))
        with session_factory(engine)() as session:  # the same process goes on working
            assert session.execute(text("SELECT 1")).scalar() == 1
    finally:
        engine.dispose()
        other.dispose()
