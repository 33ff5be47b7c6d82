"""solve(): statuses, search, uniqueness, metrics, the node budget and the result's shape."""

from __future__ import annotations

import json

import pytest

import solver
from solver.board import Board
from solver.ladder import climb
from solver.result import STATUSES

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# A forum_hardest_375 puzzle: without SE's chains (work budget 0) the ladder stalls, search is
# needed.
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"


def test_a_puzzle_the_ladder_finishes_is_solved_by_elimination_without_search() -> None:
    """No guesses, no nodes, a technique count per rung used."""
    result = solver.solve(EASY)
    assert result.status == "solved"
    assert solver.is_solution(EASY, result.solution or "")
    m = result.metrics
    assert m.solved_by_elimination
    assert (m.guesses, m.nodes, m.recursion_depth, m.backtracks) == (0, 0, 0, 0)
    assert m.givens == 17
    assert m.hardest_technique in m.technique_counts


def test_a_puzzle_needing_search_is_solved_with_effort_counted() -> None:
    """Search finds the unique solution and reports guesses, depth and nodes."""
    result = solver.solve(HARD, work_budget=0)
    assert result.status == "solved"
    assert solver.is_solution(HARD, result.solution or "")
    m = result.metrics
    assert not m.solved_by_elimination
    assert m.guesses >= 1
    assert m.nodes == m.guesses + 1
    assert 1 <= m.recursion_depth <= m.guesses
    assert m.backtracks <= m.guesses
    assert result.difficulty == "extreme"


def test_the_empty_grid_is_multiple_after_a_handful_of_nodes() -> None:
    """81 empty cells: two solutions turn up almost at once (a few dozen nodes, no more), SE's
    chains not tried (they would try every assumption in vain first)."""
    result = solver.solve("." * 81, work_budget=0)
    assert result.metrics.nodes <= 100
    assert result.status == "multiple"
    assert result.solution is None
    assert result.difficulty_score is None


def test_a_small_node_budget_gives_up_with_the_metrics_so_far() -> None:
    """Exceeding the node budget stops the search: gave_up, never a hang."""
    result = solver.solve(HARD, node_budget=5, work_budget=0)
    assert result.status == "gave_up"
    assert result.metrics.nodes == 5
    assert result.solution is None
    assert result.difficulty is None


def test_conflicting_givens_are_invalid_not_raised() -> None:
    """Two 5s in row 3 give status invalid with the reason, no solution, no rating."""
    grid = [0] * 81
    grid[19] = grid[24] = 5
    result = solver.solve(tuple(grid))
    assert result.status == "invalid"
    assert result.reason == "digit 5 appears twice in row 3 (columns 2 and 7)"
    assert result.difficulty_score is None


def test_a_cell_without_candidates_is_unsolvable_with_the_cell_named() -> None:
    """Givens that leave r1c9 no digit make the puzzle unsolvable."""
    puzzle = "12345678." + "........9" + "." * 63
    result = solver.solve(puzzle)
    assert result.status == "unsolvable"
    assert result.reason == "cell r1c9 has no candidate left"
    assert result.difficulty is None


def test_a_wrong_given_that_conflicts_with_nothing_is_unsolvable() -> None:
    """A hard puzzle with a wrong extra given has no solution (found by logic or search)."""
    solution = solver.solve(HARD, work_budget=0).solution or ""
    i = HARD.index(".")
    wrong = next(
        d
        for d in "123456789"
        if d != solution[i]
        and solver.find_conflict(solver.parse(HARD[:i] + d + HARD[i + 1 :])) is None
    )
    result = solver.solve(HARD[:i] + wrong + HARD[i + 1 :])
    assert result.status == "unsolvable"
    assert result.reason


def test_a_complete_grid_is_solved_at_the_bottom_of_the_scale() -> None:
    """No empty cell: solved, no technique, score 1.0, label easy."""
    full = solver.solve(EASY).solution or ""
    result = solver.solve(full)
    assert result.status == "solved"
    assert result.metrics.technique_counts == {}
    assert (result.difficulty_score, result.difficulty) == (1.0, "easy")


def test_to_dict_is_plain_json_and_the_result_is_frozen() -> None:
    """to_dict round-trips through json; fields cannot be reassigned."""
    result = solver.solve(HARD, work_budget=0)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["status"] == "solved"
    assert data["metrics"]["technique_counts"] == dict(result.metrics.technique_counts)
    assert (data["metrics"]["work"], data["over_budget"]) == (0, False)
    assert set(data) == {
        "puzzle",
        "status",
        "solution",
        "reason",
        "metrics",
        "difficulty_score",
        "difficulty",
        "ep",
        "ed",
        "rating_exact",
        "over_budget",
    }
    assert result.status in STATUSES
    with pytest.raises(AttributeError):
        result.status = "invalid"  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.metrics.technique_counts["x"] = 1  # type: ignore[index]


def test_the_solver_raises_rather_than_return_a_wrong_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If the independent check ever failed, the reference raises SolverBug, not an answer."""
    monkeypatch.setattr("solver.engine.is_solution", lambda puzzle, solution: False)
    with pytest.raises(solver.SolverBug):
        solver.engine.solve(EASY)


def test_solver_version_is_a_dotted_string() -> None:
    """SOLVER_VERSION looks like 1.2.3."""
    assert solver.SOLVER_VERSION.count(".") == 2


# A puzzle with several solutions that the ladder nevertheless "solves" with a unique
# rectangle, whose deduction assumes a single solution (from multi_solution_10k.txt).
UR_TRAP = "8.........59.......76.........572..8...413.9....8961.....651947...938216...724583"


def test_a_path_using_uniqueness_never_makes_a_multi_solution_puzzle_solved() -> None:
    """The ladder completes the grid via a unique rectangle, yet the status is multiple."""
    board = Board.from_grid(solver.parse(UR_TRAP))
    counts, _ = climb(board)
    assert board.solved()
    assert "unique_rectangle" in counts
    result = solver.solve(UR_TRAP)
    assert result.status == "multiple"
    assert result.difficulty_score is None
    assert result.solution is None


def test_a_unique_puzzle_solved_with_a_unique_rectangle_is_proven_and_rated() -> None:
    """Uniqueness proven by search, the rectangle's value stands (SE rates this one 4.5)."""
    puzzle = "9..8.1..5...6.7...87.....6949.....57.8.....2....375....4.....7...8.6.9..1.9...6.3"
    result = solver.solve(puzzle)
    assert result.status == "solved"
    assert result.metrics.hardest_technique == "unique_rectangle"
    assert result.difficulty_score == 4.5
