"""BUG (bivalue universal grave), types 1 to 4, as Sudoku Explainer finds them.

A grave is a position where every empty cell has two candidates and every digit has zero or
two places in every unit: it has zero or several solutions, so a puzzle with one solution never
reaches it. The *BUG cells* are the cells with three candidates or more whose extra digits (the
*BUG values*) keep the board out of a grave: with those digits gone, the board would be one.
At least one BUG value is therefore true in its BUG cell.

Type 1 (``bug``): one BUG cell, a trivalue one; its BUG value is placed.
Type 2 (``bug_type_2``): several BUG cells with the same single BUG value: one of them holds
it, so it leaves every cell that sees them all.
Type 4 (``bug_type_4``): two BUG cells in one unit sharing one other digit: as one of them
holds its BUG values, that shared digit is in the other, and each keeps only its BUG values
and the shared digit.
Type 3 (``bug_type_3``): the BUG values of several cells that see each other act as one
more cell of a naked set in a unit they share: the set's digits leave the unit's other cells
that see every BUG cell (``TYPE_3_BONUS`` per digit of the set beyond the first).

SE finds the BUG cells by units, boxes first, then rows and columns: a digit with neither zero
nor two places in a unit marks its only place among cells of three candidates or more (none:
no grave; several: another unit decides). SE tries type 2 before type 4 and type 4 before
type 3; the ladder follows that order, each type a rung. SukakuExplainer (with lkSudoku's
changes, its defaults) finds a few more BUG cells and orders type 3's sets by size first: the
``sukaku_`` functions, the same rungs on the ``sukaku`` profile.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

from solver.bitboard import PEER_BB, UNIT_BB, cells_of
from solver.board import NOTHING, ONE, Board, Found, place, remove
from solver.grid import BITS, COL_OF, POPCOUNT, ROW_OF, ROWS, SE_UNIT_ORDER, SE_UNITS_OF, UNITS

TYPE_3_BONUS = 1  # tenths per digit of a type 3's naked set beyond the first (SE: pair 5.8)
LARGEST_SET = 6  # SE looks for naked sets of two to six digits in type 3


class Grave(NamedTuple):
    """The BUG cells (in the order SE finds them), the BUG values of each, all BUG values, and
    the cells other than them that see them all (a bitboard)."""

    cells: list[int]
    values: list[int]
    every: int
    common: int


def _bug_cells(cands: list[int], sukaku: bool) -> Grave | None:
    """The BUG cells and values SE finds, or None when the board is not one away from a grave
    or no type can use it. SukakuExplainer (``sukaku``) also takes, when every unit that breaks
    the grave breaks it on one digit, all the cells of three candidates or more holding it there
    (with that BUG value, not counted among all BUG values: as it does)."""
    cells: list[int] = []
    values: list[int] = []
    every = 0
    common = -1
    wide_cells: list[int] | None = None
    only = 0
    one_digit = True
    for bit, wide in _breaks(cands):
        if sukaku:
            if wide_cells is None:
                wide_cells, only = list(wide), bit
            elif one_digit and bit == only:
                wide_cells += [i for i in wide if i not in wide_cells]
            else:
                one_digit = False
        if not wide:
            return None
        if len(wide) == 1:
            common = _add(cells, values, wide[0], bit, common)
            every |= bit
            if len(cells) > 1 and POPCOUNT[every] > 1 and not common:
                return None
    if one_digit and wide_cells is not None and len(wide_cells) > len(cells):
        for i in sorted(set(wide_cells) - set(cells)):
            common = _add(cells, values, i, only, common)
            if len(cells) > 1 and POPCOUNT[every] > 1 and not common:
                return None
    return Grave(cells, values, every, common) if cells else None


def _breaks(cands: list[int]) -> Iterator[tuple[int, list[int]]]:
    """Each digit with neither zero nor two places in a unit (units in SE's order), with its
    places among the cells of three candidates or more."""
    for u in SE_UNIT_ORDER:
        for bit in BITS[511]:
            places = [i for i in UNITS[u] if cands[i] & bit]
            if len(places) not in (0, 2):
                yield bit, [i for i in places if POPCOUNT[cands[i]] >= 3]


def _add(cells: list[int], values: list[int], i: int, bit: int, common: int) -> int:
    """Add BUG value ``bit`` of cell ``i``; the cells that see every BUG cell, updated."""
    if i not in cells:
        cells.append(i)
        values.append(0)
    values[cells.index(i)] |= bit
    common &= PEER_BB[i]
    for c in cells:
        common &= ~(1 << c)
    return common


def _grave(board: Board, sukaku: bool = False) -> Grave | None:
    """The BUG cells and values when removing the BUG values leaves a grave, else None."""
    cands = board.cands
    found = _bug_cells(cands, sukaku)
    if found is None:
        return None
    rest = cands[:]
    for i, bits in zip(found.cells, found.values, strict=True):
        rest[i] &= ~bits
    if any(POPCOUNT[rest[i]] != 2 for i in range(81) if not board.values[i]):
        return None
    for unit in UNITS:
        for bit in BITS[511]:
            if sum(1 for i in unit if rest[i] & bit) not in (0, 2):
                return None
    return found


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


def _type_2(board: Board, sukaku: bool) -> Found:
    """BUG type 2: the one BUG value of several cells leaves the cells that see them all."""
    grave = _grave(board, sukaku)
    if grave is None or len(grave.cells) < 2 or POPCOUNT[grave.every] != 1:
        return NOTHING
    return remove(board, cells_of(grave.common), grave.every)


def _type_4(board: Board, sukaku: bool) -> Found:
    """BUG type 4: two BUG cells in one unit keep their BUG values and their shared digit."""
    grave = _grave(board, sukaku)
    if grave is None or len(grave.cells) != 2:
        return NOTHING
    if POPCOUNT[grave.every] != 1 and not grave.common:
        return NOTHING
    a, b = grave.cells
    cands = board.cands
    shared = cands[a] & cands[b] & ~grave.every
    if POPCOUNT[shared] != 1 or not PEER_BB[a] >> b & 1:
        return NOTHING
    drop_a = cands[a] & ~grave.values[0] & ~shared
    drop_b = cands[b] & ~grave.values[1] & ~shared
    first = remove(board, (a,), drop_a)
    if first.contradiction:
        return first
    second = remove(board, (b,), drop_b)
    return second if second.contradiction else ONE


def _shared_units(cells: list[int]) -> list[int]:
    """The units (in SE's order) that hold every one of ``cells``."""
    return [u for u in SE_UNITS_OF[cells[0]] if all(UNIT_BB[u] >> i & 1 for i in cells)]


def _type_3(board: Board, sukaku: bool) -> Found:
    """BUG type 3: the first naked set that the BUG values complete in a unit the BUG cells
    share removes its digits from the unit's other cells. Classic SE's order: unit, then
    size; SukakuExplainer's: size, then unit."""
    grave = _grave(board, sukaku)
    if grave is None or len(grave.cells) < 2 or POPCOUNT[grave.every] < 2 or not grave.common:
        return NOTHING
    units = _shared_units(grave.cells)
    sizes = range(2, LARGEST_SET + 1)
    order = (
        [(u, n) for n in sizes for u in units] if sukaku else [(u, n) for u in units for n in sizes]
    )
    for u, size in order:
        found = _naked_set(board, grave, u, size)
        if found.fired:
            return found.with_bonus(TYPE_3_BONUS * (size - 1))
    return NOTHING


def _naked_set(board: Board, grave: Grave, u: int, size: int) -> Found:
    """The first naked set of ``size`` digits in unit ``u`` that the BUG values complete,
    its digits removed from the unit's other cells that see every BUG cell."""
    cands = board.cands
    others = list(cells_of(grave.common & UNIT_BB[u]))
    if len(others) < size:  # SE's bound: the set's cells and one to clear
        return NOTHING
    for naked in combinations(others, size - 1):
        union = 0
        for i in naked:
            union |= cands[i]
        if POPCOUNT[union] != size or grave.every & ~union:
            continue
        if any(POPCOUNT[cands[i]] < 2 for i in naked):
            continue
        found = remove(board, [i for i in others if i not in naked], union)
        if found.fired:
            return found
    return NOTHING


def bug_type_2(board: Board) -> Found:
    """BUG type 2, as classic SE finds it."""
    return _type_2(board, False)


def bug_type_3(board: Board) -> Found:
    """BUG type 3, as classic SE finds it."""
    return _type_3(board, False)


def bug_type_4(board: Board) -> Found:
    """BUG type 4, as classic SE finds it."""
    return _type_4(board, False)


def sukaku_bug_type_2(board: Board) -> Found:
    """BUG type 2, as SukakuExplainer finds it."""
    return _type_2(board, True)


def sukaku_bug_type_3(board: Board) -> Found:
    """BUG type 3, as SukakuExplainer finds it."""
    return _type_3(board, True)


def sukaku_bug_type_4(board: Board) -> Found:
    """BUG type 4, as SukakuExplainer finds it."""
    return _type_4(board, True)
