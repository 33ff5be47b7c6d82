"""sudoku-batch workers: the Celery app, its tasks, the producer, the embedded runner, the CLI.

`celery -A worker worker` finds the app here.
"""

from worker.app import app

__all__ = ["app"]
