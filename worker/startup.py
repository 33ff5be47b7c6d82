"""What a worker checks before it takes any batch: its solver, its database, its broker.

A worker that cannot store results must not take batches: it would spend their retries on
an outage it cannot ride out and look healthy to whoever supervises it. So it refuses to
start, in one line on stderr, and exits; its supervisor shows why and starts it again later
(docker-compose's `restart: unless-stopped`, systemd's `Restart=on-failure`). Once running,
a worker rides out a database or broker outage (tasks retry, Celery reconnects).
"""

from __future__ import annotations

import sys

from celery import Celery
from sqlalchemy.pool import NullPool

from db.engine import ensure_schema, make_engine
from solver.errors import SudokuBatchError
from worker.exits import exit_code_of
from worker.messages import check_broker
from worker.settings import Settings, use_solver_backend


def check_worker(celery: Celery, settings: Settings) -> None:
    """Raise the project's error that says why this worker cannot work, if one does."""
    use_solver_backend()
    engine = make_engine(settings.database_url, poolclass=NullPool)
    try:
        ensure_schema(engine)  # answers, and is migrated (an empty SQLite file is, here)
    finally:
        engine.dispose()
    check_broker(celery)


def refuse_unless_ready(celery: Celery, settings: Settings) -> None:
    """Return when the worker can work; else print one line and exit (1, or 2 for a setting)."""
    try:
        check_worker(celery, settings)
    except SudokuBatchError as exc:
        print(f"error: the worker cannot start: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(exit_code_of(exc)) from None
