"""Singles: the techniques that place a digit by looking at one unit or one cell.

Full house, hidden single in a box or a line, naked single (their values: ``solver.ladder``).
Each takes a board, places every instance it finds in one sweep, and returns how many it
placed, stopping at the first contradiction.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.board import NOTHING, Board, Contradiction, Found, broken, place, remove
from solver.grid import BIT, BITS, DIGIT_OF, UNITS, Mask

BOX_UNITS = tuple(range(18, 27))
LINE_UNITS = tuple(range(18))


def _hidden_singles(board: Board, unit_indices: Sequence[int], alone: bool) -> Found:
    """Place each digit with a single candidate cell left in one of the given units; with
    ``alone``, only in units that have exactly one empty cell (a full house)."""
    cands = board.cands
    found = NOTHING
    for u in unit_indices:
        unit = UNITS[u]
        once = twice = 0
        empty = 0
        for i in unit:
            c = cands[i]
            if c:
                empty += 1
            twice |= once & c
            once |= c
        if not once or (empty == 1) != alone:
            continue
        for bit in BITS[once & ~twice]:
            cell = next((i for i in unit if cands[i] & bit), -1)
            if cell < 0:  # an earlier placement of this sweep took the digit's last place
                return found + broken(Contradiction("no_place", u, DIGIT_OF[bit]))
            found += place(board, cell, bit)
            if found.contradiction:
                return found
    return found


def full_house(board: Board) -> Found:
    """Full house: the last empty cell of a unit gets the digit the unit lacks."""
    return _hidden_singles(board, range(27), alone=True)


def hidden_single_box(board: Board) -> Found:
    """Hidden single in a box: a digit with one candidate cell left in a box."""
    return _hidden_singles(board, BOX_UNITS, alone=False)


def hidden_single_line(board: Board) -> Found:
    """Hidden single in a row or column."""
    return _hidden_singles(board, LINE_UNITS, alone=False)


def naked_single(board: Board) -> Found:
    """Naked single: a cell with one candidate left gets that digit."""
    cands = board.cands
    found = NOTHING
    for i in range(81):
        c = cands[i]
        if c and not c & (c - 1):
            found += place(board, i, c)
            if found.contradiction:
                return found
    return found


def place_all(board: Board, placements: Sequence[tuple[int, int]]) -> Found:
    """Place each (cell, digit bit) not placed yet, stopping at a contradiction."""
    found = NOTHING
    for i, bit in placements:
        if board.values[i] == DIGIT_OF[bit]:
            continue
        found += place(board, i, bit)
        if found.contradiction:
            return found
    return found


def removal_and_single(board: Board, cells: Sequence[int], mask: Mask, i: int, d: int) -> Found:
    """SE's direct hint: remove ``mask`` from ``cells``, then place digit ``d + 1`` (0-8) in
    cell ``i``; one change (ONE), or the contradiction met."""
    found = remove(board, cells, mask)
    if found.contradiction:
        return found
    placed = place(board, i, BIT[d + 1])
    return Found(1, 0, placed.contradiction)
