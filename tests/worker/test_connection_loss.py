"""A worker survives a lost broker whose connection fails to close (worker.connection_loss)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from celery.worker.state import active_requests

from worker.app import make_app
from worker.connection_loss import Consumer
from worker.settings import Settings


class LostConnection:
    """A kombu connection after Redis went away: its transport is gone, so closing it fails
    the way kombu's Redis channel does when it tries to restore unacked messages."""

    connection_errors = (ConnectionError,)
    channel_errors = ()
    recoverable_connection_errors = (ConnectionError,)

    def __init__(self) -> None:
        self.closed = False

    def collect(self, socket_timeout: float | None = None) -> None:
        pass

    def close(self) -> None:
        raise AttributeError("'NoneType' object has no attribute 'hostname'")


class Request:
    def __init__(self, acknowledged: bool) -> None:
        self.task = SimpleNamespace(acks_late=True)
        self.acknowledged = acknowledged
        self.cancelled_on: Any = None

    def cancel(self, pool: Any) -> None:
        self.cancelled_on = pool


@pytest.fixture
def running() -> Iterator[list[Request]]:
    """Two batches running in the worker: one acknowledged already, one not."""
    requests = [Request(acknowledged=False), Request(acknowledged=True)]
    active_requests.update(requests)
    yield requests
    active_requests.difference_update(requests)


def consumer_on(connection: LostConnection) -> Consumer:
    consumer = object.__new__(Consumer)  # only what the connection-loss path reads
    consumer.app = make_app(Settings())
    consumer.connection = connection
    consumer.pool = "the pool"
    return consumer


def test_the_worker_is_configured_with_the_consumer_that_survives() -> None:
    assert make_app(Settings()).conf.worker_consumer == "worker.connection_loss:Consumer"


def test_a_failed_close_of_the_lost_connection_does_not_stop_the_worker(
    running: list[Request], caplog: pytest.LogCaptureFixture
) -> None:
    consumer = consumer_on(LostConnection())
    with caplog.at_level(logging.WARNING, logger="worker.connection_loss"):
        consumer.on_connection_error_after_connected(ConnectionError("Connection closed"))
    assert consumer.connection is None  # the consumer goes on to reconnect
    assert "come back after the visibility timeout" in caplog.text


def test_unacknowledged_batches_are_still_cancelled_so_the_broker_redelivers_them(
    running: list[Request],
) -> None:
    unacknowledged, acknowledged = running
    consumer_on(LostConnection()).on_connection_error_after_connected(ConnectionError())
    assert unacknowledged.cancelled_on == "the pool"
    assert acknowledged.cancelled_on is None
