"""Every place the worker bends Celery or kombu is in worker/overrides.py's list, in effect in
the worker's app and tasks, and checked on the Celery and kombu installed.

Messages go through kombu's in-memory transport: a real kombu message, no broker. A connection
lost to a broker restart is what kombu's consumer leaves of it (its transport's client gone).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from celery.app.defaults import NAMESPACES, flatten
from celery.app.task import Task
from celery.exceptions import InvalidTaskError
from celery.worker.worker import WorkController
from kombu import Connection, Exchange, Message, Queue
from kombu.transport.redis import Channel as RedisChannel
from kombu.utils.imports import symbol_by_name
from packaging.requirements import Requirement
from packaging.version import Version

import worker
import worker.tasks.push
import worker.tasks.solve
from tests.worker.test_grouping import Qos
from worker.app import app
from worker.connection_loss import Consumer
from worker.grouping import strategy
from worker.messages import PUSH_TASK_NAME, TASK_NAME
from worker.overrides import (
    ACKS,
    CHECKED_ON,
    CONSUMER,
    LOST_BATCHES,
    OVERRIDES,
    PREFETCH,
    REQUEST,
    STRATEGY,
    Override,
)
from worker.recovery import UNACKED_KEY, LostBatchStep
from worker.request import CheckedRequest

ROOT = Path(__file__).resolve().parents[2]
QUEUE = "overrides-test"


@pytest.mark.parametrize("package", sorted(CHECKED_ON))
def test_the_installed_release_is_one_the_overrides_were_checked_on(package: str) -> None:
    """Celery and kombu are the releases worker/overrides.py was checked on; another one fails
    here, saying what to check before it is admitted."""
    installed = Version(version(package))
    checked = Version(CHECKED_ON[package])
    assert installed.release[:2] == checked.release[:2], (
        f"{package} {installed} is installed, but the Celery and kombu overrides of the worker "
        f"(worker/overrides.py) were checked on {package} {checked} only: read each override's "
        f"internals in {package} {installed}, run tests/integration, then update CHECKED_ON"
    )


def test_pyproject_admits_the_celery_release_the_overrides_were_checked_on() -> None:
    """The dependency range in pyproject.toml still takes the Celery the overrides know."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (celery,) = [r for r in map(Requirement, project["dependencies"]) if r.name == "celery"]
    assert celery.specifier.contains(f"{CHECKED_ON['celery']}.0"), celery


@pytest.mark.parametrize(
    "internal",
    [internal for override in OVERRIDES for internal in override.internals],
)
def test_every_internal_an_override_relies_on_is_in_the_installed_release(internal: str) -> None:
    """Each Celery or kombu name an override replaces or leans on still exists."""
    module, _, path = internal.partition(":")
    found: Any = importlib.import_module(module)
    for attribute in path.split("."):
        assert hasattr(found, attribute), f"{internal} is gone from the installed release"
        found = getattr(found, attribute)


def test_every_override_names_an_implementation_that_exists() -> None:
    """Each entry's implementation imports, and no two entries install the same thing."""
    implementations = [override.implementation for override in OVERRIDES]
    assert len(set(implementations)) == len(implementations)
    for implementation in implementations:
        assert symbol_by_name(implementation) is not None


@dataclass
class Timer:
    """The main process's timer: what is due, fired by the test."""

    due: list[Callable[[], None]] = field(default_factory=list)

    def call_after(self, _seconds: float, fire: Callable[[], None]) -> Any:
        self.due.append(fire)
        return None


class Pool:
    """A pool of one process that finishes each job at once, storing it."""

    limit = 1

    def apply_async(self, run: Any, args: tuple[Any, ...], callback: Any, **_: Any) -> None:
        callback({pushed.task_id: None for pushed in args[0]})


@dataclass
class MainProcess:
    """What a task's strategy is handed by Celery's consumer."""

    qos: Qos = field(default_factory=Qos)
    timer: Timer = field(default_factory=Timer)
    pool: Pool = field(default_factory=Pool)
    connection_errors: tuple[type[BaseException], ...] = ()


@pytest.fixture
def connection() -> Iterator[Connection]:
    """A connection to kombu's in-memory transport."""
    with Connection("memory://") as connection:
        yield connection


def delivered(connection: Connection, task: str, body: Any = None, **kwargs: Any) -> Message:
    """A message of `task` as a worker receives it (its body as Celery makes it, unless given),
    unacknowledged."""
    sent = app.amqp.as_task_v2(f"{task}-1", task, kwargs=kwargs)
    queue = Queue(QUEUE, Exchange(QUEUE), routing_key=QUEUE)  # type: ignore[no-untyped-call]
    with connection.Producer() as producer:
        producer.publish(
            sent.body if body is None else body,
            headers=sent.headers,
            exchange=queue.exchange,
            routing_key=QUEUE,
            declare=[queue],
            serializer="json",
            **sent.properties,
        )
    taken: list[Message] = []
    with connection.Consumer(queue, callbacks=[lambda _body, message: taken.append(message)]):
        connection.drain_events(timeout=1)
    return taken[0]


def lose(connection: Connection) -> None:
    """What a broker restart leaves of the connection: its transport's client is gone."""
    connection._do_close_transport()


