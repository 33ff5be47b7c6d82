"""A worker app whose pool process dies (SIGKILL) on one chosen puzzle: a poison batch.

Started by the fault tests as `celery -A tests.integration.poisoned_app worker`; the puzzle is
named by SUDOKU_TEST_POISON. Nothing in the product imports this module.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from typing import Any

import worker.tasks.solve as tasks
from worker.app import app

POISON = os.environ["SUDOKU_TEST_POISON"]
_solve_batch = tasks.solve_batch


def _solve_or_die(collection_id: int, puzzles: Sequence[tuple[int, str]], **kw: Any) -> Any:
    if any(givens == POISON for _, givens in puzzles):
        os.kill(os.getpid(), signal.SIGKILL)
    return _solve_batch(collection_id, puzzles, **kw)


tasks.solve_batch = _solve_or_die  # type: ignore[assignment]
__all__ = ["app"]
