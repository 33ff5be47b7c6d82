"""Bad messages on the queue of a real worker: each rejected with a logged reason, none fatal.

The messages are published raw with kombu, shaped like Celery's protocol 2 (headers `task`,
`id` ...; body `[args, kwargs, embed]`), but wrong in one way each. A real batch sent after
them is solved, which proves the worker survived them all.
"""

from __future__ import annotations

import json
import pickle
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kombu
import pytest
import redis
from click.testing import CliRunner
from sqlalchemy import create_engine, text

from tests.corpus import good_puzzles
from tests.integration.conftest import WorkerFactory
from worker.cli import main

pytestmark = pytest.mark.integration

TASK = "sudoku.solve_batch"
EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}
GOOD_KWARGS = {"batch_id": 1, "collection_id": 1, "puzzles": [[1, "." * 81]]}
DEADLINE = 60.0


@dataclass(frozen=True)
class Bad:
    """A raw message and the words the worker's log must hold about it."""

    name: str
    body: bytes
    logged: str
    content_type: str = "application/json"
    task: str = TASK


def protocol2(kwargs: Any, args: Any = ()) -> bytes:
    return json.dumps([args, kwargs, EMBED]).encode()


BAD_MESSAGES = [
    Bad("not JSON", b'[[], {"batch_id": 1, ', "Can't decode message body"),
    Bad(
        "pickle",
        pickle.dumps([(), GOOD_KWARGS, EMBED]),
        "untrusted content of type pickle",
        content_type="application/x-python-serialize",
    ),
    Bad(
        "missing field",
        protocol2({"batch_id": 5, "puzzles": [[1, "." * 81]]}),
        "['batch_id', 'puzzles'] do not match ['batch_id', 'collection_id', 'puzzles']",
    ),
    Bad(
        "wrong type",
        protocol2({**GOOD_KWARGS, "batch_id": "seven"}),
        "batch_id must be a positive integer, got 'seven'",
    ),
    Bad(
        "bad givens",
        protocol2({**GOOD_KWARGS, "puzzles": [[1, "x" * 80]]}),
        "puzzles[0] givens are not 81 normalised cells",
    ),
    Bad(
        "empty puzzles",
        protocol2({**GOOD_KWARGS, "puzzles": []}),
        "puzzles must be a non-empty list",
    ),
    Bad("positional args", protocol2({}, [1, 1, []]), "TypeError"),
    Bad(
        "body not [args, kwargs, embed]",
        json.dumps(GOOD_KWARGS).encode(),
        "body is not [args, kwargs, embed]",
    ),
    Bad("body a bare string", b'"hello"', "body is not [args, kwargs, embed]"),
    Bad("unknown task", protocol2(GOOD_KWARGS), "unregistered task", task="sudoku.nope"),
]


def publish(broker_url: str, queue: str, message: Bad) -> str:
    """Put one raw protocol 2 message on the queue; returns its task id."""
    task_id = str(uuid.uuid4())
    headers = {
        "lang": "py",
        "task": message.task,
        "id": task_id,
        "root_id": task_id,
        "parent_id": None,
        "group": None,
        "retries": 0,
        "eta": None,
        "expires": None,
        "timelimit": [None, None],
        "argsrepr": "()",
        "kwargsrepr": "{}",
        "origin": "test_bad_messages",
    }
    exchange = kombu.Exchange(queue, "direct")  # the queue as Celery declares it
    with kombu.Connection(broker_url) as connection:
        connection.Producer().publish(
            message.body,
            exchange=exchange,
            routing_key=queue,
            declare=[kombu.Queue(queue, exchange, routing_key=queue)],
            content_type=message.content_type,
            content_encoding="utf-8" if message.content_type.endswith("json") else "binary",
            headers=headers,
            correlation_id=task_id,
        )
    return task_id


def wait_for(what: str, check: Callable[[], bool], deadline: float = DEADLINE) -> None:
    """Poll `check` every 0.2 s until it holds, or fail after `deadline` seconds."""
    end = time.monotonic() + deadline
    while not check():
        if time.monotonic() > end:
            pytest.fail(f"timed out after {deadline:.0f} s waiting for {what}")
        time.sleep(0.2)


def batch_status(url: str) -> list[tuple[str, str | None]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = [(row.status, row.error) for row in conn.execute(text("SELECT * FROM batches"))]
    engine.dispose()
    return rows


def collection_done(url: str) -> bool:
    engine = create_engine(url)
    with engine.connect() as conn:
        row = conn.execute(text("SELECT total, done FROM collections")).one_or_none()
    engine.dispose()
    return row is not None and row.total > 0 and row.done == row.total


def test_bad_messages_are_rejected_with_a_logged_reason_and_the_worker_goes_on(
    service_env: dict[str, str], start_worker: WorkerFactory, tmp_path: Path
) -> None:
    """Not JSON, pickle, wrong fields, unknown task: each logged; the real batch queued after
    them (the batch 1 several of them name) is solved by the same, still running worker."""
    queue, url = service_env["SUDOKU_QUEUE"], service_env["SUDOKU_DATABASE_URL"]
    for message in BAD_MESSAGES:
        publish(service_env["SUDOKU_BROKER_URL"], queue, message)
    good = tmp_path / "after.txt"
    good.write_text("\n".join(good_puzzles()[:20]) + "\n")
    imported = CliRunner().invoke(main, ["import", str(good)])
    assert imported.exit_code == 0, imported.output
    assert (
        redis.Redis.from_url(service_env["SUDOKU_BROKER_URL"]).llen(queue) == len(BAD_MESSAGES) + 1
    )

    proc = start_worker("bad")
    wait_for("the batch queued after the bad messages", lambda: collection_done(url))

    log = tmp_path / "bad.log"
    for message in BAD_MESSAGES:
        wait_for(f"the reason for {message.name!r}", lambda m=message: m.logged in log.read_text())
    assert proc.poll() is None, "the worker died"
    assert batch_status(url) == [("done", None)]
