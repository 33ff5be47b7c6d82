"""sudoku-batch's worker side: the Celery app, its tasks and what they share (settings,
errors, exit codes, the batch message), with the layers above and beside them in subpackages:
`files` (reading and writing files), `bulk` (the path `run` and `import` drive), `cli` (the
commands and what a person sees) and the module `client` (the producers' Python API). Which
may import which: docs/architecture.md, Layers, checked by tests/test_layers.py.

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
