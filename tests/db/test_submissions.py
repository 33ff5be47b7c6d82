"""Pushed puzzle strings: stored as lines of a producer collection, read back by message."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from db.errors import CollectionConflict
from db.imports import get_or_create_collection
from db.models import Collection, RejectedLine, Result, Submission
from db.removal import delete_collection
from db.results import ResultRow
from db.submissions import (
    REJECTED,
    Parsed,
    Pushed,
    missing_tasks,
    parse_receipt_id,
    pushed_results,
    receipt_id,
    results_of,
    store_pushed,
    stored_tasks,
)
from tests.db.conftest import grid, result_row
from tests.db.test_queries import example_queries

BAD = "not a puzzle"
PARSED = {grid(n): Parsed(grid(n)) for n in range(1, 10)} | {
    BAD: Parsed(None, "illegal character 'n' (U+006E) at column 1", 1)
}


def made(puzzles: Sequence[tuple[int, str]]) -> list[ResultRow]:
    return [result_row(puzzle_id) for puzzle_id, _ in puzzles]


def store(session: Session, collection: str, *messages: Pushed) -> int:
    named = [replace(message, collection=collection) for message in messages]
    stored = store_pushed(session, named, PARSED, made)
    session.commit()
    assert stored.refused == {}
    return stored.inserted


def count(session: Session, model: type) -> int:
    return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_each_pushed_string_is_a_line_of_its_producer_collection(session: Session) -> None:
    inserted = store(
        session, "web", Pushed("t1", [grid(1), BAD, grid(2)]), Pushed("t2", [grid(1)], one=True)
    )
    web = session.scalars(select(Collection).where(Collection.name == "web")).one()
    assert inserted == 2
    assert web.origin == "producer"
    assert (web.lines_read, web.accepted, web.duplicates, web.rejected) == (4, 2, 1, 1)
    assert (web.total, web.done) == (2, 2)
    assert count(session, Submission) == 2  # a row a message, however many strings
    shown = pushed_results(session, ["t1", "t2"])
    assert [(row["position"], row["line"]) for row in shown["t1"]] == [(0, 1), (1, 2), (2, 3)]
    assert [(row["position"], row["line"]) for row in shown["t2"]] == [(0, 4)]


def test_a_string_that_is_not_a_puzzle_is_a_rejected_line_with_its_reason(
    session: Session,
) -> None:
    store(session, "web", Pushed("t1", [grid(1), BAD]))
    refused = session.scalars(select(RejectedLine)).one()
    assert (refused.line, refused.column, refused.raw_text) == (2, 1, BAD)
    shown = pushed_results(session, ["t1"])["t1"]
    assert [row["status"] for row in shown] == ["solved", REJECTED]
    assert shown[1]["reason"] == PARSED[BAD].reason
    assert shown[1]["id"] == receipt_id("t1", 1)


def test_a_known_puzzle_is_not_given_a_second_result(session: Session) -> None:
    store(session, "a", Pushed("t1", [grid(1)]))
    asked: list[str] = []

    def solving(puzzles: Sequence[tuple[int, str]]) -> list[ResultRow]:
        asked.extend(givens for _, givens in puzzles)
        return made(puzzles)

    stored = store_pushed(session, [Pushed("t2", [grid(1), grid(2)], "b")], PARSED, solving)
    assert (stored.inserted, asked) == (1, [grid(2)])
    assert count(session, Result) == 2


def test_lines_continue_where_the_collection_stopped(session: Session) -> None:
    store(session, "web", Pushed("t1", [grid(1), grid(2)]))
    store(session, "web", Pushed("t2", [grid(3)]))
    assert [row["line"] for row in pushed_results(session, ["t2"])["t2"]] == [3]


def test_a_stored_message_is_known_so_a_redelivery_is_skipped(session: Session) -> None:
    store(session, "web", Pushed("t1", [grid(1)]))
    assert stored_tasks(session, ["t1", "t2"]) == {"t1"}
    assert missing_tasks(session, ["t2", "t1"]) == ["t2"]


def test_pushing_to_an_imported_files_collection_is_refused(session: Session) -> None:
    get_or_create_collection(session, "book", "/data/book.txt", "ab" * 32)
    stored = store_pushed(
        session, [Pushed("t1", [grid(1)], "book"), Pushed("t2", [grid(2)], "web")], PARSED, made
    )
    assert list(stored.refused) == ["t1"]
    assert "holds an imported file" in stored.refused["t1"]
    assert stored.inserted == 1  # t2's puzzle only: nothing of a refused message is stored
    assert missing_tasks(session, ["t1", "t2"]) == ["t1"]


def test_importing_a_file_under_a_producer_collections_name_is_refused(session: Session) -> None:
    store(session, "web", Pushed("t1", [grid(1)]))
    with pytest.raises(CollectionConflict, match="pushed by producers"):
        get_or_create_collection(session, "web", str(Path("x.txt").absolute()), "cd" * 32)


def test_results_are_found_by_receipt_and_by_puzzle_in_the_order_asked(session: Session) -> None:
    store(session, "web", Pushed("t1", [grid(1), grid(2)]))
    found = results_of(session, [("t1", 1), grid(1), ("t1", 7), ("t9", 0), grid(5)])
    assert found[0] is not None
    assert found[0]["puzzle"] == grid(2)
    assert found[1] is not None
    assert found[1]["status"] == "solved"
    assert found[2:] == [None, None, None]


def test_deleting_a_producer_collection_takes_its_submissions(session: Session) -> None:
    store(session, "web", Pushed("t1", [grid(1), BAD]))
    delete_collection(session, "web")
    session.commit()
    assert count(session, Submission) == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0f2c1d7e-aaaa-bbbb-cccc-123456789abc:12", ("0f2c1d7e-aaaa-bbbb-cccc-123456789abc", 12)),
        ("my-own-id:0", ("my-own-id", 0)),
        (grid(3), None),
        ("no position:", None),
        (":3", None),
    ],
)
def test_a_receipt_id_is_a_task_id_and_a_position(
    text: str, expected: tuple[str, int] | None
) -> None:
    assert parse_receipt_id(text) == expected


def test_the_readmes_query_by_reference_finds_each_pushed_puzzle_and_its_position(
    session: Session,
) -> None:
    store(session, "web", Pushed("t1", [grid(1)], reference="order-1"))
    store(
        session,
        "web",
        Pushed("t2", [grid(2), BAD, grid(3)], reference="order-1234"),
        Pushed("t3", [grid(4)], reference="order-1234"),
    )
    sql = example_queries(session.get_bind().dialect.name)["by_reference"]
    rows = session.execute(text(sql.strip().rstrip(";"))).all()
    assert [(task, position, puzzle) for task, position, puzzle, *_ in rows] == [
        ("t2", 0, grid(2)),
        ("t2", 2, grid(3)),
        ("t3", 0, grid(4)),
    ]
    assert {row.status for row in rows} == {"solved"}
