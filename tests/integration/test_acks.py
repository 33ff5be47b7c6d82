"""A batch that finishes after its broker connection was replaced (Redis restarted) is left
for redelivery, neither acknowledged on the dead connection nor lost."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import redis
from kombu import Connection, Message
from kombu.common import ignore_errors

from tests.integration.services import OwnRedis
from worker.acks import delivered_on_closed_connection
from worker.app import make_app
from worker.messages import TASK_NAME
from worker.request import CheckedRequest
from worker.settings import Settings
from worker.tasks.solve import solve_batch_task

QUEUE = "acks-test"


@pytest.fixture
def delivered(own_redis: OwnRedis) -> Iterator[tuple[Connection, Message]]:
    """A batch message taken from `own_redis` by a consumer connection, still unacked."""
    app = make_app(Settings(broker_url=own_redis.url, queue=QUEUE))
    app.send_task(TASK_NAME, kwargs={"batch_id": 1}, queue=QUEUE)
    connection = Connection(own_redis.url)
    taken: list[Message] = []
    queue = app.amqp.queues[QUEUE]
    with connection.Consumer(queue, callbacks=[lambda _body, message: taken.append(message)]):
        connection.drain_events(timeout=5)
    yield connection, taken[0]
    connection.release()


def request_for(message: Message) -> CheckedRequest:
    return CheckedRequest(
        message,
        on_ack=message.ack_log_error,
        on_reject=message.reject_log_error,
        app=solve_batch_task.app,
        task=solve_batch_task,
        connection_errors=(redis.exceptions.ConnectionError,),
    )


def unacked(url: str) -> int:
    return int(redis.Redis.from_url(url).hlen("unacked"))


def test_a_message_on_a_live_connection_is_acknowledged(
    own_redis: OwnRedis, delivered: tuple[Connection, Message]
) -> None:
    _connection, message = delivered
    assert unacked(own_redis.url) == 1
    request_for(message).acknowledge()
    assert unacked(own_redis.url) == 0


def test_a_message_whose_connection_was_closed_by_a_redis_restart_is_left_for_redelivery(
    own_redis: OwnRedis,
    delivered: tuple[Connection, Message],
    caplog: pytest.LogCaptureFixture,
) -> None:
    connection, message = delivered
    own_redis.stop()
    ignore_errors(connection, connection.close)  # what the worker's consumer does on the loss
    own_redis.start()
    assert delivered_on_closed_connection(message)
    request = request_for(message)
    with caplog.at_level(logging.WARNING, logger="worker.acks"):
        request.acknowledge()
        request.reject(requeue=True)  # settled once: a second settlement changes nothing
    assert request.acknowledged
    assert unacked(own_redis.url) == 1, "the message must stay unacked, to come back"
    assert "left to come back after the visibility timeout" in caplog.text
    assert caplog.text.count("came on a broker connection closed since") == 1
