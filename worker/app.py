"""The Celery apps: the worker's (`app`, built on first use from every setting) and the
producer's (`producer_app`, which reads only the broker and the queue). Every setting comes
from `worker.settings`; each has its reason beside it."""

from __future__ import annotations

from functools import cache

from celery import Celery
from kombu.entity import Exchange, Queue

from worker import settings
from worker.overrides import CONSUMER, LOST_BATCHES
from worker.settings import Settings, get_settings


def producer_app(broker_url: str | None = None, queue: str | None = None) -> Celery:
    """A Celery app that sends batches (`import`); by default on SUDOKU_BROKER_URL and
    SUDOKU_QUEUE, the only settings it reads."""
    app = Celery("sudoku_batch", broker=broker_url or settings.broker_url())
    app.conf.update(
        # JSON only: any other serializer from the broker could run arbitrary code.
        task_serializer="json",
        accept_content=["json"],
        # Results go to SQL, so no result backend (and no result keys piling up in Redis).
        task_ignore_result=True,
        result_backend=None,
        task_default_queue=queue or settings.queue(),  # queue depth: LLEN <queue> on Redis
        task_send_sent_event=True,  # Flower sees batches as they are sent
    )
    return app


def make_app(config: Settings | None = None) -> Celery:
    """The worker's Celery app, configured for reliable batch solving with the given settings."""
    s = config or get_settings()
    app = producer_app(s.broker_url, s.queue)
    app.conf.update(
        include=["worker.tasks.solve", "worker.tasks.push"],
        # Both tiers' queues: the bulk path's batches, and the deep tier's one-puzzle batches
        # (`sudoku-batch worker --tier` keeps a worker to one of them).
        task_queues=[_queue(s.queue), _queue(settings.deep_queue(s.queue))],
        # Ack only after the batch is stored: a crash mid-batch leaves the message to redeliver.
        task_acks_late=True,
        # A killed pool process requeues its batch instead of acking it (lost otherwise) ...
        task_reject_on_worker_lost=True,
        # ... and counts as a retry, so a batch that always kills its worker ends as failed
        # after max_retries instead of looping forever (celery issue 9082).
        task_retry_on_worker_lost=True,
        # One batch at a time per process: a dead worker holds at most one unacked batch each.
        worker_prefetch_multiplier=1,
        # Soft limit raises inside the task (recorded as a failed batch); the hard limit kills
        # a stuck process. The work budgets (solver.work: a bulk batch's, a deep puzzle's) and
        # the node budget keep every batch far below them (docs/rating/exact.md).
        task_soft_time_limit=s.task_soft_time_limit,
        task_time_limit=s.task_time_limit,
        broker_transport_options={
            # Above the hard limit plus the longest retry countdown, or a slow batch is
            # delivered to a second worker while the first still works on it.
            "visibility_timeout": s.visibility_timeout,
            # Sweep for messages of dead workers every interval, not every 10 x interval.
            "unacked_restore_interval": s.unacked_restore_interval,
            "unacked_restore_throttle": 1,
            # A worker killed during a sweep holds the sweep's lock until it expires (300 s
            # by default), stopping every other worker's sweeps: keep that short.
            "unacked_mutex_expire": 30,
        },
        # Keep retrying the broker at start-up and after a Redis restart.
        broker_connection_retry_on_startup=True,
        broker_connection_max_retries=None,
        # Workers emit events so Flower can show them (and serve Prometheus metrics).
        worker_send_task_events=True,
        # A restarted worker must not lose its in-flight batch to a warm shutdown's ack.
        worker_cancel_long_running_tasks_on_connection_loss=True,
        # ... and a Redis restart must not stop it (worker/overrides.py).
        worker_consumer=CONSUMER.implementation,
        worker_hijack_root_logger=False,
    )
    if s.result_backend:  # results of pushed puzzles also as task results, JSON
        app.conf.update(
            result_backend=s.result_backend,
            result_serializer="json",
            result_accept_content=["json"],
            result_expires=86_400,  # a day: SQL keeps them for good
        )
    if s.worker_concurrency:
        app.conf.worker_concurrency = s.worker_concurrency
    # Each worker also re-sends batches whose message the broker lost (worker/overrides.py).
    app.conf.lost_batch_check_interval = s.lost_batch_check_interval
    app.steps["worker"].add(LOST_BATCHES.implementation)
    return app


def _queue(name: str) -> Queue:
    """A queue bound as Celery binds its default one (an exchange of its name, its name as the
    routing key): bound any other way too, each message sent to it would be queued twice."""
    return Queue(name, Exchange(name), routing_key=name)  # type: ignore[no-untyped-call]


@cache
def _worker_app() -> Celery:
    return make_app()


def __getattr__(name: str) -> Celery:
    """`app`, the worker's app, is built on first use: importing this module reads no setting."""
    if name == "app":
        return _worker_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
