"""The batch message: its JSON shape, sent by the producer and checked by the task."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import kombu.exceptions
from celery import Celery
from kombu.connection import Connection

from db.imports import BatchWork
from db.models import NAME_LENGTH
from db.submissions import DEFAULT_COLLECTION, Pushed
from db.tiers import BATCH_KINDS, DEEP_BATCH, IMPORT
from db.urls import mask_url
from solver.grid import to_text
from worker.errors import BrokerUnavailable, MessageError
from worker.settings import MAX_BATCH_SIZE, deep_queue

TASK_NAME = "sudoku.solve_batch"
# The public task producers send puzzle strings to (docs/guide/application.md).
PUSH_TASK_NAME = "sudoku.solve"
PUSH_FIELDS = ("puzzles", "collection", "reference")
NAME_LIMIT = NAME_LENGTH  # characters of a collection name or a reference (their columns)
# How a producer publishes: waiting out a broker restart (about four minutes) rather than
# losing the message, then `BrokerUnavailable`.
PUBLISH_RETRY = {"max_retries": 120, "interval_start": 0.5, "interval_step": 0.5, "interval_max": 2}
# Seconds a command waits for the broker when it starts, before it says the broker is away:
# two attempts of 2 s, a second apart (a refused connection is reported in about a second;
# a host that drops packets, or a server that never answers, takes the whole bound).
BROKER_TIMEOUT = 5
ATTEMPT_TIMEOUT = 2.0
GIVENS_CHARS = frozenset(to_text(range(10)))  # what a normalised puzzle is written with


def decode_batch(message: Mapping[str, Any]) -> BatchWork:
    """The batch in a task's kwargs, or MessageError saying which field is wrong."""
    expected = {"batch_id", "collection_id", "puzzles"}
    if set(message) - {"keep_paths", "kind"} != expected:
        raise MessageError(f"fields {sorted(message)} do not match {sorted(expected)}")
    keep_paths = message.get("keep_paths", False)
    if type(keep_paths) is not bool:
        raise MessageError(f"keep_paths must be true or false, got {keep_paths!r:.40}")
    kind = message.get("kind", IMPORT)
    if kind not in BATCH_KINDS:
        raise MessageError(f"kind must be one of {', '.join(BATCH_KINDS)}, got {kind!r:.40}")
    batch_id, collection_id = message["batch_id"], message["collection_id"]
    for name, value in (("batch_id", batch_id), ("collection_id", collection_id)):
        if type(value) is not int or value < 1:
            raise MessageError(f"{name} must be a positive integer, got {value!r}")
    puzzles = message["puzzles"]
    if not isinstance(puzzles, list) or not puzzles:
        raise MessageError("puzzles must be a non-empty list of [puzzle_id, givens]")
    work = [_puzzle(i, p) for i, p in enumerate(puzzles)]
    return BatchWork(batch_id, collection_id, work, keep_paths, kind)


def _puzzle(index: int, item: Any) -> tuple[int, str]:
    if not (isinstance(item, list | tuple) and len(item) == 2):
        raise MessageError(f"puzzles[{index}] must be [puzzle_id, givens], got {item!r:.80}")
    pid, givens = item
    if type(pid) is not int or pid < 1:
        raise MessageError(f"puzzles[{index}] has a bad puzzle id {pid!r:.40}")
    if not isinstance(givens, str) or len(givens) != 81 or not GIVENS_CHARS.issuperset(givens):
        raise MessageError(f"puzzles[{index}] givens are not 81 normalised cells: {givens!r:.100}")
    return pid, givens


