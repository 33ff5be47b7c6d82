"""The `sudoku-batch explain` command, driven through click's CliRunner."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

import solver
from tests.worker.conftest import puzzle_lines
from worker.cli import main

# The sample's first puzzles: singles only; pointing (2.6); one of SE's cycles (7.2); one the
# ladder leaves to search without SE's chains (--fast).
SINGLES, POINTING, CYCLE, NEEDS_SEARCH = (puzzle_lines(15)[k] for k in (0, 3, 14, 8))
# SE's hints: the value, the technique, then `rNcM=D` placed and `rNcM<>D` removed.
HINT = re.compile(r"\d+\.\d, [a-z_0-9]+( \(estimated\))?: r\dc\d(=|<>)\d(, r\dc\d(=|<>)\d)*")


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one invocation."""
    result = CliRunner().invoke(main, ["explain", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_each_step_is_one_line_in_se_hints_format_then_the_rating() -> None:
    """One line per step of the path, as SE's hints print it, and last the rating line."""
    code, out, _ = run(POINTING)
    assert code == 0
    *lines, rating = out.splitlines()
    path = solver.solving_path(POINTING)
    assert len(lines) == len(path.steps)
    assert all(HINT.fullmatch(line) for line in lines), lines
    assert "2.6, pointing: " in out
    assert rating == "ER 2.6, EP 1.5, ED 1.5 (SE values of the path)"


def test_a_step_rated_by_estimate_says_so() -> None:
    """With --fast (SE's chains off), the steps of our forcing chain are marked (estimated)."""
    code, out, _ = run(CYCLE, "--fast")
    assert code == 0
    marked = [line for line in out.splitlines() if "(estimated)" in line]
    assert marked
    assert all(HINT.fullmatch(line) for line in marked)
    assert all(line.split(", ")[1].startswith("forcing_chain (estimated): ") for line in marked)


def test_a_hint_shows_the_cells_placed_and_removed() -> None:
    """A placing step reads `value, technique: r1c5=4, ...`; a removing one `rNcM<>D`."""
    _, out, _ = run(POINTING)
    path = solver.solving_path(POINTING)
    first, pointing = path.steps[0], next(s for s in path.steps if s.technique == "pointing")
    i, d = first.placed[0]
    assert out.splitlines()[0].startswith(f"{first.value:.1f}, {first.technique}: ")
    assert f"r{i // 9 + 1}c{i % 9 + 1}={d}" in out.splitlines()[0]
    j, e = pointing.removed[0]
    assert f"2.6, pointing: r{j // 9 + 1}c{j % 9 + 1}<>{e}" in out


def test_json_holds_the_rating_and_the_steps_of_solving_path() -> None:
    """--json parses; its steps are solver.solving_path's and its rating solve's, with the
    default work budget (SE's chains on: exact)."""
    code, out, _ = run(CYCLE, "--json")
    assert code == 0
    data = json.loads(out)
    path = solver.solving_path(CYCLE)
    result = solver.solve(CYCLE)
    assert data["steps"] == [step.to_dict() for step in path.steps]
    expected = (CYCLE, "classic", solver.work.DEEP, False)
    assert (data["puzzle"], data["profile"], data["work_budget"], data["over_budget"]) == expected
    assert (data["difficulty_score"], data["ep"], data["ed"]) == (7.2, result.ep, result.ed)
    assert (data["status"], data["solution"], data["rating_exact"]) == (
        "solved",
        result.solution,
        True,
    )
    assert (data["stalled"], data["contradiction"]) == ([], None)


def test_the_profile_option_picks_the_ladder() -> None:
    """--profile sukaku climbs SukakuExplainer's ladder, as solve does."""
    code, out, _ = run(SINGLES, "--json", "--profile", "sukaku")
    assert code == 0
    data = json.loads(out)
    assert data["profile"] == "sukaku"
    assert data["steps"] == solver.solving_path(SINGLES, profile="sukaku").to_dict()["steps"]


def test_a_stalled_path_says_which_cells_are_left_and_gives_the_solution() -> None:
    """Without SE's chains (--fast) the ladder stalls: a line lists the empty cells left, then
    the solution found by search, then the estimated rating, saying why."""
    code, out, _ = run(NEEDS_SEARCH, "--fast")
    assert code == 0
    lines = out.splitlines()
    stalled = solver.solving_path(NEEDS_SEARCH, work_budget=0).stalled
    assert lines[-3].startswith(f"stalled: the ladder leaves {len(stalled)} empty cells: r1c1, ")
    assert lines[-2] == f"solution (by search): {solver.solve(NEEDS_SEARCH).solution}"
    assert lines[-1].endswith("(estimated: SE's chains were not tried (--fast))")


def test_a_path_whose_work_budget_runs_out_says_so_and_what_the_rating_is() -> None:
    """A work budget too small for the puzzle's chains: the path says the budget ran out, and
    the rating line that it is an estimate a larger --work-budget may make exact."""
    code, out, _ = run(CYCLE, "--work-budget", "5")
    assert code == 0
    lines = out.splitlines()
    assert "spent their work budget" in lines[-2]
    assert "spent their work budget (5 units)" in lines[-1]
    exact = run(CYCLE)[1].splitlines()[-1]
    assert exact.endswith("(SE values of the path)")


def test_a_dash_reads_the_puzzle_from_stdin() -> None:
    """PUZZLE '-' reads standard input as solve does."""
    code, out, _ = run("-", "--json", stdin=f"# a comment\n{SINGLES}\n")
    assert code == 0
    assert json.loads(out)["puzzle"] == SINGLES


def test_a_malformed_puzzle_exits_2_with_the_format_message() -> None:
    """A short line is solve's format error: exit 2, one line on stderr."""
    code, _, err = run(SINGLES[:80])
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith("error: ")
    assert "expected 81 cells, got 80" in line


@pytest.mark.parametrize(
    ("puzzle", "message"),
    [
        ("55" + "." * 79, "invalid: digit 5 appears twice in row 1 (columns 1 and 2)"),
        ("." * 81, "multiple: the puzzle has more than one solution"),
    ],
    ids=["conflicting", "multiple"],
)
def test_a_puzzle_without_one_solution_exits_1_as_solve_does(puzzle: str, message: str) -> None:
    """Conflicting givens or several solutions: solve's error line and exit code 1, after a
    path saying where it stopped and no rating."""
    code, out, err = run(puzzle)
    assert code == 1
    assert err == f"error: {message}\n"
    assert out.splitlines()[-1] == "not rated"
