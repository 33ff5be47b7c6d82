"""The note `import --wait` shows about the queue's consumers, with the workers imitated."""

from __future__ import annotations

import kombu.exceptions
import pytest
from celery import Celery

from worker.app import producer_app
from worker.consumers import ASK_EVERY, QueueWatch

URL = "redis://:s3cret@127.0.0.1:6379/0"


class Workers:
    """Answers the question `consumers` asks, counting how often it was asked."""

    def __init__(self, *names: str) -> None:
        self.names = list(names)
        self.asked = 0
        self.down = False

    def __call__(self, _celery: Celery, _queue: str) -> list[str]:
        self.asked += 1
        if self.down:
            raise kombu.exceptions.OperationalError("Error 111 connecting. Connection refused.")
        return self.names


@pytest.fixture
def celery() -> Celery:
    return producer_app(URL, "sudoku")


def test_no_worker_is_a_note_naming_the_queue_the_broker_and_what_to_run(celery: Celery) -> None:
    """Nobody consumes the queue: the note says where, and to start `sudoku-batch worker`."""
    note = QueueWatch(celery, "sudoku", Workers()).note()
    assert note.startswith("no worker consumes queue 'sudoku' on redis://:***@127.0.0.1:6379/0:")
    assert "start one with `sudoku-batch worker`" in note
    assert "s3cret" not in note


def test_a_consuming_worker_clears_the_note(celery: Celery) -> None:
    """Once a worker consumes the queue, there is nothing to say."""
    assert QueueWatch(celery, "sudoku", Workers("w1@host")).note() == ""


def test_the_workers_are_asked_at_most_every_few_seconds(celery: Celery) -> None:
    """Each question waits for replies: asked again only after ASK_EVERY seconds."""
    workers, now = Workers(), [100.0]
    watch = QueueWatch(celery, "sudoku", workers, clock=lambda: now[0])
    watch.note()
    now[0] += ASK_EVERY / 2
    watch.note()
    assert workers.asked == 1
    workers.names.append("w1@host")
    now[0] += ASK_EVERY
    assert watch.note() == ""
    assert workers.asked == 2


def test_while_work_gets_finished_nobody_is_asked(celery: Celery) -> None:
    """Batches finished since the last look prove a worker consumes the queue: the note clears
    without a question (each waits for every worker's reply) until nothing has been finished
    for ASK_EVERY seconds."""
    workers, now = Workers(), [100.0]
    watch = QueueWatch(celery, "sudoku", workers, clock=lambda: now[0])
    assert watch.note() != ""
    for _ in range(5):
        now[0] += ASK_EVERY
        assert watch.note(finished=True) == ""
    assert workers.asked == 1
    now[0] += ASK_EVERY / 2
    assert watch.note() == ""
    assert workers.asked == 1
    now[0] += ASK_EVERY
    assert watch.note() != ""  # nothing finished for a while, and nobody answers
    assert workers.asked == 2


def test_a_broker_that_stops_answering_is_a_note_not_an_error(celery: Celery) -> None:
    """The question fails: the note says the broker does not answer; the wait goes on."""
    workers = Workers()
    workers.down = True
    note = QueueWatch(celery, "sudoku", workers).note()
    assert note.startswith("the broker redis://:***@127.0.0.1:6379/0 does not answer")
    assert note.endswith("still waiting")