def group_one(connection: Connection, closed: bool = False) -> tuple[Message, MainProcess]:
    """One `sudoku.solve` message through the push task's strategy, its group stored."""
    main = MainProcess()
    on_message = app.tasks[PUSH_TASK_NAME].start_strategy(app, main)
    message = delivered(connection, PUSH_TASK_NAME, puzzles=["1" * 81])
    if closed:
        lose(connection)
    on_message(message, None, message.ack_log_error, message.reject_log_error, [])
    assert main.qos.raised == 1, "the prefetch window grows for a message held"
    main.timer.due.pop()()  # the group's wait is over: it goes to the pool, and is stored
    return message, main


def request_for(message: Message) -> Any:
    """The request Celery's default strategy makes of a batch message: the task's class."""
    task = app.tasks[TASK_NAME]
    request_class = symbol_by_name(task.Request)
    return request_class(
        message,
        on_ack=message.ack_log_error,
        on_reject=message.reject_log_error,
        app=app,
        task=task,
    )


def strategy_groups_pushed_messages(connection: Connection) -> None:
    """The push task's messages go to the grouping strategy, acknowledged once stored."""
    assert symbol_by_name(app.tasks[PUSH_TASK_NAME].Strategy) is strategy
    message, _main = group_one(connection)
    assert message.acknowledged


def prefetch_window_follows_the_messages_held(connection: Connection) -> None:
    """The prefetch window grows for a message held and shrinks once it is settled."""
    _message, main = group_one(connection)
    assert main.qos.raised == 0, "the window shrinks back once the message is settled"


def request_refuses_a_body_celery_cannot_unpack(connection: Connection) -> None:
    """The batch task's requests are checked ones: a body Celery cannot unpack is refused."""
    assert symbol_by_name(app.tasks[TASK_NAME].Request) is CheckedRequest
    message = delivered(connection, TASK_NAME, body={"batch_id": 1})  # not [args, kwargs, embed]
    with pytest.raises(InvalidTaskError):
        request_for(message)


def acks_leave_a_message_of_a_lost_connection(connection: Connection) -> None:
    """A batch's request and a group both leave a message of a lost connection unsettled."""
    request = request_for(delivered(connection, TASK_NAME, batch_id=1))
    lose(connection)
    request.acknowledge()
    assert request.acknowledged
    assert not request.message.acknowledged, "settled on a lost connection"
    with Connection("memory://") as another:
        grouped, _main = group_one(another, closed=True)
    assert not grouped.acknowledged


def consumer_survives_a_lost_connection(_connection: Connection) -> None:
    """The worker runs the consumer whose close of a lost connection may fail."""
    assert symbol_by_name(app.conf.worker_consumer) is Consumer
    assert "on_connection_error_after_connected" in vars(Consumer)


def lost_batch_check_reads_kombus_unacked_hash(_connection: Connection) -> None:
    """The worker's blueprint runs the lost-batch check, on the hash kombu writes."""
    steps = WorkController.Blueprint(steps=app.steps["worker"]).claim_steps()
    assert LostBatchStep in steps.values()
    assert RedisChannel.unacked_key == UNACKED_KEY
    assert "unacked_key" not in app.conf.broker_transport_options


IN_EFFECT: dict[Override, Callable[[Connection], None]] = {
    STRATEGY: strategy_groups_pushed_messages,
    PREFETCH: prefetch_window_follows_the_messages_held,
    REQUEST: request_refuses_a_body_celery_cannot_unpack,
    ACKS: acks_leave_a_message_of_a_lost_connection,
    CONSUMER: consumer_survives_a_lost_connection,
    LOST_BATCHES: lost_batch_check_reads_kombus_unacked_hash,
}


@pytest.mark.parametrize("override", OVERRIDES, ids=lambda override: override.name)
def test_every_override_is_in_effect_in_the_worker_app_and_its_tasks(
    override: Override, connection: Connection
) -> None:
    """Each override the list names does its work in the configured app, as Celery calls it."""
    assert override in IN_EFFECT, f"no check that {override.name!r} is in effect: add one here"
    IN_EFFECT[override](connection)


def bends_celery(cls: type) -> bool:
    """Whether a class derives from one of Celery's or kombu's."""
    return any(base.__module__.split(".")[0] in ("celery", "kombu") for base in cls.__mro__[1:])


def worker_classes() -> Iterator[type]:
    """Every class defined in the worker package."""
    for found in pkgutil.walk_packages(worker.__path__, "worker."):
        if found.name != "worker.__main__":
            module = importlib.import_module(found.name)
            yield from (
                value
                for value in vars(module).values()
                if inspect.isclass(value) and value.__module__ == found.name
            )


def test_nothing_bends_celery_or_kombu_that_the_list_does_not_name() -> None:
    """A class of the worker derived from Celery's or kombu's, a task's strategy or request, a
    worker step or a class setting of the app is Celery's own or an override the list names."""
    celery: Celery = app
    listed = {symbol_by_name(override.implementation) for override in OVERRIDES}
    for cls in filter(bends_celery, worker_classes()):
        assert cls in listed or issubclass(cls, Task), f"{cls} bends Celery, unlisted"
    for task in celery.tasks.values():
        assert task.Strategy == Task.Strategy or symbol_by_name(task.Strategy) in listed, task
        assert task.Request == Task.Request or symbol_by_name(task.Request) in listed, task
    steps = [step for blueprint in ("worker", "consumer") for step in celery.steps[blueprint]]
    assert {symbol_by_name(step) for step in steps} <= listed
    class_settings = {
        key: setting.default
        for key, setting in flatten(NAMESPACES)
        if isinstance(setting.default, str) and re.fullmatch(r"[\w.]+:\w+", setting.default)
    }
    for key, default in class_settings.items():
        value = celery.conf[key]
        assert value == default or symbol_by_name(value) in listed, key
