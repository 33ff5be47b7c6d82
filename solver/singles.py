"""Singles: the techniques that place a digit by looking at one unit or one cell.

Full house (SE 1.0), hidden single in a box (1.2) or a line (1.5), naked single (2.3). Each
takes a board, places every instance it finds in one sweep, and returns how many it placed;
a contradiction met on the way is left in ``board.contradiction``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.board import Board, place
from solver.grid import BITS, DIGIT_OF, UNITS, unit_name

BOX_UNITS = tuple(range(18, 27))
LINE_UNITS = tuple(range(18))


def _hidden_singles(board: Board, unit_indices: Sequence[int], alone: bool) -> int:
    """Place each digit with a single candidate cell left in one of the given units; with
    ``alone``, only in units that have exactly one empty cell (a full house)."""
    cands = board.cands
    fired = 0
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
            if cell < 0 or not place(board, cell, bit):
                board.contradiction = board.contradiction or (
                    f"digit {DIGIT_OF[bit]} has no place left in {unit_name(u)}"
                )
                return fired
            fired += 1
    return fired


def full_house(board: Board) -> int:
    """Full house (SE 1.0): the last empty cell of a unit gets the digit the unit lacks."""
    return _hidden_singles(board, range(27), alone=True)


def hidden_single_box(board: Board) -> int:
    """Hidden single in a box (SE 1.2): a digit with one candidate cell left in a box."""
    return _hidden_singles(board, BOX_UNITS, alone=False)


def hidden_single_line(board: Board) -> int:
    """Hidden single in a row or column (SE 1.5)."""
    return _hidden_singles(board, LINE_UNITS, alone=False)


def naked_single(board: Board) -> int:
    """Naked single (SE 2.3): a cell with one candidate left gets that digit."""
    cands = board.cands
    fired = 0
    for i in range(81):
        c = cands[i]
        if c and not c & (c - 1):
            if not place(board, i, c):
                return fired
            fired += 1
    return fired


def place_all(board: Board, placements: Sequence[tuple[int, int]]) -> int:
    """Place each (cell, digit bit) not placed yet; the count placed (stops on contradiction)."""
    fired = 0
    for i, bit in placements:
        if board.values[i] == DIGIT_OF[bit]:
            continue
        if not place(board, i, bit):
            return fired
        fired += 1
    return fired
