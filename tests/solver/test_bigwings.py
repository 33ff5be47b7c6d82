"""SukakuExplainer's WXYZ- and VWXYZ-Wing (solver/bigwings.py, bigwings.c).

The positions are SukakuExplainer's own, taken from its solving paths just before it applied
a wing: each cell's candidates (a placed digit is a cell of one candidate), the step's value
and the candidates the step removed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import solver
from solver import bigwings, work
from solver.board import NOTHING, Board, Contradiction, Found
from solver.grid import ALL, BIT
from solver.ladder import VALUES
from tests.solver.parity import check_batch
from tests.solver.test_techniques import CASES, changes

RUNGS: dict[str, Callable[[Board], Found]] = {
    "wxyz_wing": bigwings.wxyz_wing,
    "vwxyz_wing": bigwings.vwxyz_wing,
}

# (rung, position, SE's value, SE's removals, SE's step)
SE_STEPS = [
    (
        "wxyz_wing",
        "389 28 23 6 45 45 79 78 1 "
        "69 5 1 8 3 7 4 26 29 "
        "68 7 4 9 1 2 5 368 38 "
        "13 4 7 2 58 6 18 9 35 "
        "5 6 8 13 49 19 2 34 7 "
        "2 19 39 345 7 358 18 45 6 "
        "7 18 29 35 89 13 6 25 4 "
        "48 3 6 457 2 4589 79 1 589 "
        "148 29 5 147 6 1489 3 278 289",
        5.5,
        {"r6c4-3"},
        "WXYZ-Wing 126: Cells r7c3,r7c4,r7c8,r6c3 on value 3",
    ),
    (
        "wxyz_wing",
        "389 28 23 6 45 45 79 78 1 "
        "69 5 1 8 3 7 4 26 29 "
        "68 7 4 9 1 2 5 368 38 "
        "13 4 7 2 58 6 18 9 35 "
        "5 6 8 13 49 19 2 34 7 "
        "2 19 39 45 7 38 18 45 6 "
        "7 18 29 35 89 13 6 25 4 "
        "48 3 6 47 2 4589 79 1 589 "
        "148 29 5 147 6 489 3 278 289",
        5.6,
        {"r8c6-9"},
        "WXYZ-Wing 137: Cells r7c5,r8c4,r9c6,r8c7 on value 9",
    ),
    (
        "vwxyz_wing",
        "5 12679 67 4 389 238 128 123789 369 "
        "246 2469 8 1 39 7 5 239 36 "
        "3 1279 127 5 6 28 128 1789 4 "
        "24 234 5 6 18 18 7 2349 39 "
        "9 8 37 2 57 4 6 35 1 "
        "1 267 2467 3 57 9 24 25 8 "
        "26 1246 9 8 12 5 3 14 7 "
        "8 5 13 7 4 13 9 6 2 "
        "7 123 234 9 123 6 148 18 5",
        6.3,
        {"r3c3-7", "r6c2-2"},
        "VWXYZ-Wing 2411: Cells r4c1,r4c2,r5c3,r6c3,r1c3 on values 6,7",
    ),
    (
        "vwxyz_wing",
        "56 8 9 7 45 2 1 345 3456 "
        "7 4 126 3 15 8 26 9 56 "
        "25 3 12 6 145 9 24 7 8 "
        "23 126 4 5 8 17 9 136 67 "
        "69 169 5 2 3 17 8 146 467 "
        "8 17 37 4 9 6 35 15 2 "
        "1 26 236 8 7 5 346 46 9 "
        "39 579 67 1 2 4 567 8 356 "
        "4 57 8 9 6 3 57 2 1",
        6.4,
        {"r1c8-4"},
        "VWXYZ-Wing 2310: Cells r4c8,r5c8,r6c8,r7c8,r6c7 on values 3,5",
    ),
]


def board_of(position: str) -> Board:
    """The board of 81 candidate lists, row by row; a cell of one candidate holds that digit."""
    values, cands = [], []
    for token in position.split():
        mask = sum(BIT[int(d)] for d in token)
        values.append(int(token) if len(token) == 1 else 0)
        cands.append(0 if len(token) == 1 else mask)
    assert len(values) == 81
    return Board(values, cands)


@pytest.mark.parametrize(
    ("rung", "position", "value", "removals", "step"), SE_STEPS, ids=[s[4] for s in SE_STEPS]
)
def test_the_wing_makes_sukakuexplainers_step_at_its_value(
    rung: str, position: str, value: float, removals: set[str], step: str
) -> None:
    """On SukakuExplainer's position, the rung applies one wing, SE's first: its value and
    exactly its removals."""
    board = board_of(position)
    before = board.copy()
    found = RUNGS[rung](board)
    assert found.fired == 1
    assert found.contradiction is None
    assert round(VALUES[rung] + found.bonus / 10, 1) == value
    assert changes(before, board) == removals


def test_a_doubly_linked_wing_is_named_so_when_it_removes_another_digit() -> None:
    """SE calls a wing whose pincer digits are both restricted doubly linked ("2" first in its
    name) when it removes a digit other than the pincer's, even none of the pincer's; its name
    then sorts it before an otherwise equal singly linked wing."""
    position = next(s[1] for s in SE_STEPS if s[4].startswith("VWXYZ-Wing 2310"))
    wing = bigwings._first_wing(board_of(position), 5)
    assert wing is not None
    assert wing.suffix == "2310"


def test_each_rung_is_a_different_size_of_wing() -> None:
    """A position with a wing of one size has none of the other sizes to apply there."""
    position = next(s[1] for s in SE_STEPS if s[0] == "vwxyz_wing")
    for rung, apply in RUNGS.items():
        board = board_of(position)
        found = apply(board)
        assert (found.fired == 1) == (rung == "vwxyz_wing"), rung


def test_no_wing_leaves_the_board_unchanged() -> None:
    """On a solved board no rung fires, and nothing changes."""
    solved = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    for apply in RUNGS.values():
        board = Board([int(c) for c in solved], [0] * 81)
        assert apply(board) == NOTHING
        assert board.cands == [0] * 81


def test_a_removal_that_empties_a_cell_is_reported_as_the_contradiction() -> None:
    """Set r1c1-r1c3 {1,2} {2,3} {3,4} with pincer r1c9 {1,4}: doubly linked, so 2 leaves the
    cells that see r1c1 and r1c2; r2c1, left only 2 in this hand-made board, empties."""
    cands = [ALL] * 81
    cands[0], cands[1], cands[2], cands[8], cands[9] = 0b11, 0b110, 0b1100, 0b1001, 0b10
    board = Board([0] * 81, cands)
    found = bigwings.wxyz_wing(board)
    assert found.fired == 1
    assert found.contradiction == Contradiction("no_candidate", 9)


@pytest.mark.parametrize("chains", [0, work.MAX_BUDGET])
def test_the_compiled_core_rates_the_wing_puzzles_as_the_reference(chains: int) -> None:
    """Solving each rung's case puzzle on the sukaku profile, the core and the reference agree
    on every field of the result."""
    puzzles = [CASES[rung][0] for rung in RUNGS]
    job = ("wings", solver.DEFAULT_NODE_BUDGET, list(enumerate(puzzles)), "sukaku", chains)
    assert check_batch(job) == []
