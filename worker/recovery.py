"""Sending again the batches whose message the broker lost.

Redis, the broker here, hands a message to a worker with RPOP and only then records it as
unacknowledged (kombu has no atomic move): a worker killed between the two loses that
message for good (celery/celery#7950). A Redis restarted without persistence loses the
whole queue. The database knows better: a batch stays `pending` until a worker stores it.

So every worker checks, every `SUDOKU_LOST_BATCH_CHECK_INTERVAL` seconds while its queues (the
bulk path's and the deep tier's) are empty, for pending batches that were sent but that the
broker holds nowhere: neither queued nor delivered to some worker (kombu's `unacked` hash,
which also keeps a dead worker's messages until their visibility timeout). A batch found
missing by two checks in a row is lost: it is claimed in the database (one worker wins) and
sent again. A batch sent twice is still stored once (results are idempotent), so a wrong
guess costs a solve, never a duplicate.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import redis
from celery import Celery, bootsteps
from kombu.transport.redis import Channel as RedisChannel

from db.imports import BatchWork, batches_by_id
from db.recovery import claim_resend, sent_pending_batches
from worker.database import open_session
from worker.messages import TASK_NAME, batch_sender
from worker.settings import deep_queue

log = logging.getLogger(__name__)

UNACKED_KEY: str = RedisChannel.unacked_key  # kombu's default: the app sets no other


def held_batches(broker: redis.Redis, queues: Sequence[str]) -> set[int] | None:
    """Ids of the batches whose messages for `queues` are delivered and not yet acknowledged;
    None while a queue itself still holds messages (then nothing can be told missing)."""
    if any(broker.llen(queue) for queue in queues):
        return None
    held = set()
    for _tag, raw in broker.hscan_iter(UNACKED_KEY, count=100):
        batch_id = _batch_of(raw, queues)
        if batch_id is not None:
            held.add(batch_id)
    return held


def _batch_of(raw: bytes, queues: Sequence[str]) -> int | None:
    """The batch id in one `unacked` entry (`[message, exchange, routing_key]`) for `queues`."""
    try:
        message, _exchange, routing_key = json.loads(raw)
    except (ValueError, TypeError):
        return None
    return batch_of(message) if routing_key in queues else None


def batch_of(message: Any) -> int | None:
    """The batch id a kombu message (as queued on Redis) carries; None for another task's
    message or a malformed one."""
    try:
        if message["headers"].get("task") != TASK_NAME:
            return None
        body: Any = message["body"]
        if message["properties"].get("body_encoding") == "base64":
            body = base64.b64decode(body)
        _args, kwargs, _embed = json.loads(body)
        batch_id = kwargs["batch_id"]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return batch_id if type(batch_id) is int else None


class LostBatchCheck:
    """One worker's check for lost batch messages; call `check()` periodically."""

    def __init__(
        self, broker: redis.Redis, queues: Sequence[str], send: Callable[[BatchWork], None]
    ) -> None:
        self.broker, self.queues, self.send = broker, list(queues), send
        self._missing: dict[int, datetime] = {}  # seen missing by the last check

    def check(self) -> list[int]:
        """Send again the batches missing now and at the last check; their ids."""
        held = held_batches(self.broker, self.queues)
        if held is None:
            self._missing = {}
            return []
        with open_session() as session:
            sent = sent_pending_batches(session)
            missing = {i: at for i, at in sent.items() if i not in held}
            lost = {i: at for i, at in missing.items() if self._missing.get(i) == at}
            self._missing = missing
            claimed = [i for i, at in lost.items() if claim_resend(session, i, at)]
            works = batches_by_id(session, claimed)
            session.commit()
        for work in works:
            self.send(work)
            log.warning("batch %d: the broker lost its message; sent it again", work.batch_id)
        return [work.batch_id for work in works]


class LostBatchStep(bootsteps.StartStopStep):  # type: ignore[misc]  # celery is untyped
    """Runs `LostBatchCheck` on the worker's timer (only with a Redis broker: RabbitMQ hands
    a message over and records it as unacknowledged in one step, so it loses none)."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        app: Celery = worker.app
        interval = app.conf.get("lost_batch_check_interval", 0)
        url = app.conf.broker_url
        if interval <= 0:
            log.info("lost-batch check: off (SUDOKU_LOST_BATCH_CHECK_INTERVAL=0)")
            return
        if not url.startswith(("redis://", "rediss://")):
            log.info("lost-batch check: off, not needed (the broker is not Redis)")
            return
        log.info("lost-batch check: every %d s while the queues are empty", interval)
        broker = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)
        queue = app.conf.task_default_queue
        queues = (queue, deep_queue(queue))
        checker = LostBatchCheck(broker, queues, batch_sender(app, patient=False))
        self.tref = worker.timer.call_repeatedly(interval, _logged, (checker,), priority=10)

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


def _logged(checker: LostBatchCheck) -> None:
    """One check; a failure (broker or database away) is logged and retried next time."""
    try:
        checker.check()
    except Exception as exc:
        log.warning(
            "lost-batch check failed, trying again later: %s: %.300s", type(exc).__name__, exc
        )
