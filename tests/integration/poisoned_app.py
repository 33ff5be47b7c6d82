"""A worker app whose pool process dies (SIGKILL) on one chosen puzzle: a poison batch.

Started by the fault tests as `celery -A tests.integration.poisoned_app worker`; the puzzle is
named by SUDOKU_TEST_POISON. Nothing in the product imports this module.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import worker.tasks.solve as tasks
from db.imports import BatchWork
from worker.app import app

POISON = os.environ["SUDOKU_TEST_POISON"]
_solve_work = tasks.solve_work


def _solve_or_die(work: BatchWork, **kw: Any) -> Any:
    if any(givens == POISON for _, givens in work.puzzles):
        os.kill(os.getpid(), signal.SIGKILL)
    return _solve_work(work, **kw)


tasks.solve_work = _solve_or_die  # type: ignore[assignment]
__all__ = ["app"]
