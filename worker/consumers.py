"""Who consumes the queue: asked of the running workers through Celery's remote control.

`import --wait` asks every few seconds while nothing is finished, so that a wait with no
worker says so (and what to run) instead of showing an ETA that never moves. It works on both
brokers: the question is broadcast to every worker on the broker, and each answers with the
queues it consumes. While work gets finished, a worker consumes the queue: nobody is asked (a
question waits REPLY_TIMEOUT for its replies, and every worker on the broker answers it).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable

import kombu.exceptions
from celery import Celery
from celery.exceptions import DuplicateNodenameWarning

from db.urls import mask_url
from worker.messages import BROKER_TIMEOUT, bounded_connection

ASK_EVERY = 5.0  # seconds between two questions to the workers
REPLY_TIMEOUT = 1.0  # seconds to wait for the workers' answers (each question waits this long)


def consumers(celery: Celery, queue: str, timeout: float = REPLY_TIMEOUT) -> list[str]:
    """The names of the workers consuming `queue` that answer within `timeout` seconds.

    The question goes over a connection of its own, closed before this returns: on one
    left in the app's pool, the reply consumer's pending read would be inherited by a
    process forked later (the pool of `run`), which then waits on it for ever.
    """
    with bounded_connection(celery, BROKER_TIMEOUT) as connection, warnings.catch_warnings():
        # A busy worker's late answer to an earlier question (the bulk queue's, or the one
        # asked ASK_EVERY seconds ago) comes back with this one's: counted once, below.
        warnings.simplefilter("ignore", DuplicateNodenameWarning)
        inspect = celery.control.inspect(timeout=timeout, connection=connection)
        replies = inspect.active_queues() or {}
    return sorted(
        name for name, queues in replies.items() if any(q.get("name") == queue for q in queues)
    )


class QueueWatch:
    """What a waiting producer should be told about the queue's consumers: `note()` is a
    warning while no worker consumes the queue, "" once one does; asked every ASK_EVERY s
    while nothing is finished."""

    def __init__(
        self,
        celery: Celery,
        queue: str,
        ask: Callable[[Celery, str], list[str]] = consumers,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.celery, self.queue, self.ask, self.clock = celery, queue, ask, clock
        self._asked_at: float | None = None
        self._note = ""

    def note(self, *, finished: bool = False) -> str:
        """The warning to show now ("" when a worker consumes the queue); `finished`: work
        was finished since the last call, so a worker consumes the queue (nobody is asked)."""
        now = self.clock()
        if finished:
            self._asked_at, self._note = now, ""
        elif self._asked_at is None or now - self._asked_at >= ASK_EVERY:
            self._asked_at = now
            self._note = self._current()
        return self._note

    def _current(self) -> str:
        where = mask_url(self.celery.conf.broker_url)
        try:
            if self.ask(self.celery, self.queue):
                return ""
        except (kombu.exceptions.OperationalError, OSError) as exc:
            return f"the broker {where} does not answer ({exc}); still waiting"
        return (
            f"no worker consumes queue {self.queue!r} on {where}: start one with"
            " `sudoku-batch worker` (same SUDOKU_BROKER_URL and SUDOKU_QUEUE); still waiting"
        )
