"""The batch task's request: its message's body checked before Celery unpacks it, and its
message settled only on a connection that is still open (`worker.acks`).

Installed as `Request` of the batch task, from `worker.overrides.REQUEST`.
"""

from __future__ import annotations

from typing import Any

from celery.exceptions import InvalidTaskError
from celery.worker.request import Request

from worker.acks import settle


class CheckedRequest(Request):  # type: ignore[misc]  # celery is untyped
    """A request whose body must be `[args, kwargs, embed]`, refused as invalid otherwise.

    Celery unpacks the body in the worker's main process, outside its error handling: a JSON
    object or a bare string there stops the whole worker (and the message, restored, stops the
    next one). Raised here, InvalidTaskError makes the consumer log the message and drop it.
    """

    def __init__(self, message: Any, **options: Any) -> None:
        body = options.get("body") if options.get("decoded") else message.payload
        if not (
            isinstance(body, list | tuple)
            and len(body) == 3
            and isinstance(body[0], list | tuple)
            and isinstance(body[1], dict)
            and isinstance(body[2], dict | None)
        ):
            raise InvalidTaskError(f"body is not [args, kwargs, embed]: {body!r:.200}")
        super().__init__(message, **options)

    acknowledged: bool

    def acknowledge(self) -> None:
        """Acknowledge, unless the message's connection is closed (`worker.acks`)."""
        if not self.acknowledged:
            settle(self.message, "acknowledging it", super().acknowledge)
            self.acknowledged = True

    def reject(self, requeue: bool = False) -> None:
        """Reject, unless the message's connection is closed (`worker.acks`)."""
        if not self.acknowledged:
            settle(self.message, "rejecting it", super().reject, requeue=requeue)
            self.acknowledged = True
