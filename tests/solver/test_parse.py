"""Parsing, normalising, the conflict check and the independent solution check."""

from __future__ import annotations

import pytest

import solver
from solver.grid import PEERS, UNITS

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_parse_gives_81_ints_with_zero_for_empty() -> None:
    """A one-line puzzle becomes a tuple of 81 ints, 0 for each empty cell."""
    grid = solver.parse(PUZZLE)
    assert len(grid) == 81
    assert grid[:9] == (4, 0, 0, 0, 0, 0, 8, 0, 5)


@pytest.mark.parametrize("empty", list(".0-_*x"))
def test_every_empty_marker_reads_as_an_empty_cell(empty: str) -> None:
    """Each accepted empty marker parses like '.'."""
    assert solver.parse(PUZZLE.replace(".", empty)) == solver.parse(PUZZLE)


def test_surrounding_whitespace_is_ignored() -> None:
    """Leading and trailing blanks and newlines do not count as cells."""
    assert solver.normalize(f"  \t{PUZZLE}\r\n") == PUZZLE


def test_normalize_writes_dots_for_empty_cells() -> None:
    """normalize turns every empty marker into '.'."""
    assert solver.normalize(PUZZLE.replace(".", "0")) == PUZZLE


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        (PUZZLE[:80], "expected 81 cells, got 80", None),
        (PUZZLE + "1", "expected 81 cells, got 82", None),
        ("", "expected 81 cells, got 0", None),
        (PUZZLE[:16] + "a" + PUZZLE[17:], "illegal character 'a' (U+0061) at column 17", 17),
        ("٣" + PUZZLE[1:], "illegal character '٣' (U+0663) at column 1", 1),
        (PUZZLE[:40] + "\x00" + PUZZLE[41:], "illegal character '\\x00' (U+0000) at column 41", 41),
        (PUZZLE[:9] + " " + PUZZLE[9:], "illegal character ' ' (U+0020) at column 10", 10),
        ("  " + PUZZLE[:5] + "?" + PUZZLE[6:], "illegal character '?' (U+003F) at column 8", 8),
    ],
)
def test_malformed_input_raises_format_error_saying_what_and_where(
    text: str, message: str, column: int | None
) -> None:
    """Bad length or a bad character raise PuzzleFormatError with the message and column."""
    with pytest.raises(solver.PuzzleFormatError) as caught:
        solver.parse(text)
    assert str(caught.value) == message
    assert caught.value.column == column
    assert isinstance(caught.value, ValueError)


def test_solve_rejects_a_grid_with_an_out_of_range_value() -> None:
    """A grid of ints with a 10 in it is a format error at that column."""
    grid = list(solver.parse(PUZZLE))
    grid[4] = 10
    with pytest.raises(solver.PuzzleFormatError, match="column 5"):
        solver.solve(grid)


@pytest.mark.parametrize(
    ("cells", "reason"),
    [
        ({1: 5, 6: 5}, "digit 5 appears twice in row 1 (columns 2 and 7)"),
        ({19: 5, 24: 5}, "digit 5 appears twice in row 3 (columns 2 and 7)"),
        ({3: 4, 57: 4}, "digit 4 appears twice in column 4 (rows 1 and 7)"),
        ({0: 9, 20: 9}, "digit 9 appears twice in box 1 (r1c1 and r3c3)"),
        ({0: 2, 4: 2, 8: 2}, "digit 2 appears 3 times in row 1 (columns 1, 5 and 9)"),
    ],
)
def test_find_conflict_names_unit_digit_and_cells(cells: dict[int, int], reason: str) -> None:
    """Conflicting givens are described by digit, unit and positions."""
    grid = [0] * 81
    for i, d in cells.items():
        grid[i] = d
    assert solver.find_conflict(tuple(grid)) == reason


def test_find_conflict_is_none_for_a_sound_puzzle() -> None:
    """A puzzle whose givens obey the rules has no conflict."""
    assert solver.find_conflict(solver.parse(PUZZLE)) is None


def test_is_solution_accepts_the_solution_and_rejects_near_misses() -> None:
    """is_solution checks units and givens independently of the solver."""
    assert solver.is_solution(PUZZLE, SOLUTION)
    swapped = SOLUTION[1] + SOLUTION[0] + SOLUTION[2:]
    assert not solver.is_solution(PUZZLE, swapped)
    assert not solver.is_solution(PUZZLE, SOLUTION[:80])
    assert not solver.is_solution("5" + PUZZLE[1:], SOLUTION)


def test_the_vocabulary_tables_have_the_shape_of_sudoku() -> None:
    """27 units of 9 cells; every cell has 20 peers."""
    assert len(UNITS) == 27
    assert all(len(u) == 9 for u in UNITS)
    assert all(len(p) == 20 for p in PEERS)
