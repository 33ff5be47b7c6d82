"""A pool process storing a group of pushed messages: solved once, stored once, outages waited."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy.exc
from sqlalchemy import func, select

import solver
from db.imports import BatchWork
from db.migrate import upgrade
from db.models import Result, Submission
from db.submissions import REJECTED, Pushed
from worker import database
from worker.tasks import push

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


@pytest.fixture(autouse=True)
def database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path}/pushed.db"
    upgrade(url)
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)
    database.reset_engine()
    yield url
    database.reset_engine()


@pytest.fixture(autouse=True)
def sent(monkeypatch: pytest.MonkeyPatch) -> list[BatchWork]:
    """The deep batches the stores send after commit (kept here, not sent to a broker)."""
    batches: list[BatchWork] = []
    monkeypatch.setattr(push, "_send", batches.append)
    return batches


def count(model: type) -> int:
    with database.open_session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def stored_strings() -> int:
    """Strings stored, over every stored message."""
    with database.open_session() as session:
        return int(session.scalar(select(func.coalesce(func.sum(Submission.size), 0))) or 0)


def test_a_group_is_stored_with_the_solvers_results() -> None:
    outcome = push.store_group([Pushed("t1", [EASY, "junk"]), Pushed("t2", [HARD], one=True)])
    assert outcome == {"t1": None, "t2": None}
    with database.open_session() as session:
        rows = {r.status for r in session.scalars(select(Result))}
    assert rows == {solver.solve(EASY).status}
    assert stored_strings() == 3


def test_a_redelivered_message_changes_nothing() -> None:
    push.store_group([Pushed("t1", [EASY, HARD])])
    push.store_group([Pushed("t1", [EASY, HARD]), Pushed("t2", [EASY])])
    assert (stored_strings(), count(Result)) == (3, 2)


def test_a_database_outage_is_waited_out_before_the_group_goes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = database.open_session
    failures = iter([True, True])
    pauses: list[float] = []

    def flaky() -> Any:
        if next(failures, False):
            raise sqlalchemy.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))
        return real()

    monkeypatch.setattr(push, "open_session", flaky)
    monkeypatch.setattr(push.time, "sleep", pauses.append)
    assert push.store_group([Pushed("t1", [EASY])]) == {"t1": None}
    assert len(pauses) == 2
    assert pauses[0] <= pauses[1] * 2
    assert stored_strings() == 1


def test_with_a_result_backend_each_message_gets_its_result_as_task_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored: dict[str, Any] = {}

    class Backend:
        def store_result(self, task_id: str, value: Any, state: str) -> None:
            stored[task_id] = (state, value)

    monkeypatch.setattr(push.app.conf, "result_backend", "cache+memory://")
    monkeypatch.setattr(type(push.app), "backend", Backend())
    push.store_group([Pushed("one", [EASY], one=True), Pushed("list", [HARD, "junk"])])
    state, value = stored["one"]
    assert (state, value["status"], value["puzzle"]) == ("SUCCESS", "solved", EASY)
    assert [item["status"] for item in stored["list"][1]] == [solver.solve(HARD).status, REJECTED]


def test_a_puzzle_left_pending_gets_one_deep_batch_sent_after_commit(
    sent: list[BatchWork],
) -> None:
    """The hardest puzzle needs more work than the bulk path's budget: it is stored pending,
    with a deep batch of its own in its producer collection, sent once; a redelivered message
    changes nothing and sends nothing."""
    push.store_group([Pushed("hard", [HARD, EASY], collection="web")])
    assert [(work.kind, [givens for _, givens in work.puzzles]) for work in sent] == [
        ("deep", [HARD])
    ]
    with database.open_session() as session:
        states = dict(session.execute(select(Result.puzzle_id, Result.rating_state)).all())
    assert sorted(states.values()) == ["exact", "pending"]
    push.store_group([Pushed("hard", [HARD, EASY], collection="web")])
    assert len(sent) == 1
