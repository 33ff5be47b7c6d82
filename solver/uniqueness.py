"""Uniqueness techniques: unique rectangle and BUG.

Both assume the puzzle has exactly one solution: a deduction they make can be wrong for a
puzzle with several. The engine therefore never trusts them for the status: when one fired,
uniqueness is proven by search from the givens (``solver.engine``).

Unique rectangle: four empty cells on two rows, two columns and two boxes, all holding the
digits {a, b}. If only {a, b} were left in all four, the two digits could swap and the puzzle
would have two solutions. Type 1: three cells are exactly {a, b}, so the fourth is not a or b.
Type 2 (``TYPE_2_BONUS`` harder): two cells are exactly {a, b} and the other two exactly
{a, b, c}, so one of them is c and c leaves every cell that sees both.

BUG, type 1: every empty cell has two candidates except one with three; the digit of
that cell that appears three times in its row must go there (otherwise every digit would have
two places in each unit: a "bivalue universal grave", which has zero or several solutions).
"""

from __future__ import annotations

from itertools import combinations

from solver.bitboard import PEER_BB, cells_of
from solver.board import NOTHING, Board, Found, place, remove
from solver.grid import BITS, COL_OF, POPCOUNT, ROW_OF, ROWS


def _rectangles() -> tuple[tuple[int, int, int, int], ...]:
    """Every rectangle of four cells spread over exactly two boxes."""
    found = []
    for r1, r2 in combinations(range(9), 2):
        for c1, c2 in combinations(range(9), 2):
            if (r1 // 3 == r2 // 3) != (c1 // 3 == c2 // 3):
                found.append((r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2))
    return tuple(found)


RECTANGLES = _rectangles()
TYPE_2_BONUS = 1  # tenths: SE rates a unique rectangle of type 2 0.1 above type 1


def _type1(board: Board) -> Found:
    """Unique rectangle type 1; fired: the rectangles that removed something."""
    cands = board.cands
    found = NOTHING
    for rect in RECTANGLES:
        a, b, c, d = (cands[i] for i in rect)
        common = a & b & c & d
        if POPCOUNT[common] < 2 or not (a and b and c and d):
            continue
        for pair in (x | y for x, y in combinations(BITS[common], 2)):
            others = [i for i in rect if cands[i] != pair]
            if len(others) == 1:
                found += remove(board, others, pair)
                if found.contradiction:
                    return found
    return found


def _type2(board: Board) -> Found:
    """Unique rectangle type 2; fired: the rectangles that removed something."""
    cands = board.cands
    found = NOTHING
    for rect in RECTANGLES:
        masks = [cands[i] for i in rect]
        common = masks[0] & masks[1] & masks[2] & masks[3]
        if POPCOUNT[common] != 2 or masks.count(common) != 2:
            continue
        extra = [i for i in rect if cands[i] != common]
        if cands[extra[0]] != cands[extra[1]] or POPCOUNT[cands[extra[0]]] != 3:
            continue
        z = cands[extra[0]] & ~common
        sees = PEER_BB[extra[0]] & PEER_BB[extra[1]]
        found += remove(board, cells_of(sees), z)
        if found.contradiction:
            break
    return found


def unique_rectangle(board: Board) -> Found:
    """Unique rectangle: type 1, else type 2 (with its bonus)."""
    found = _type1(board)
    if found.fired or found.contradiction:
        return found
    found = _type2(board)
    return found.with_bonus(TYPE_2_BONUS) if found.fired else found


def bug(board: Board) -> Found:
    """BUG type 1: place the digit that breaks the bivalue universal grave."""
    cands = board.cands
    triple = -1
    for i in range(81):
        n = POPCOUNT[cands[i]]
        if n > 3 or (n == 3 and triple >= 0):
            return NOTHING
        if n == 3:
            triple = i
    if triple < 0:
        return NOTHING
    row = ROWS[ROW_OF[triple]]
    for bit in BITS[cands[triple]]:
        if sum(1 for i in row if cands[i] & bit) == 3:
            col = [r * 9 + COL_OF[triple] for r in range(9)]
            if sum(1 for i in col if cands[i] & bit) == 3:
                return place(board, triple, bit)
    return NOTHING
