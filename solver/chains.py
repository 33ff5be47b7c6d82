"""Forcing chains: follow both candidates of a two-candidate cell.

For a cell with candidates {a, b}, assume a and propagate singles (naked and hidden), then
assume b and do the same. A digit placed, or a candidate removed, in both branches is true
whichever the cell holds; a branch that reaches a contradiction proves the other candidate.
This finds what Sudoku Explainer's forcing chains and XY-chains of singles find (its
"cell forcing chain" for a bivalue cell). The value grows with the length of the chains, as
in SE (``LENGTH_BONUS``). One step applies the conclusions of the first cell that gives any.
"""

from __future__ import annotations

from solver.board import NOTHING, Board, Contradiction, Found, broken, place, remove
from solver.grid import BIT, POPCOUNT, UNITS
from solver.search import CELL_UNITS, propagate

# A chain's length counts cells changed (here) or potentials (solver.cycles: a candidate on or
# off), so never more than twice the 729 candidates.
LONGEST_CHAIN = 2 * 729


# A hint of several chains (solver.forcing: one per candidate of a cell, or per place of a digit
# in a unit) counts the potentials of each: at most nine chains.
LONGEST_HINT = 9 * LONGEST_CHAIN


def _ceilings() -> tuple[int, ...]:
    """SE's lengths past which a chain gains a tenth: 4, 6, 8, 12, 16, 24, ... (times 3/2 and
    4/3 in turn, rounded down), those below LONGEST_HINT."""
    out, ceiling, odd = [], 4, False
    while ceiling < LONGEST_HINT:
        out.append(ceiling)
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return tuple(out)


CEILINGS = _ceilings()
# SE's extra difficulty, in tenths, for a chain of each length up to LONGEST_HINT: one tenth at
# each ceiling passed (built a run of equal values at a time: it is read at every start).
LENGTH_BONUS = tuple(
    [0] * (CEILINGS[0] + 1)
    + [
        tenths
        for tenths, (low, high) in enumerate(
            zip(CEILINGS, (*CEILINGS[1:], LONGEST_HINT), strict=True), 1
        )
        for _ in range(high - low)
    ]
)


def length_added(length: int) -> float:
    """SE's extra difficulty of a chain of ``length`` as SE computes it: 0.1 added once per
    bonus tenth, in floating point. SE orders its chains by base value plus this sum, so two
    chains of the same tenths can differ in the last bit, and SE picks the smaller."""
    added = 0.0
    for _ in range(LENGTH_BONUS[length]):
        added += 0.1
    return added


LENGTH_ADDED = tuple(length_added(n) for n in range(LONGEST_HINT + 1))


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


def _conclude(board: Board, i: int, base: list[int]) -> Found:
    """Apply what both branches of cell ``i`` agree on."""
    lo = base[i] & -base[i]
    hi = base[i] ^ lo
    left, n1 = _branch(base, i, lo)
    right, n2 = _branch(base, i, hi)
    if left is None or right is None:
        if left is None and right is None:
            return broken(Contradiction("both_branches", i))
        found = place(board, i, hi if left is None else lo)
        return found.with_bonus(LENGTH_BONUS[n1 if left is None else n2])
    found = NOTHING
    for k in range(81):
        agreed = left[k] | right[k]
        if board.cands[k] & ~agreed:
            found += remove(board, (k,), ~agreed & 0x1FF)
    return found.with_bonus(LENGTH_BONUS[min(n1, n2)]) if found.fired else found


def forcing_chain(board: Board) -> Found:
    """Forcing chain from the first two-candidate cell whose branches agree."""
    base = _state(board)
    for i in range(81):
        if POPCOUNT[board.cands[i]] == 2:
            found = _conclude(board, i, base)
            if found.fired or found.contradiction:
                return found
    return NOTHING
