"""The worker's consumer, surviving a broker that goes away while messages are unacked.

When Redis stops, Celery's consumer collects its connection, then closes it and reconnects.
The collect already took the connection's transport away; if closing the Redis channel
failed during the collect (it drains a pending BRPOP from the dead socket first), the close
that follows tries again to put the channel's unacknowledged messages back on the queue,
through the transport that is gone. kombu then raises AttributeError (no client to connect
with), which is not a connection error: Celery reports "Unrecoverable error" and the worker
stops consuming for good (seen with celery and kombu 5.7 whenever Redis restarts while a
prefetched message waits).

This consumer lets that one close fail. Nothing is lost: the messages it would have put back
are still in kombu's `unacked` hash in Redis, and a worker takes them back after the
visibility timeout. The batches that were running are cancelled as Celery would have done
after the close (`worker_cancel_long_running_tasks_on_connection_loss`), so they too come
back from the broker, and results are stored once however often a batch runs.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.consumer import Consumer as CeleryConsumer
from celery.worker.state import active_requests

log = logging.getLogger(__name__)

CLOSE_FAILED = (
    "closing the lost broker connection failed (%r): its unacknowledged messages come back "
    "after the visibility timeout; reconnecting"
)


class Consumer(CeleryConsumer):  # type: ignore[misc]  # celery is untyped
    """Celery's consumer, except that closing a connection whose transport is already gone
    does not stop the worker (see the module's docstring)."""

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:
            log.warning(CLOSE_FAILED, error)
            self.connection = None
            if self.app.conf.worker_cancel_long_running_tasks_on_connection_loss:
                cancel_unacknowledged(self.pool)


def cancel_unacknowledged(pool: Any) -> None:
    """Cancel the running batches whose message is not acknowledged yet (acks_late), as
    Celery does after a connection loss: their messages come back from the broker."""
    for request in tuple(active_requests):
        if request.task.acks_late and not request.acknowledged:
            request.cancel(pool)
