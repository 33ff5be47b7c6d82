"""Every setting of sudoku-batch, read once from the environment.

The Celery app, the CLI and Alembic's environment read this module; the database layer is
handed the URL. No URL or tunable is hard-coded anywhere else. A value that cannot be used
raises `SettingsError` naming the variable. URLs are shown only through `db.urls.mask_url`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from solver import DEFAULT_NODE_BUDGET
from worker.errors import SettingsError

DEFAULT_DATABASE_URL = "sqlite:///sudoku.db"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"
DEFAULT_QUEUE = "sudoku"
SOLVER_BACKENDS = ("auto", "native", "python")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not an integer") from None


@dataclass(frozen=True)
class Settings:
    """The environment, typed. Build one with `Settings.from_env()`."""

    database_url: str = DEFAULT_DATABASE_URL
    broker_url: str = DEFAULT_BROKER_URL
    queue: str = DEFAULT_QUEUE
    batch_size: int = 1_000  # ~50 ms of compiled solving: a message or a commit is small beside it
    node_budget: int = DEFAULT_NODE_BUDGET
    worker_concurrency: int = 0  # 0: one process per core
    task_soft_time_limit: int = 240
    task_time_limit: int = 300
    task_max_retries: int = 10
    retry_backoff_max: int = 60
    visibility_timeout: int = 900
    unacked_restore_interval: int = 5
    lost_batch_check_interval: int = 30  # 0: workers never re-send batches the broker lost
    solver_backend: str = "auto"  # auto: the compiled core when it was built

    def __post_init__(self) -> None:
        if not 0 < self.task_soft_time_limit < self.task_time_limit:
            raise SettingsError(
                "SUDOKU_TASK_SOFT_TIME_LIMIT must be positive and below the hard limit"
            )
        if self.visibility_timeout <= self.task_time_limit + self.retry_backoff_max:
            raise SettingsError(
                "SUDOKU_VISIBILITY_TIMEOUT must exceed the hard time limit plus the longest retry "
                "countdown, or a slow batch is delivered twice"
            )
        if self.lost_batch_check_interval < 0:
            raise SettingsError("SUDOKU_LOST_BATCH_CHECK_INTERVAL must be 0 (off) or more seconds")
        if self.batch_size < 1:
            raise SettingsError("SUDOKU_BATCH_SIZE must be at least 1")
        if self.solver_backend not in SOLVER_BACKENDS:
            raise SettingsError(
                f"SUDOKU_SOLVER_BACKEND={self.solver_backend!r}: expected one of "
                + ", ".join(SOLVER_BACKENDS)
            )

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("SUDOKU_DATABASE_URL") or DEFAULT_DATABASE_URL,
            broker_url=env.get("SUDOKU_BROKER_URL") or DEFAULT_BROKER_URL,
            queue=env.get("SUDOKU_QUEUE") or DEFAULT_QUEUE,
            batch_size=_int("SUDOKU_BATCH_SIZE", cls.batch_size),
            node_budget=_int("SUDOKU_NODE_BUDGET", cls.node_budget),
            worker_concurrency=_int("SUDOKU_WORKER_CONCURRENCY", cls.worker_concurrency),
            task_soft_time_limit=_int("SUDOKU_TASK_SOFT_TIME_LIMIT", cls.task_soft_time_limit),
            task_time_limit=_int("SUDOKU_TASK_TIME_LIMIT", cls.task_time_limit),
            task_max_retries=_int("SUDOKU_TASK_MAX_RETRIES", cls.task_max_retries),
            retry_backoff_max=_int("SUDOKU_RETRY_BACKOFF_MAX", cls.retry_backoff_max),
            visibility_timeout=_int("SUDOKU_VISIBILITY_TIMEOUT", cls.visibility_timeout),
            unacked_restore_interval=_int(
                "SUDOKU_UNACKED_RESTORE_INTERVAL", cls.unacked_restore_interval
            ),
            lost_batch_check_interval=_int(
                "SUDOKU_LOST_BATCH_CHECK_INTERVAL", cls.lost_batch_check_interval
            ),
            solver_backend=(env.get("SUDOKU_SOLVER_BACKEND") or cls.solver_backend).strip().lower(),
        )


def get_settings() -> Settings:
    """The current settings (read afresh, so tests can change the environment)."""
    return Settings.from_env()
