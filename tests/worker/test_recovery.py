"""A worker re-sends a batch whose message the broker lost, and only such a batch, once.

The broker is fakeredis on a socket; a worker taking a message is imitated as kombu does it:
RPOP from the queue, then the message kept in the `unacked` hash until it is acknowledged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner

from db.results import record_batch_failure
from worker.app import make_app
from worker.cli import main
from worker.database import open_session, reset_engine
from worker.messages import batch_sender
from worker.recovery import UNACKED_KEY, LostBatchCheck

QUEUE = "sudoku-recovery-test"


@pytest.fixture
def broker(
    monkeypatch: pytest.MonkeyPatch, database_url: str, fake_broker: str, puzzle_file: Path
) -> Iterator[redis.Redis]:
    """The 120-puzzle file imported into a fresh database as three batches, all sent."""
    from db.migrate import upgrade

    upgrade(database_url)
    for key, value in {
        "SUDOKU_DATABASE_URL": database_url,
        "SUDOKU_BROKER_URL": fake_broker,
        "SUDOKU_QUEUE": QUEUE,
        "SUDOKU_BATCH_SIZE": "50",
    }.items():
        monkeypatch.setenv(key, value)
    reset_engine()
    client = redis.Redis.from_url(fake_broker)
    client.delete(QUEUE, UNACKED_KEY)
    result = CliRunner().invoke(main, ["import", str(puzzle_file)], catch_exceptions=False)
    assert result.exit_code == 3, result.output  # 3: the fixture file has one bad line
    assert client.llen(QUEUE) == 3
    yield client
    client.delete(QUEUE, UNACKED_KEY)
    reset_engine()


def checker(broker: redis.Redis) -> LostBatchCheck:
    return LostBatchCheck(broker, [QUEUE], batch_sender(make_app(), patient=False))


def take(broker: redis.Redis, *, hold: bool) -> int:
    """A worker takes the next message: kept as unacknowledged (`hold`) or lost on the way."""
    raw = broker.rpop(QUEUE)
    assert isinstance(raw, bytes)
    message = json.loads(raw)
    if hold:
        entry = json.dumps([message, QUEUE, QUEUE])
        broker.hset(UNACKED_KEY, message["properties"]["delivery_tag"], entry)
    return batch_id_of(message)


def batch_id_of(message: dict[str, object]) -> int:
    import base64

    body = json.loads(base64.b64decode(str(message["body"])))
    return int(body[1]["batch_id"])


def queued_batches(broker: redis.Redis) -> list[int]:
    return [batch_id_of(json.loads(raw)) for raw in broker.lrange(QUEUE, 0, -1)]


def test_a_lost_batch_is_sent_again_after_two_checks_find_it_missing(
    broker: redis.Redis,
) -> None:
    """Two messages held by workers, one lost between RPOP and `unacked`: that one comes back."""
    take(broker, hold=True)
    take(broker, hold=True)
    lost = take(broker, hold=False)
    check = checker(broker)
    assert check.check() == []  # missing once may be a message in flight
    assert check.check() == [lost]
    assert queued_batches(broker) == [lost]
    assert check.check() == []  # queued again: nothing is missing any more


def test_nothing_is_sent_while_the_queue_still_holds_messages(broker: redis.Redis) -> None:
    take(broker, hold=False)
    check = checker(broker)
    assert [check.check(), check.check()] == [[], []]
    assert broker.llen(QUEUE) == 2


def test_batches_held_by_workers_alive_or_dead_are_left_to_the_broker(
    broker: redis.Redis,
) -> None:
    for _ in range(3):
        take(broker, hold=True)
    check = checker(broker)
    assert [check.check(), check.check()] == [[], []]
    assert broker.llen(QUEUE) == 0


def test_a_batch_finished_between_two_checks_is_not_sent(broker: redis.Redis) -> None:
    take(broker, hold=True)
    take(broker, hold=True)
    lost = take(broker, hold=False)
    check = checker(broker)
    check.check()
    with open_session() as session:
        assert record_batch_failure(session, lost, "stored by a late worker")
        session.commit()
    assert check.check() == []
    assert broker.llen(QUEUE) == 0


def test_two_workers_checking_at_once_send_a_lost_batch_once(broker: redis.Redis) -> None:
    for _ in range(3):
        take(broker, hold=False)
    first, second = checker(broker), checker(broker)
    first.check()
    second.check()
    resent = first.check() + second.check()
    assert sorted(resent) == sorted(queued_batches(broker))
    assert len(resent) == 3


def test_other_applications_messages_and_garbage_in_unacked_are_ignored(
    broker: redis.Redis,
) -> None:
    """An entry naming the same batch for another queue does not hide the lost one."""
    lost = take(broker, hold=False)
    take(broker, hold=True)
    take(broker, hold=True)
    raw = broker.hget(UNACKED_KEY, broker.hkeys(UNACKED_KEY)[0])
    assert isinstance(raw, bytes)
    message = json.loads(raw)[0]
    broker.hset(UNACKED_KEY, "other-app", json.dumps([message, "other", "other"]))
    broker.hset(UNACKED_KEY, "garbage", b"\xff not json")
    broker.hset(UNACKED_KEY, "short", json.dumps([1, 2]))
    check = checker(broker)
    check.check()
    assert check.check() == [lost]
