"""Where the worker bends Celery and kombu: every override in one list, each with the internals
it touches, where it is installed and why, and the releases they were all checked on.

Each one replaces, or leans on, something Celery or kombu do not promise to keep: a task's
strategy and request class, the consumer, its prefetch window, the Redis transport's `unacked`
hash. So each was read against the source of the releases in `CHECKED_ON`. The worker's app
(`worker.app`) and the tasks (`worker.tasks`) install them by the names below; the
implementations live in their own modules. `tests/worker/test_overrides.py` fails when another
release is installed, when an internal named here is gone from it, when an override is not in
effect, or when something bends Celery that this list does not name. The architecture page
shows the list (docs/hooks/overrides.py).

Nothing here imports Celery: the app, the tasks and the docs read this module alone.
"""

from __future__ import annotations

from dataclasses import dataclass

# The releases (major.minor) every override below was read against and tested on (5.7.0 each).
# Another one installed fails tests/worker/test_overrides.py: check each override's internals
# in its source, run the integration fault tests, then change this.
CHECKED_ON: dict[str, str] = {"celery": "5.7", "kombu": "5.7"}


@dataclass(frozen=True)
class Override:
    """One place the worker bends Celery or kombu."""

    name: str
    implementation: str  # what is installed, as "module:attribute"
    installed: str  # where and how
    internals: tuple[str, ...]  # the Celery or kombu names it replaces or relies on
    reason: str  # why, in one line


STRATEGY = Override(
    name="grouping strategy",
    implementation="worker.grouping:strategy",
    installed="`PushTask.Strategy` (worker/tasks/push.py), for the public task `sudoku.solve` only",
    internals=(
        "celery.app.task:Task.Strategy",
        "celery.app.task:Task.start_strategy",
        "celery.concurrency.base:BasePool.apply_async",
    ),
    reason="a pushed message holds a puzzle or a few: the main process groups them, a group a "
    "pool job and one transaction, and acknowledges each message after its group's commit",
)
PREFETCH = Override(
    name="prefetch window",
    implementation="worker.grouping:Grouper",
    installed="by the grouping strategy: `Grouper.take` raises the consumer's window by one for "
    "a message held, `Grouper._settled` lowers it again",
    internals=("kombu.common:QoS.increment_eventually", "kombu.common:QoS.decrement_eventually"),
    reason="with a message a pool process prefetched, a group would never fill: the window grows "
    "by up to three groups' worth, without raising the import's batches' prefetch",
)
REQUEST = Override(
    name="checked request",
    implementation="worker.request:CheckedRequest",
    installed="`Request` of the batch task (worker/tasks/solve.py)",
    internals=("celery.worker.request:Request.__init__", "celery.worker.strategy:default"),
    reason="Celery unpacks a message's body in the main process, outside its error handling: a "
    "body not `[args, kwargs, embed]` stopped the worker; it is refused as an invalid task",
)
ACKS = Override(
    name="acks on a closed connection",
    implementation="worker.acks:settle",
    installed="`CheckedRequest.acknowledge` and `CheckedRequest.reject` (worker/request.py), "
    "and the grouping strategy's ack and reject",
    internals=(
        "celery.worker.request:Request.acknowledge",
        "celery.worker.request:Request.reject",
        "kombu.connection:Connection._do_close_transport",
        "kombu.transport.base:Transport.client",
    ),
    reason="settling a message on a connection closed since (Redis restarted) raised "
    "AttributeError and stopped the worker: the message is left to come back after the "
    "visibility timeout",
)
CONSUMER = Override(
    name="connection-loss consumer",
    implementation="worker.connection_loss:Consumer",
    installed="`worker_consumer` of the worker's app (worker/app.py)",
    internals=(
        "celery.worker.consumer.consumer:Consumer.on_connection_error_after_connected",
        "celery.worker.state:active_requests",
    ),
    reason="closing a lost connection through a transport already gone raised AttributeError "
    "and the worker stopped consuming for good: that close may fail, and the unacknowledged "
    "batches are cancelled as Celery would have",
)
LOST_BATCHES = Override(
    name="lost-batch check",
    implementation="worker.recovery:LostBatchStep",
    installed="a step of the worker's blueprint (`app.steps['worker']`, worker/app.py); reads "
    "kombu's `unacked` hash, entries `[message, exchange, routing_key]`",
    internals=("celery.bootsteps:StartStopStep", "kombu.transport.redis:Channel.unacked_key"),
    reason="Redis loses a message a worker took but kombu had not recorded as unacknowledged "
    "(celery/celery#7950): a sent batch neither queued nor in the `unacked` hash is sent again",
)

# Every override: a message's path through the worker, then the worker's own.
OVERRIDES: tuple[Override, ...] = (STRATEGY, PREFETCH, REQUEST, ACKS, CONSUMER, LOST_BATCHES)
