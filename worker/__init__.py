"""sudoku-batch workers: the Celery app, its tasks, the producer, the embedded runner, the CLI.

`celery -A worker worker` finds the app here. It is built on first use, not on import, so
that the command line can report a bad setting as a usage error instead of a traceback.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("app", "celery"):  # the names `celery -A worker` looks up
        from worker.app import app

        return app
    raise AttributeError(f"module 'worker' has no attribute {name!r}")
