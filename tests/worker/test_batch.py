"""solve_batch: one stored row per puzzle, exactly what the solver says."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import JSON

import solver
from db.models import Result
from db.tiers import DEFAULT_PLAN, IMPORT
from worker.batch import solve_batch, technique_json

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EMPTY = "." * 81
INVALID = "11" + "." * 79  # two 1s in the first row


def test_every_puzzle_of_a_batch_gets_one_row_matching_the_solver() -> None:
    """Rows come back in order, keyed by puzzle id, with the solver's status and metrics
    within the bulk path's budgets, and the rating's state and tier: the hardest puzzle is
    left pending for the deep tier."""
    rows = solve_batch(1, [(10, EASY), (11, HARD), (12, EMPTY)])
    assert [row.puzzle_id for row in rows] == [10, 11, 12]
    work_budget, batch_budget = DEFAULT_PLAN.budgets(IMPORT)
    answers = solver.solve_many(
        [EASY, HARD, EMPTY], work_budget=work_budget, batch_budget=batch_budget
    )
    assert [(row.rating_state, row.rating_tier) for row in rows] == [
        ("exact", "bulk"),
        ("pending", "bulk"),
        (None, "bulk"),
    ]
    for row, expected in zip(rows, answers, strict=True):
        assert row.status == expected.status
        assert row.solution == expected.solution
        assert row.difficulty == expected.difficulty
        assert row.difficulty_score == expected.difficulty_score
        assert row.guesses == expected.metrics.guesses
        assert json.loads(row.technique_counts or "") == dict(expected.metrics.technique_counts)
        assert row.solver_version == solver.SOLVER_VERSION
        assert (row.solve_ms or 0) >= 0


def test_the_solver_is_entered_once_per_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """One solve_many_timed call for the whole batch (the native core is crossed once)."""
    calls: list[int] = []
    real = solver.solve_many_timed

    def counting(puzzles: list[str], **budget: int) -> list[tuple[solver.SolveResult, float]]:
        calls.append(len(puzzles))
        return real(puzzles, **budget)

    monkeypatch.setattr(solver, "solve_many_timed", counting)
    rows = solve_batch(1, [(1, EASY), (2, EMPTY), (3, EASY)])
    assert calls == [3]
    assert rows[0].solution == rows[2].solution


def test_a_batch_shares_one_timestamp_and_rows_hold_plain_values() -> None:
    """solved_at is one instant for the batch; every other value is JSON-ready."""
    rows = solve_batch(1, [(1, HARD), (2, EASY)])
    assert rows[0].solved_at is rows[1].solved_at
    json.dumps([{k: v for k, v in row._asdict().items() if k != "solved_at"} for row in rows])


def test_each_value_of_a_row_has_the_python_type_of_its_column() -> None:
    """Every column of results gets a value of its model type (or NULL where it may be) from
    the solver's results, JSON as text: a column added to the model shows here too."""
    rows = solve_batch(1, [(1, EASY), (2, HARD), (3, EMPTY), (4, INVALID)])
    for column in Result.__table__.columns:
        kind = str if isinstance(column.type, JSON) else column.type.python_type
        values = [getattr(row, column.name) for row in rows]
        assert all(isinstance(v, kind) for v in values if v is not None), column.name
        assert column.nullable or None not in values, column.name
        assert any(v is not None for v in values), column.name


def test_a_tiny_node_budget_gives_up_instead_of_running_on() -> None:
    """The node budget reaches the solver: a hard puzzle with a budget of 1 is gave_up."""
    (row,) = solve_batch(1, [(1, HARD)], node_budget=1)
    assert row.status == "gave_up"
    assert row.solution is None


def test_technique_counts_are_written_as_the_json_of_the_same_object() -> None:
    """Every technique of the ladder, alone or together, reads back as the same counts."""
    names = [rung.name for rung in solver.LADDER]
    assert all(name.isidentifier() and name.islower() for name in names)  # nothing to escape
    everything = {name: k for k, name in enumerate(names, 1)}
    for counts in ({}, {"x_wing": 2}, everything):
        assert json.loads(technique_json(counts)) == counts
    assert list(json.loads(technique_json(everything))) == names  # the solver's order is kept
