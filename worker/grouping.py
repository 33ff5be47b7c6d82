"""Grouping `sudoku.solve` messages on the worker: many messages, one pool job, one commit.

A producer may send one puzzle a message. Run as ordinary tasks, each message would be a
pool job and a transaction of its own. This strategy (Celery's hook for how a worker's main
process handles a task's messages) holds them instead, and hands a group to the pool when it
holds `group_size` puzzles or `group_wait` seconds after its first message (if every pool
process is busy then, as soon as one is free: the group grows meanwhile). The pool process
stores the whole group in one transaction (`worker.tasks.push.store_group`); only then does
the main process acknowledge the group's messages.

- An error while storing (after the pool process's own retries of a database outage), a pool
  process killed or out of time: every message of the group goes back to the queue, nothing
  is acknowledged; a message that fails in a group is retried alone next time, so one bad
  message cannot hold up the others; after `task_max_retries` failures it is dropped, logged
  (a database outage longer than the pool process waits counts against no message).
- The broker's prefetch window (a message a pool process by default) is raised by one for
  each message held, up to three groups' worth, and lowered as each is acknowledged: groups
  fill without raising the prefetch of the import's batches. A message of a group's worth
  or more raises nothing: a worker holds such messages one at a time, as it does batches.
- A message that is not a `sudoku.solve` call (`worker.messages.decode_push`) is refused as
  an invalid task: logged and dropped, never retried.

Why not celery-batches: see docs/guide/application.md ("Single-puzzle messages").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from celery import Celery, Task
from celery.exceptions import InvalidTaskError

from db.submissions import Pushed
from worker.acks import settle
from worker.errors import MessageError
from worker.messages import decode_push
from worker.settings import Settings

log = logging.getLogger(__name__)
HELD_GROUPS = 3  # groups' worth of messages the prefetch window grows by, at most


@dataclass
class _Held:
    """A message held in a group: what it asks, and how to settle it with the broker."""

    pushed: Pushed
    ack: Callable[..., Any]
    reject: Callable[..., Any]
    errors: tuple[type[BaseException], ...]
    raised: bool  # the prefetch window was raised for it


class Grouper:
    """The state of one worker's grouping: the group filling, and the messages' failures."""

    def __init__(
        self,
        consumer: Any,
        run: Callable[..., Any],
        settings: Settings,
        outage: tuple[type[BaseException], ...] = (),
    ) -> None:
        self.consumer, self.run, self.settings = consumer, run, settings
        self.outage = outage  # errors of an unreachable service, not of the messages
        self.held: list[_Held] = []
        self.puzzles = 0
        self.timer_entry: Any = None
        self.due = False  # the group's wait is over: it goes as soon as a pool process is free
        self.running = 0  # groups in the pool, not settled yet
        self.raised = 0
        self.cap = HELD_GROUPS * settings.group_size
        self.failures: dict[str, int] = {}
        self.suspects: set[str] = set()

    def take(self, pushed: Pushed, ack: Any, reject: Any, errors: Any) -> None:
        """Hold one message; flush when the group is full (or alone, for a suspect)."""
        # A message that fills a group by itself goes to the pool at once: the window is not
        # raised for it, so a worker holds one such message at a time, as it does a batch
        # (raised, it would take every list message queued, up to `cap`, from the others).
        raised = self.raised < self.cap and len(pushed.strings) < self.settings.group_size
        if raised:
            self.raised += 1
            self.consumer.qos.increment_eventually()
        held = _Held(pushed, ack, reject, errors, raised)
        if pushed.task_id in self.suspects:
            self._dispatch([held])
            return
        self.held.append(held)
        self.puzzles += len(pushed.strings)
        if self.puzzles >= self.settings.group_size:
            self.flush()
        elif self.timer_entry is None and not self.due:
            self.timer_entry = self.consumer.timer.call_after(self.settings.group_wait, self.expire)

    def expire(self) -> None:
        """The group's wait is over: it goes now if a pool process is free; if not, it goes
        as soon as one is, and grows meanwhile (a group costs two transactions however small
        it is: a busy worker stores bigger groups instead of queueing small ones)."""
        self.timer_entry = None
        if self.running < self._processes():
            self.flush()
        else:
            self.due = True

    def flush(self) -> None:
        """Hand the group held so far to the pool."""
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None
        self.due = False
        group, self.held, self.puzzles = self.held, [], 0
        if group:
            self._dispatch(group)

    def _processes(self) -> int:
        """How many groups the pool runs at once (its processes)."""
        limit = getattr(self.consumer.pool, "limit", None)
        return limit if isinstance(limit, int) and limit > 0 else 1

    def _done(self) -> None:
        """A group left the pool: the group whose wait is over takes its place."""
        self.running -= 1
        if self.due:
            self.flush()

    def _dispatch(self, group: list[_Held]) -> None:
        self.running += 1
        self.consumer.pool.apply_async(
            self.run,
            args=([held.pushed for held in group],),
            callback=partial(self._stored, group),
            error_callback=partial(self._failed, group),
            soft_timeout=self.settings.task_soft_time_limit,
            timeout=self.settings.task_time_limit,
        )

    def _settled(self, held: _Held) -> None:
        if held.raised:
            self.raised -= 1
            self.consumer.qos.decrement_eventually()

    def _stored(self, group: list[_Held], _outcome: Any) -> None:
        for held in group:
            self.failures.pop(held.pushed.task_id, None)
            self.suspects.discard(held.pushed.task_id)
            held.ack(log, held.errors)
            self._settled(held)
        self._done()

    def _failed(self, group: list[_Held], error: Any) -> None:
        reason = getattr(error, "exception", error)
        # The database (or broker) away for longer than the pool process waited: no fault
        # of these messages, so it counts against none of them, however long it lasts.
        outage = isinstance(reason, self.outage)
        for held in group:
            task_id = held.pushed.task_id
            failures = self.failures.get(task_id, 0) + (not outage)
            self.failures[task_id] = failures
            if failures > self.settings.task_max_retries:
                log.error("message %s dropped after %d failures: %s", task_id, failures, reason)
                self.failures.pop(task_id)
                self.suspects.discard(task_id)
                held.reject(log, held.errors, requeue=False)
            else:
                log.warning(
                    "group of %d messages not stored (%s): message %s goes back to the queue",
                    len(group),
                    reason,
                    task_id,
                )
                if len(group) > 1 and not outage:
                    self.suspects.add(task_id)
                held.reject(log, held.errors, requeue=True)
            self._settled(held)
        self._done()


def _call(message: Any, body: Any) -> tuple[str, Any, Any]:
    """(task id, args, kwargs) of a task message, protocol 2 or 1."""
    if body is None:  # protocol 2: the body is [args, kwargs, embed]
        payload = message.decode()
        if not (isinstance(payload, list | tuple) and len(payload) == 3):
            raise MessageError(f"body is not [args, kwargs, embed]: {payload!r:.200}")
        return str(message.headers.get("id")), payload[0], payload[1]
    return str(body.get("id")), body.get("args", []), body.get("kwargs", {})


def strategy(task: Task, app: Celery, consumer: Any, **_: Any) -> Callable[..., None]:
    """Celery's per-task hook: the function the worker's main process calls for each
    `sudoku.solve` message it receives."""
    settings: Settings = task.settings
    grouper = Grouper(consumer, task.group_runner, settings, task.outage_errors)
    errors = consumer.connection_errors

    def on_message(
        message: Any, body: Any, ack: Any, reject: Any, _callbacks: Any, **__: Any
    ) -> None:
        try:
            task_id, args, kwargs = _call(message, body)
            pushed = decode_push(task_id, args, kwargs)
        except MessageError as exc:
            raise InvalidTaskError(f"sudoku.solve message refused: {exc}") from exc
        grouper.take(
            pushed,
            partial(settle, message, "acknowledging it", ack),
            partial(settle, message, "rejecting it", reject),
            errors,
        )

    return on_message
