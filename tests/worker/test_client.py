"""The producer's Client, against a real SQLite database: waiting, and re-sending what a
broker lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.migrate import upgrade
from db.submissions import Pushed
from tests.worker.conftest import puzzle_lines
from worker import database
from worker.client import Client, Receipt, WaitTimeout


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Client:
    url = f"sqlite:///{tmp_path}/client.db"
    upgrade(url)
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)  # the "worker" below stores there
    database.reset_engine()
    return Client("redis://127.0.0.1:1/0", url, message_size=2)


def lost(client: Client, monkeypatch: pytest.MonkeyPatch) -> list[list[Receipt]]:
    """Make every first send of a message vanish (a broker that lost it) and every later one
    arrive at a worker at once; the messages sent, in order."""
    from worker.tasks.push import store_group

    sent: list[list[Receipt]] = []

    def send(message: list[Receipt]) -> None:
        if any(message[0].task_id == earlier[0].task_id for earlier in sent):
            store_group([Pushed(message[0].task_id, [r.puzzle for r in message])])
        sent.append(message)

    monkeypatch.setattr(client, "_send", send)
    return sent


def test_wait_resends_the_messages_that_never_arrived(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = lost(client, monkeypatch)
    notes: list[str] = []
    client.on_wait = notes.append
    receipts = client.submit(puzzle_lines(3))
    results = client.wait(receipts, timeout=30, resend_after=0.3)
    assert [r["puzzle"] for r in results if r] == puzzle_lines(3)
    assert len(sent) == 4  # two messages, each sent twice
    assert any("sending them again" in note for note in notes)


def test_without_resending_a_lost_message_is_a_timeout_naming_the_missing(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost(client, monkeypatch)
    receipts = client.submit(puzzle_lines(3))
    with pytest.raises(WaitTimeout, match="2 of 2 messages not stored"):
        client.wait(receipts, timeout=0.3)
    assert client.missing(receipts) == receipts


def test_wait_stored_returns_once_every_message_is_stored_reading_nothing_back(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = lost(client, monkeypatch)
    receipts = client.submit(puzzle_lines(3))
    seen: list[tuple[int, int]] = []
    client.wait_stored(receipts, timeout=30, resend_after=0.3, progress=lambda *n: seen.append(n))
    assert len(sent) == 4
    assert seen[-1] == (2, 2)
    assert client.missing(receipts) == []
    assert [r and r["puzzle"] for r in client.results(receipts)] == puzzle_lines(3)
