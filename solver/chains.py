"""Forcing chains (SE 6.6 and up): follow both candidates of a two-candidate cell.

For a cell with candidates {a, b}, assume a and propagate singles (naked and hidden), then
assume b and do the same. A digit placed, or a candidate removed, in both branches is true
whichever the cell holds; a branch that reaches a contradiction proves the other candidate.
This finds what Sudoku Explainer's forcing chains and XY-chains of singles find (its
"cell forcing chain" for a bivalue cell). The value grows with the length of the chains, as
in SE: 6.6 plus 0.1 at each of the lengths 4, 6, 8, 12, 16, 24, ... implications, reported as
``board.bonus``. One step applies the conclusions of the first cell that gives any.
"""

from __future__ import annotations

from solver.board import Board, eliminate, place
from solver.grid import BIT, POPCOUNT, UNITS
from solver.search import CELL_UNITS, propagate


def length_bonus(length: int) -> float:
    """SE's extra difficulty for a chain of ``length`` implications."""
    added, ceiling, odd = 0.0, 4, False
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return round(added, 1)


def _state(board: Board) -> list[int]:
    """The search state of a board: 81 cell masks then the digits placed in each unit."""
    c = board.masks() + [0] * 27
    values = board.values
    for u, unit in enumerate(UNITS):
        for i in unit:
            c[81 + u] |= BIT[values[i]]
    return c


def _branch(base: list[int], i: int, bit: int) -> tuple[list[int] | None, int]:
    """The state after assuming ``bit`` in cell ``i`` (None on contradiction), and how many
    cells it changed (the length of the chain)."""
    child = base[:]
    child[i] = bit
    if not propagate(child, [i], CELL_UNITS[i]):
        return None, sum(1 for k in range(81) if POPCOUNT[base[k]] > 1)
    return child, sum(1 for k in range(81) if child[k] != base[k])


def _conclude(board: Board, i: int, base: list[int]) -> int:
    """Apply what both branches of cell ``i`` agree on; the count of changes."""
    lo = base[i] & -base[i]
    hi = base[i] ^ lo
    left, n1 = _branch(base, i, lo)
    right, n2 = _branch(base, i, hi)
    if left is None or right is None:
        if left is None and right is None:
            board.contradiction = "both candidates of a cell lead to a contradiction"
            return 0
        board.bonus = length_bonus(n1 if left is None else n2)
        return int(place(board, i, hi if left is None else lo))
    fired = 0
    for k in range(81):
        agreed = left[k] | right[k]
        if board.cands[k] & ~agreed:
            fired += eliminate(board, k, ~agreed & 0x1FF)
    if fired:
        board.bonus = length_bonus(min(n1, n2))
    return fired


def forcing_chain(board: Board) -> int:
    """Forcing chain (SE 6.6+) from the first two-candidate cell whose branches agree."""
    base = _state(board)
    for i in range(81):
        if POPCOUNT[board.cands[i]] == 2:
            fired = _conclude(board, i, base)
            if fired or board.contradiction:
                return fired
    return 0
