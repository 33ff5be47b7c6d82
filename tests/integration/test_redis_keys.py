"""The tests keep to a Redis database of their own and take their keys with them."""

from __future__ import annotations

import redis

from tests.conftest import REDIS_URL
from tests.integration.conftest import forget_queue
from worker.app import producer_app


def test_the_tests_use_a_redis_database_other_than_the_default_one() -> None:
    """Database 0 is where a developer's own broker lives: the tests stay out of it."""
    assert not REDIS_URL.rstrip("/").endswith(("/0", ":6379"))


def test_a_queue_used_by_a_test_leaves_no_key_behind(real_redis: str) -> None:
    """A message sent to a test queue leaves the queue and kombu's bindings: all removed."""
    queue = "sudoku-test-keys"
    producer_app(real_redis, queue).send_task("sudoku.solve_batch", kwargs={})
    client = redis.Redis.from_url(real_redis)
    assert list(client.scan_iter(match=f"*{queue}*"))
    forget_queue(client, queue)
    assert list(client.scan_iter(match=f"*{queue}*")) == []
