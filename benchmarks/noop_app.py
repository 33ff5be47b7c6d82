"""A worker app whose one task does nothing: the ceiling of the broker path alone.

    celery -A benchmarks.noop_app worker --concurrency=1 ...    (from the repository root)

`benchmarks/producer.py` starts these workers to measure how many messages a second the
same kind of worker consumes and acknowledges when the task body costs nothing. The app is
the worker's own (`worker.app.make_app`, from the same SUDOKU_* settings: late acks,
prefetch of one a pool process, JSON only, task events on), with none of the project's tasks
and one task, `bench.noop`, that takes anything and returns nothing.
"""

from __future__ import annotations

import os
from typing import Any

from worker.app import make_app

NOOP_TASK = "bench.noop"

app = make_app()
app.conf.include = []  # the worker's app, without its tasks (and their start-up check)
# SUDOKU_BENCH_NOOP_EVENTS=0: without the three task events a message the worker's app sends
# (received, started, succeeded) for Flower: the grouped `sudoku.solve` messages send none.
if os.environ.get("SUDOKU_BENCH_NOOP_EVENTS", "1") == "0":
    app.conf.worker_send_task_events = False


@app.task(name=NOOP_TASK)  # type: ignore[misc]  # celery is untyped
def noop(*_args: Any, **_kwargs: Any) -> None:
    """Nothing: the message is consumed, run in the pool and acknowledged."""
