"""worker.files.conflicts: the bulk screen flags just the puzzles the solver finds conflicting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from worker.files.conflicts import conflicting

EASY = "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
SOLVED = "864371259325849761971265843436192587198657432257483916689734125713528694542916378"


def with_digit(puzzle: str, cell: int, digit: str) -> str:
    return puzzle[:cell] + digit + puzzle[cell + 1 :]


cells = st.lists(st.sampled_from("123456789" + "." * 20), min_size=81, max_size=81)
puzzle_lists = st.lists(cells.map("".join), min_size=1, max_size=40)


@settings(max_examples=100, deadline=None)
@given(puzzle_lists)
def test_the_screen_agrees_with_the_solver_on_random_givens(puzzles: list[str]) -> None:
    """Random givens, dense enough to conflict often: the same puzzles are flagged."""
    expected = [i for i, p in enumerate(puzzles) if solver.find_conflict(solver.parse(p))]
    assert conflicting(puzzles) == expected


@pytest.mark.parametrize(
    ("first", "second", "unit"),
    [(0, 8, "row 1"), (2, 74, "column 3"), (0, 20, "box 1"), (60, 80, "box 9"), (72, 80, "row 9")],
)
def test_one_repeated_digit_in_one_unit_is_flagged_among_clean_puzzles(
    first: int, second: int, unit: str
) -> None:
    """Two 5s sharing only a row, a column or a box: that puzzle is flagged, and only it."""
    bad = with_digit(with_digit("." * 81, first, "5"), second, "5")
    assert unit in str(solver.find_conflict(solver.parse(bad)))
    assert conflicting([EASY, SOLVED, bad, EASY]) == [2]


def test_complete_valid_grids_and_an_empty_list_pass() -> None:
    """Nine of each digit in every unit is no conflict; nothing to screen flags nothing."""
    assert conflicting([SOLVED] * 100) == []
    assert conflicting([]) == []


def test_unnormalised_input_is_refused() -> None:
    """Anything but 81 characters a puzzle is a caller's bug, not a silent pass."""
    with pytest.raises(ValueError, match="81 normalised"):
        conflicting([EASY[:80]])
