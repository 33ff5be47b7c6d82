"""Grouping pushed messages on the worker: a group a pool job, acks only after it is stored."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from db.submissions import Pushed
from worker.grouping import HELD_GROUPS, Grouper
from worker.settings import Settings

SETTINGS = Settings(group_size=3, group_wait=0.05, task_max_retries=2)


@dataclass
class Qos:
    """The consumer's prefetch window: how far it was raised."""

    raised: int = 0

    def increment_eventually(self) -> None:
        self.raised += 1

    def decrement_eventually(self) -> None:
        self.raised -= 1


@dataclass
class Entry:
    fire: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Timer:
    entries: list[Entry] = field(default_factory=list)

    def call_after(self, seconds: float, fire: Callable[[], None]) -> Entry:
        self.entries.append(Entry(fire))
        return self.entries[-1]


@dataclass
class Pool:
    """Runs nothing: each job waits for the test to say how it ended."""

    jobs: list[dict[str, Any]] = field(default_factory=list)

    def apply_async(self, run: Any, args: tuple[Any, ...], **callbacks: Any) -> None:
        self.jobs.append({"group": args[0], **callbacks})

    def finish(self, index: int = 0) -> None:
        job = self.jobs.pop(index)
        job["callback"]({p.task_id: None for p in job["group"]})

    def fail(self, index: int = 0, error: BaseException | None = None) -> None:
        job = self.jobs.pop(index)
        job["error_callback"](error or RuntimeError("pool process lost"))


@dataclass
class Consumer:
    qos: Qos = field(default_factory=Qos)
    timer: Timer = field(default_factory=Timer)
    pool: Pool = field(default_factory=Pool)


@dataclass
class Broker:
    """What became of each message: acked, requeued or dropped."""

    settled: dict[str, list[str]] = field(default_factory=dict)

    def take(self, grouper: Grouper, task_id: str, puzzles: int = 1) -> None:
        def ack(*_: Any) -> None:
            self.settled.setdefault(task_id, []).append("acked")

        def reject(*_: Any, requeue: bool) -> None:
            self.settled.setdefault(task_id, []).append("requeued" if requeue else "dropped")

        grouper.take(Pushed(task_id, ["x"] * puzzles), ack, reject, ())


@pytest.fixture
def consumer() -> Consumer:
    return Consumer()


@pytest.fixture
def grouper(consumer: Consumer) -> Grouper:
    return Grouper(consumer, run=lambda group: None, settings=SETTINGS)


def test_a_group_goes_to_the_pool_once_it_holds_group_size_puzzles(
    consumer: Consumer, grouper: Grouper
) -> None:
    broker = Broker()
    for task_id in ("a", "b"):
        broker.take(grouper, task_id)
    assert consumer.pool.jobs == []
    broker.take(grouper, "c")
    assert [p.task_id for p in consumer.pool.jobs[0]["group"]] == ["a", "b", "c"]
    assert consumer.timer.entries[0].cancelled


def test_a_group_that_does_not_fill_goes_when_its_wait_is_over(
    consumer: Consumer, grouper: Grouper
) -> None:
    broker = Broker()
    broker.take(grouper, "a")
    consumer.timer.entries[0].fire()
    assert [p.task_id for p in consumer.pool.jobs[0]["group"]] == ["a"]


def test_a_list_message_fills_a_group_by_itself(consumer: Consumer, grouper: Grouper) -> None:
    Broker().take(grouper, "list", puzzles=500)
    assert len(consumer.pool.jobs) == 1


def test_messages_are_acked_only_once_their_group_is_stored(
    consumer: Consumer, grouper: Grouper
) -> None:
    broker = Broker()
    for task_id in "abc":
        broker.take(grouper, task_id)
    assert broker.settled == {}
    consumer.pool.finish()
    assert broker.settled == {"a": ["acked"], "b": ["acked"], "c": ["acked"]}


def test_a_failed_group_goes_back_to_the_queue_and_each_message_is_retried_alone(
    consumer: Consumer, grouper: Grouper
) -> None:
    broker = Broker()
    for task_id in "abc":
        broker.take(grouper, task_id)
    consumer.pool.fail()
    assert broker.settled == {"a": ["requeued"], "b": ["requeued"], "c": ["requeued"]}
    broker.take(grouper, "b")  # redelivered: a group of its own at once
    assert [p.task_id for p in consumer.pool.jobs[0]["group"]] == ["b"]


def test_a_message_that_keeps_failing_is_dropped_after_the_retries(
    consumer: Consumer, grouper: Grouper
) -> None:
    broker = Broker()
    for _ in range(SETTINGS.task_max_retries + 1):
        broker.take(grouper, "poison")
        consumer.timer.entries[-1].fire() if not consumer.pool.jobs else None
        consumer.pool.fail()
    assert broker.settled["poison"] == ["requeued"] * SETTINGS.task_max_retries + ["dropped"]


def test_a_database_outage_counts_against_no_message_however_long(
    consumer: Consumer,
) -> None:
    grouper = Grouper(consumer, run=lambda group: None, settings=SETTINGS, outage=(TimeoutError,))
    broker = Broker()
    for _ in range(SETTINGS.task_max_retries + 3):
        broker.take(grouper, "m")
        if not consumer.pool.jobs:
            consumer.timer.entries[-1].fire()
        consumer.pool.fail(error=TimeoutError("database unreachable"))
    assert set(broker.settled["m"]) == {"requeued"}


def test_the_prefetch_window_grows_with_the_messages_held_and_shrinks_as_they_settle(
    consumer: Consumer, grouper: Grouper
) -> None:
    broker = Broker()
    cap = HELD_GROUPS * SETTINGS.group_size
    for n in range(cap + 2):
        broker.take(grouper, f"m{n}")
    assert consumer.qos.raised == cap
    while consumer.pool.jobs:
        consumer.pool.finish()
    consumer.timer.entries[-1].fire()
    while consumer.pool.jobs:
        consumer.pool.finish()
    assert consumer.qos.raised == 0
