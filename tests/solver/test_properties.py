"""Properties on random valid grids: answers keep the givens, conflicts are caught, and the
ladder never removes a true digit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.board import Board
from solver.grid import BIT, PEERS
from solver.ladder import ASSUMES_UNIQUENESS, LADDER, NESTED_CHAINS, climb
from tests.solver.grids import solved_grids
from tests.solver.parity import SMALL_WORK

# SE's nested chains are left out too: on a puzzle where the ladder stalls the reference takes
# minutes over them (their conclusions are checked against SE and the solution in
# tests/solver/test_nested.py).
SOUND_RUNGS = [
    rung
    for rung in LADDER
    if rung.name not in ASSUMES_UNIQUENESS and rung.name not in NESTED_CHAINS
]


@st.composite
def puzzles(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(puzzle, the solved grid it came from): the grid with random cells emptied."""
    full = draw(solved_grids())
    keep = draw(st.sets(st.integers(0, 80), min_size=17, max_size=81))
    return tuple(d if i in keep else 0 for i, d in enumerate(full)), full


@given(solved_grids())
def test_generated_grids_are_valid_solutions(full: tuple[int, ...]) -> None:
    """The generator itself only makes valid grids."""
    assert solver.is_solution(full, full)


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.sampled_from([0, SMALL_WORK]))
def test_the_answer_keeps_every_given_and_is_valid(
    case: tuple[tuple[int, ...], ...], work_budget: int
) -> None:
    """solved -> a valid solution holding the givens; else multiple (never wrong), with SE's
    chains never tried or cut short (a puzzle with several solutions tries them all in vain:
    a larger budget would only take longer)."""
    puzzle, _ = case
    result = solver.solve(puzzle, work_budget=work_budget)
    assert result.status in {"solved", "multiple"}
    if result.status == "solved":
        assert result.solution is not None
        assert solver.is_solution(puzzle, result.solution)
        assert result.difficulty_score is not None


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.integers(0, 80), st.data())
def test_adding_a_conflicting_given_makes_the_puzzle_invalid(
    case: tuple[tuple[int, ...], ...], cell: int, data: st.DataObject
) -> None:
    """Copy a digit of a peer given into another cell: status invalid with a reason."""
    puzzle, _ = case
    peers = [p for p in PEERS[cell] if puzzle[p]]
    if not peers:
        return
    source = data.draw(st.sampled_from(peers))
    broken = list(puzzle)
    broken[cell] = puzzle[source]
    result = solver.solve(tuple(broken))
    assert result.status == "invalid"
    assert result.reason
    assert f"digit {puzzle[source]}" in result.reason


@settings(max_examples=150, deadline=None)
@given(puzzles())
def test_the_ladder_never_removes_the_true_digit(case: tuple[tuple[int, ...], ...]) -> None:
    """Every placed digit and every remaining candidate set agrees with a known solution.

    Sound techniques keep the digits of every solution, so this holds even when the puzzle
    has several solutions. (Unique rectangle and BUG assume one solution: left out here; the
    engine never trusts them for the status.)
    """
    puzzle, full = case
    board = Board.from_grid(puzzle)
    _, contradiction = climb(board, SOUND_RUNGS)
    assert contradiction is None
    for i in range(81):
        if board.values[i]:
            assert board.values[i] == full[i]
        else:
            assert board.cands[i] & BIT[full[i]]
