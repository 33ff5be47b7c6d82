"""`sudoku-batch result`: what became of pushed puzzles, by puzzle, receipt id or reference."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result

from db.submissions import Pushed, receipt_id
from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.exits import EXIT_FAILED, EXIT_USAGE


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def push(*messages: Pushed) -> None:
    from worker.tasks.push import store_group

    invoke("db", "upgrade")
    store_group(list(messages))


def test_a_pushed_puzzle_is_shown_by_its_string_and_by_its_receipt_id(
    env: dict[str, str],
) -> None:
    first, second = puzzle_lines(2)
    push(Pushed("t1", [first, second]))
    result = invoke("result", first, receipt_id("t1", 1), "--format", "json")
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 0
    assert [row["puzzle"] for row in rows] == [first, second]
    assert rows[1]["id"] == receipt_id("t1", 1)
    assert rows[1]["status"] == "solved"


def test_a_rejected_string_shows_why(env: dict[str, str]) -> None:
    push(Pushed("t1", ["12345"], reference="order-7"))
    result = invoke("result", "--reference", "order-7")
    assert result.exit_code == 0
    assert "rejected" in result.output
    assert "expected 81 cells, got 5" in result.output


def test_a_puzzle_without_a_result_yet_exits_1_saying_so(env: dict[str, str]) -> None:
    push(Pushed("t1", puzzle_lines(1)))
    result = invoke("result", puzzle_lines(2)[1])
    assert result.exit_code == EXIT_FAILED
    assert "1 item of 1 without a result (yet)" in result.output


def test_an_argument_that_is_neither_puzzle_nor_receipt_is_a_usage_error(
    env: dict[str, str],
) -> None:
    result = invoke("result", "hello")
    assert result.exit_code == EXIT_USAGE
    assert "argument 1 is neither a puzzle" in result.output