def decode_push(task_id: str, args: Any, kwargs: Any) -> Pushed:
    """The message of a `sudoku.solve` task: one puzzle string or a list of them (the only
    positional argument, or `puzzles=`), an optional `collection` name and `reference`.
    MessageError says what is wrong. An item of the list that is not a string is kept, as
    its JSON text, to be recorded as a rejected string: nothing a producer sent is lost."""
    if not isinstance(args, list | tuple) or not isinstance(kwargs, dict):
        raise MessageError("args must be a list and kwargs an object")
    unknown = sorted(set(kwargs) - set(PUSH_FIELDS))
    if unknown:
        raise MessageError(f"unknown arguments {unknown}: expected {', '.join(PUSH_FIELDS)}")
    if len(args) > 1 or (args and "puzzles" in kwargs):
        raise MessageError("give the puzzles once: one positional argument, or puzzles=")
    if not args and "puzzles" not in kwargs:
        raise MessageError("no puzzles: send one puzzle string or a list of them")
    puzzles = args[0] if args else kwargs["puzzles"]
    one = isinstance(puzzles, str)
    if one:
        puzzles = [puzzles]
    if not isinstance(puzzles, list) or not 1 <= len(puzzles) <= MAX_BATCH_SIZE:
        raise MessageError(
            f"puzzles must be a string or a list of 1 to {MAX_BATCH_SIZE:,} strings, "
            f"got {puzzles!r:.80}"
        )
    strings = [item if isinstance(item, str) else json.dumps(item) for item in puzzles]
    collection = _name(kwargs, "collection") or DEFAULT_COLLECTION
    return Pushed(task_id, strings, collection, _name(kwargs, "reference"), one)


def _name(kwargs: dict[str, Any], field: str) -> str | None:
    value = kwargs.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value.strip()) <= NAME_LIMIT:
        raise MessageError(f"{field} must be a string of 1 to {NAME_LIMIT} characters")
    if any(ord(char) < 32 for char in value):
        raise MessageError(f"{field} must not hold control characters: {value!r:.80}")
    return value.strip()


def broker_unavailable(celery: Celery, exc: BaseException) -> BrokerUnavailable:
    """The error saying the broker of `celery` did not answer, and why (URL masked)."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return BrokerUnavailable(
        f"cannot reach the broker {mask_url(celery.conf.broker_url)}: {reason}"
    )


def bounded_connection(celery: Celery, timeout: float) -> Connection:
    """A new connection to the broker of `celery` on which no wait (connecting, reading)
    lasts longer than `timeout` seconds: a server that accepts and never answers is an
    error, not a hang."""
    connection: Connection = celery.connection_for_write(
        connect_timeout=timeout,
        transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
    )
    return connection


def check_broker(celery: Celery) -> None:
    """Return once the broker of `celery` answers; `BrokerUnavailable` if it does not within
    BROKER_TIMEOUT seconds (one retry, so a broker just restarting is not reported)."""
    with bounded_connection(celery, ATTEMPT_TIMEOUT) as connection:
        # The transport's own errors too: kombu neither retries nor wraps a refused login.
        errors = (
            kombu.exceptions.OperationalError,
            OSError,
            *connection.connection_errors,
            *connection.channel_errors,
        )
        try:
            connection.ensure_connection(max_retries=1, interval_start=1, timeout=BROKER_TIMEOUT)
        except errors as exc:
            raise broker_unavailable(celery, exc) from exc


def queue_of(celery: Celery, work: BatchWork) -> str:
    """The queue a batch goes to: the deep tier's for a deep batch, else `celery`'s own."""
    bulk: str = celery.conf.task_default_queue
    return deep_queue(bulk) if work.kind == DEEP_BATCH else bulk


def batch_sender(celery: Celery, *, patient: bool = True) -> Callable[[BatchWork], None]:
    """A function that queues one committed batch through `celery` (by task name), a deep
    batch on the deep tier's queue.

    A `patient` sender waits out a broker restart (retrying the publish for about four
    minutes) instead of losing the batch, then raises `BrokerUnavailable`; an impatient one
    raises at once.
    """

    def send(work: BatchWork) -> None:
        try:
            celery.send_task(
                TASK_NAME,
                kwargs=work.to_message(),
                queue=queue_of(celery, work),
                ignore_result=True,  # results go to SQL, even where a result backend is set
                retry=patient,
                retry_policy=PUBLISH_RETRY,
            )
        except kombu.exceptions.OperationalError as exc:
            raise broker_unavailable(celery, exc) from exc

    return send
