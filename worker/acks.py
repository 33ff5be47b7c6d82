"""Acknowledging a message whose broker connection is gone.

When Redis goes away, the worker's consumer closes its connection and opens a new one
once Redis is back. A batch that was running meanwhile still finishes, and the main process
then acknowledges (or rejects) its message on the channel of the *closed* connection: kombu
there raises AttributeError (the closed transport has no client), which is neither a
connection nor a channel error, so Celery does not catch it and the worker stops for good.

Such a message is left alone instead: kombu's Redis transport keeps it in its `unacked`
hash, and a worker takes it back after the visibility timeout. Its batch is then solved
again and stored once (results are idempotent), so nothing is lost and nothing duplicated.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

LEFT_FOR_REDELIVERY = (
    "message %s came on a broker connection closed since (the broker restarted): "
    "left to come back after the visibility timeout instead of %s"
)


def delivered_on_closed_connection(message: Any) -> bool:
    """True when the connection that delivered `message` has been closed since (a kombu
    virtual transport whose client is gone); acknowledging on it would raise."""
    transport = getattr(message.channel, "connection", None)
    return transport is not None and getattr(transport, "client", True) is None


def settle(message: Any, action: str, settle_now: Any, *args: Any, **kwargs: Any) -> bool:
    """Call `settle_now(*args, **kwargs)` (an ack or reject of `message`) unless the
    message came on a closed connection; then log it and leave the message to the broker.
    True if `settle_now` ran."""
    if delivered_on_closed_connection(message):
        log.warning(LEFT_FOR_REDELIVERY, message.delivery_tag, action)
        return False
    settle_now(*args, **kwargs)
    return True
