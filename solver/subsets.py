"""Naked and hidden subsets (pairs, triples, quads) in one unit, and SE's direct hidden sets.

Naked subset: ``n`` cells of a unit holding only ``n`` digits between them; those digits leave
the unit's other cells. Hidden subset: ``n`` digits of a unit confined to the same ``n``
cells; those cells lose their other digits. As in Sudoku Explainer, a naked subset is looked
for only in units with at least ``2n`` empty cells and a hidden one in units with more than
``2n`` (otherwise the complement is a smaller subset of the other kind). Direct hidden pair
and triple: a hidden subset whose removals leave another digit a single place in the unit
(units with more than ``n`` empty cells); as in classic SE (1.2.1.3), the first one in SE's
order is applied, its removals and that digit placed (SukakuExplainer, as Juillerat's SE, places
every such digit and applies no removal: ``sukaku_direct_*``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from solver.bitboard import UNIT_BB, board_digits
from solver.board import NOTHING, Board, Found, remove
from solver.grid import ALL, BIT, BITS, POPCOUNT, UNITS, Mask
from solver.singles import place_all, removal_and_single


def _positions(cands: list[Mask], unit: Sequence[int]) -> list[int]:
    """For each digit 1-9 (index 0-8), the mask of the unit's positions that allow it."""
    where = [0] * 9
    for k, i in enumerate(unit):
        for bit in BITS[cands[i]]:
            where[bit.bit_length() - 1] |= 1 << k
    return where


def _ks(positions: int) -> Iterator[int]:
    """The indices of the set bits of a position mask."""
    return (b.bit_length() - 1 for b in BITS[positions])


def naked_subsets(board: Board, size: int) -> Found:
    """Apply every naked subset of ``size``; fired: the subsets that removed something."""
    cands = board.cands
    found = NOTHING
    for unit in UNITS:
        empty = [i for i in unit if cands[i]]
        if len(empty) < 2 * size:
            continue
        small = [i for i in empty if POPCOUNT[cands[i]] <= size]
        for group in combinations(small, size):
            union = 0
            for i in group:
                union |= cands[i]
            if POPCOUNT[union] == size:
                found += remove(board, [i for i in empty if i not in group], union)
                if found.contradiction:
                    return found
    return found


def _hidden_sets(board: Board, size: int, direct: bool) -> Iterator[tuple[int, int, int]]:
    """Every (unit index, digit mask, position mask) of a hidden subset of ``size``."""
    cands = board.cands
    boards = board_digits(board)
    for u, unit in enumerate(UNITS):
        empty = sum(1 for i in unit if cands[i])
        if empty <= (size if direct else 2 * size):
            continue
        ubb = UNIT_BB[u]
        where = [bb & ubb for bb in boards]
        digits = [d for d in range(9) if 1 < where[d].bit_count() <= size]
        for group in combinations(digits, size):
            spots = keep = 0
            for d in group:
                spots |= where[d]
                keep |= 1 << d
            if spots.bit_count() == size:
                yield u, keep, _index_mask(unit, spots)


def _index_mask(unit: Sequence[int], spots: int) -> int:
    """A bitboard of cells of ``unit`` as a mask of positions 0-8 along the unit."""
    return sum(1 << k for k, i in enumerate(unit) if spots >> i & 1)


def hidden_subsets(board: Board, size: int) -> Found:
    """Apply every hidden subset of ``size``; fired: the subsets that removed something."""
    found = NOTHING
    for u, keep, spots in list(_hidden_sets(board, size, direct=False)):
        unit = UNITS[u]
        found += remove(board, [unit[k] for k in _ks(spots)], ALL & ~keep)
        if found.contradiction:
            break
    return found


# SE's order for its direct hidden sets: boxes, then columns, then rows (as indices into UNITS),
# and in each unit the digit sets in ascending order of their mask (its ``Permutations``).
SE_DIRECT_UNITS = (*range(18, 27), *range(9, 18), *range(9))
_DIGIT_SETS = {size: tuple(m for m in range(1 << 9) if m.bit_count() == size) for size in (2, 3)}


def direct_hidden_subsets(board: Board, size: int) -> Found:
    """Apply SE's first hidden subset of ``size`` that leaves another digit a single place in
    its unit (in units with more than ``size`` empty cells): the subset's removals, then that
    digit placed. One instance, as SE applies one hint and starts again from its easiest."""
    cands = board.cands
    for u in SE_DIRECT_UNITS:
        unit = UNITS[u]
        if sum(1 for i in unit if cands[i]) <= size:
            continue
        where = _positions(cands, unit)
        eligible = sum(1 << d for d in range(9) if 1 < POPCOUNT[where[d]] <= size)
        for keep in _DIGIT_SETS[size]:
            if keep & ~eligible:
                continue
            spots = 0
            for d in range(9):
                if keep >> d & 1:
                    spots |= where[d]
            if POPCOUNT[spots] != size:
                continue
            for d in range(9):
                if keep >> d & 1 or POPCOUNT[where[d]] < 2:
                    continue
                left = where[d] & ~spots
                if POPCOUNT[left] == 1:
                    return removal_and_single(
                        board, [unit[k] for k in _ks(spots)], ALL & ~keep, unit[next(_ks(left))], d
                    )
    return NOTHING


def sukaku_direct_hidden_subsets(board: Board, size: int) -> Found:
    """SukakuExplainer's direct hidden sets (Juillerat's SE's): place the digit each hidden
    subset of ``size`` leaves a single place in its unit; the removals are not applied."""
    cands = board.cands
    placements = []
    for u, keep, spots in _hidden_sets(board, size, direct=True):
        unit = UNITS[u]
        where = _positions(cands, unit)
        for d in range(9):
            if keep >> d & 1 or POPCOUNT[where[d]] < 2:
                continue
            left = where[d] & ~spots
            if POPCOUNT[left] == 1:
                placements.append((unit[next(_ks(left))], BIT[d + 1]))
                break
    return place_all(board, placements)


def naked_pair(board: Board) -> Found:
    """Naked pair."""
    return naked_subsets(board, 2)


def naked_triple(board: Board) -> Found:
    """Naked triple."""
    return naked_subsets(board, 3)


def naked_quad(board: Board) -> Found:
    """Naked quad."""
    return naked_subsets(board, 4)


def hidden_pair(board: Board) -> Found:
    """Hidden pair."""
    return hidden_subsets(board, 2)


def hidden_triple(board: Board) -> Found:
    """Hidden triple."""
    return hidden_subsets(board, 3)


def hidden_quad(board: Board) -> Found:
    """Hidden quad."""
    return hidden_subsets(board, 4)


def direct_hidden_pair(board: Board) -> Found:
    """Direct hidden pair."""
    return direct_hidden_subsets(board, 2)


def direct_hidden_triple(board: Board) -> Found:
    """Direct hidden triple."""
    return direct_hidden_subsets(board, 3)


def sukaku_direct_hidden_pair(board: Board) -> Found:
    """Direct hidden pair, as SukakuExplainer applies it."""
    return sukaku_direct_hidden_subsets(board, 2)


def sukaku_direct_hidden_triple(board: Board) -> Found:
    """Direct hidden triple, as SukakuExplainer applies it."""
    return sukaku_direct_hidden_subsets(board, 3)
