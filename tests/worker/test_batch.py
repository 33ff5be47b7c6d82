"""solve_batch: one stored row per puzzle, exactly what the solver says."""

from __future__ import annotations

import json

import solver
from worker.batch import solve_batch

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EMPTY = "." * 81


def test_every_puzzle_of_a_batch_gets_one_row_matching_the_solver() -> None:
    """Rows come back in order, keyed by puzzle id, with the solver's status and metrics."""
    rows = solve_batch(1, [(10, EASY), (11, HARD), (12, EMPTY)])
    assert [row["puzzle_id"] for row in rows] == [10, 11, 12]
    for row, givens in zip(rows, (EASY, HARD, EMPTY), strict=True):
        expected = solver.solve(givens)
        assert row["status"] == expected.status
        assert row["solution"] == expected.solution
        assert row["difficulty"] == expected.difficulty
        assert row["difficulty_score"] == expected.difficulty_score
        assert row["guesses"] == expected.metrics.guesses
        assert row["technique_counts"] == dict(expected.metrics.technique_counts)
        assert row["solver_version"] == solver.SOLVER_VERSION
        assert row["solve_ms"] >= 0


def test_rows_carry_plain_values_that_json_can_store() -> None:
    """technique_counts and every metric serialise to JSON (the results table stores them)."""
    (row,) = solve_batch(1, [(1, HARD)])
    json.dumps({k: v for k, v in row.items() if k != "solved_at"})


def test_a_tiny_node_budget_gives_up_instead_of_running_on() -> None:
    """The node budget reaches the solver: a hard puzzle with a budget of 1 is gave_up."""
    (row,) = solve_batch(1, [(1, HARD)], node_budget=1)
    assert row["status"] == "gave_up"
    assert row["solution"] is None
