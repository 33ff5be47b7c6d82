"""The `sudoku-batch solve` command, driven through click's CliRunner."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from worker.cli import main
from worker.cli.grids import TOP

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one invocation."""
    result = CliRunner().invoke(main, ["solve", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_solve_prints_puzzle_and_solution_as_boxed_grids_side_by_side() -> None:
    """Two boxed grids on the same lines, then the status and metrics; exit 0."""
    code, out, _ = run(EASY)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "┌───────┬───────┬───────┐   ┌───────┬───────┬───────┐"
    assert lines[1] == "│ 4 . . │ . . . │ 8 . 5 │   │ 4 1 7 │ 3 6 9 │ 8 2 5 │"
    assert "status: solved" in out
    assert "hardest technique: pointing" in out
    assert "givens: 17" in out


def test_json_prints_to_dict() -> None:
    """--json prints the result's to_dict as JSON."""
    code, out, _ = run(EASY, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["solution"] == SOLUTION
    assert data["metrics"]["solved_by_elimination"] is True


def grid(puzzle: str) -> str:
    """The puzzle printed as nine rows with `|` and `------+-------+------` rulings."""
    rows = [" ".join(puzzle[r * 9 : r * 9 + 9]) for r in range(9)]
    rows = [f"{row[:5]} | {row[6:11]} | {row[12:]}" for row in rows]
    return "\n".join([*rows[:3], "------+-------+------", *rows[3:6], "-" * 21, *rows[6:]])


def test_a_dash_reads_the_puzzle_from_stdin() -> None:
    """PUZZLE '-' reads its line from standard input; blank lines and comments are skipped."""
    code, out, _ = run("-", "--json", stdin=f"# from a book\n\n{EASY}\n")
    assert code == 0
    assert json.loads(out)["status"] == "solved"


def test_a_dash_reads_a_grid_printed_on_nine_lines() -> None:
    """The whole of standard input is read: a ruled grid on 9 rows (CRLF ends) is one puzzle."""
    code, out, _ = run("-", "--json", stdin=grid(EASY).replace("\n", "\r\n") + "\r\n")
    assert code == 0
    assert json.loads(out)["solution"] == SOLUTION


def test_a_dash_refuses_more_than_one_puzzle() -> None:
    """Two puzzles on standard input are a usage error naming the lines, not the first one
    solved and the second dropped."""
    code, _, err = run("-", stdin=f"{EASY}\n{HARD}\n")
    assert code == 2
    (line,) = err.splitlines()
    assert "standard input holds 2 lines" in line


def test_a_dash_with_conflicting_givens_in_a_grid_exits_1() -> None:
    """A grid read from standard input is judged as a one-line puzzle is: invalid, exit 1."""
    code, _, err = run("-", stdin=grid("55" + "." * 79))
    assert code == 1
    assert "invalid: digit 5 appears twice in row 1 (columns 1 and 2)" in err


def test_a_malformed_puzzle_exits_2_with_the_format_message() -> None:
    """A short line is a format error: exit 2 and the PuzzleFormatError message, one line."""
    code, _, err = run(EASY[:80])
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith("error: ")
    assert "expected 81 cells, got 80" in line


def test_conflicting_givens_exit_1_with_the_reason() -> None:
    """Invalid puzzles exit 1 naming the conflict."""
    code, _, err = run("55" + "." * 79)
    assert code == 1
    assert "invalid: digit 5 appears twice in row 1 (columns 1 and 2)" in err


def test_multiple_solutions_exit_1() -> None:
    """The empty grid has many solutions: exit 1 saying so."""
    code, out, err = run("." * 81)
    assert code == 1
    assert "status: multiple" in out
    assert "more than one solution" in err


@pytest.mark.parametrize(
    ("puzzle", "why"),
    [
        ("." * 81, "multiple: the puzzle has more than one solution"),
        ("55" + "." * 79, "invalid: digit 5 appears twice in row 1 (columns 1 and 2)"),
    ],
)
def test_a_puzzle_without_one_solution_shows_no_solution_grid(puzzle: str, why: str) -> None:
    """Only the givens are drawn, never again as if they were the solution, and a line says
    there is none and why."""
    _, out, _ = run(puzzle)
    assert out.count(TOP) == 1  # one grid: the puzzle's
    assert f"solution: none ({why})" in out


def test_a_tiny_node_budget_exits_1_with_gave_up() -> None:
    """--node-budget 3 on a hard puzzle gives up: exit 1."""
    code, _, err = run(HARD, "--node-budget", "3", "--json")
    assert code == 1
    assert "gave_up" in err


def json_by(puzzle: str, option: str, values: tuple[str, ...]) -> dict[str, Any]:
    """`solve PUZZLE --json OPTION VALUE`'s answer for each value (each exiting 0)."""
    answers = {}
    for value in values:
        code, out, _ = run(puzzle, "--json", option, value)
        assert code == 0
        answers[value] = json.loads(out)
    return answers


def test_the_profile_chooses_the_explainers_ladder_and_json_says_if_the_rating_is_exact() -> None:
    """A skyscraper puzzle: exact on sukaku's ladder, which has the skyscraper; classic SE
    has none, so on classic it takes harder steps and is rated no lower."""
    from tests.solver.test_techniques import CASES

    puzzle = CASES["skyscraper"][0]
    ratings = json_by(puzzle, "--profile", ("sukaku", "classic"))
    assert ratings["sukaku"]["rating_exact"] is True
    assert ratings["sukaku"]["metrics"]["hardest_technique"] == "skyscraper"
    assert "skyscraper" not in ratings["classic"]["metrics"]["technique_counts"]
    assert ratings["classic"]["difficulty_score"] >= ratings["sukaku"]["difficulty_score"]


def test_an_unknown_profile_is_a_usage_error_naming_the_choices() -> None:
    code, _, err = run("." * 81, "--profile", "hodoku")
    assert code == 2
    assert "classic" in err
    assert "sukaku" in err


def test_a_puzzle_rated_by_ses_chains_is_exact_by_default_and_estimated_with_fast() -> None:
    """A puzzle classic SE rates by a forcing XY-chain: SE's 7.2, flagged exact, with no option
    or setting; --fast (or SUDOKU_RATING=fast) skips SE's chains and says it is an estimate."""
    from tests.solver.test_cycles import SE_STEPS

    puzzle = SE_STEPS[4][0]
    code, out, _ = run(puzzle, "--json")
    assert code == 0
    exact = json.loads(out)
    assert (exact["rating_exact"], exact["difficulty_score"]) == (True, 7.2)
    code, out, _ = run(puzzle, "--json", "--fast")
    assert json.loads(out)["rating_exact"] is False
    fast = CliRunner().invoke(main, ["solve", puzzle], env={"SUDOKU_RATING": "fast"})
    assert "estimated: SE's chains were not tried (--fast)" in fast.stdout


def test_a_work_budget_too_small_says_the_rating_is_an_estimate_a_larger_one_may_fix() -> None:
    """With --work-budget smaller than the puzzle's rating needs, the rating is an estimate and
    the output says that the budget ran out; SUDOKU_DEEP_WORK_BUDGET sets it too."""
    from tests.solver.test_cycles import SE_STEPS

    puzzle = SE_STEPS[4][0]
    code, out, _ = run(puzzle, "--work-budget", "1")
    assert code == 0
    assert "spent their work budget (1 units)" in out
    env = {"SUDOKU_DEEP_WORK_BUDGET": "1"}
    result = CliRunner().invoke(main, ["solve", puzzle, "--json"], env=env)
    answer = json.loads(result.stdout)
    assert (answer["rating_exact"], answer["over_budget"]) == (False, True)


def test_a_negative_work_budget_is_a_usage_error() -> None:
    code, _, err = run(EASY, "--work-budget", "-1")
    assert code == 2
    assert "--work-budget" in err
