"""Locked candidates: where a box and a line cross.

Pointing: a digit confined to one line within a box leaves the rest of the line.
Claiming: a digit confined to one box within a line leaves the rest of the box.
Their "direct" forms are Sudoku Explainer's cheaper steps: the same pattern,
when the candidates it would remove leave the digit a single place in another box (pointing)
or another parallel line (claiming). As in classic SE (1.2.1.3), a direct step applies the
first such pattern in SE's order: its eliminations, and that digit placed. SukakuExplainer (as
Juillerat's SE) places every such digit and applies no elimination (``sukaku_direct_*``).
"""

from __future__ import annotations

from solver.bitboard import UNIT_BB, board_digits, first_cell
from solver.board import NOTHING, Board, Found, remove
from solver.grid import BIT, BOX_OF, COL_OF, ROW_OF, UNITS
from solver.singles import place_all, removal_and_single


def _crossings(pointing: bool) -> tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]:
    """For each source unit (boxes when pointing, lines when claiming): (unit, its bitboard,
    the (target unit, shared cells) of every unit of the other kind crossing it)."""
    sources = range(18, 27) if pointing else range(18)
    targets = range(18) if pointing else range(18, 27)
    return tuple(
        (
            s,
            UNIT_BB[s],
            tuple((t, UNIT_BB[s] & UNIT_BB[t]) for t in targets if UNIT_BB[s] & UNIT_BB[t]),
        )
        for s in sources
    )


CROSSINGS = {True: _crossings(True), False: _crossings(False)}


def _parallel(unit: int, i: int) -> int:
    """The unit of the same kind as ``unit`` (row, column or box) that holds cell ``i``."""
    if unit < 9:
        return ROW_OF[i]
    if unit < 18:
        return 9 + COL_OF[i]
    return 18 + BOX_OF[i]


def _locks(board: Board, pointing: bool) -> list[tuple[int, int, int]]:
    """Every (digit 0-8, source unit, target unit) where the digit's candidates in the source
    (the box when pointing, the line when claiming) all lie in the target and leave >= 2."""
    found = []
    crossings = CROSSINGS[pointing]
    for d, bb in enumerate(board_digits(board)):
        for source, source_bb, targets in crossings:
            inside = bb & source_bb
            if not inside & (inside - 1):
                continue
            for target, shared in targets:
                if not inside & ~shared:
                    if bb & UNIT_BB[target] & ~shared:
                        found.append((d, source, target))
                    break
    return found


def _locked(board: Board, pointing: bool) -> Found:
    """Apply every pointing (or claiming) elimination; fired: the patterns that removed."""
    found = NOTHING
    for d, source, target in _locks(board, pointing):
        cells = [i for i in UNITS[target] if i not in UNITS[source]]
        found += remove(board, cells, BIT[d + 1])
        if found.contradiction:
            break
    return found


# SE's order for its direct pointing and claiming: the source unit's crossings with columns,
# then with rows (pointing: box by box, each crossing column or row ascending), or columns, then
# rows, each against the boxes it crosses (claiming); in each, digits ascending; then the other
# units of the source's kind crossing the target, ascending. As (source, target) index pairs:
SE_DIRECT_LOCKS = {
    True: tuple(
        (s, t)
        for kind in (range(9, 18), range(9))
        for s in range(18, 27)
        for t in kind
        if UNIT_BB[s] & UNIT_BB[t]
    ),
    False: tuple(
        (s, t)
        for kind in (range(9, 18), range(9))
        for s in kind
        for t in range(18, 27)
        if UNIT_BB[s] & UNIT_BB[t]
    ),
}


# For each of those pairs, the units of the source's kind other than the source crossing the
# target, ascending: where the digit may be left a single place.
_OTHERS = {
    (s, t): tuple(sorted({_parallel(s, i) for i in UNITS[t]} - {s}))
    for pairs in SE_DIRECT_LOCKS.values()
    for s, t in pairs
}


def _direct(board: Board, pointing: bool) -> Found:
    """Apply SE's first locked pattern that leaves the digit a single place in another unit of
    the source's kind: its removals, then that digit placed. One instance, as SE applies one
    hint and starts again from its easiest."""
    boards = board_digits(board)
    for source, target in SE_DIRECT_LOCKS[pointing]:
        source_bb, target_bb = UNIT_BB[source], UNIT_BB[target]
        for d in range(9):
            bb = boards[d]
            inside = bb & source_bb
            if not inside & (inside - 1) or inside & ~target_bb:
                continue
            removed = bb & target_bb & ~source_bb
            for other in _OTHERS[source, target]:
                spots = bb & UNIT_BB[other]
                left = spots & ~removed
                if spots.bit_count() > 1 and left.bit_count() == 1:
                    cells = [i for i in UNITS[target] if i not in UNITS[source]]
                    return removal_and_single(board, cells, BIT[d + 1], first_cell(left), d)
    return NOTHING


def _sukaku_direct(board: Board, pointing: bool) -> Found:
    """SukakuExplainer's direct forms (Juillerat's SE's): place every digit the locked patterns
    leave a single place in a unit of the source's kind; the removals are not applied."""
    boards = board_digits(board)
    placements = []
    for d, source, target in _locks(board, pointing):
        bb = boards[d]
        removed = bb & UNIT_BB[target] & ~UNIT_BB[source]
        seen = set()
        for i in UNITS[target]:
            other = _parallel(source, i)
            if other == source or other in seen:
                continue
            seen.add(other)
            spots = bb & UNIT_BB[other]
            left = spots & ~removed
            if spots.bit_count() > 1 and left.bit_count() == 1:
                placements.append((first_cell(left), BIT[d + 1]))
    return place_all(board, placements)


def pointing(board: Board) -> Found:
    """Pointing."""
    return _locked(board, pointing=True)


def claiming(board: Board) -> Found:
    """Claiming."""
    return _locked(board, pointing=False)


def direct_pointing(board: Board) -> Found:
    """Direct pointing: a pointing that leaves a hidden single in another box."""
    return _direct(board, pointing=True)


def direct_claiming(board: Board) -> Found:
    """Direct claiming: a claiming that leaves a hidden single in a parallel line."""
    return _direct(board, pointing=False)


def sukaku_direct_pointing(board: Board) -> Found:
    """Direct pointing, as SukakuExplainer applies it."""
    return _sukaku_direct(board, pointing=True)


def sukaku_direct_claiming(board: Board) -> Found:
    """Direct claiming, as SukakuExplainer applies it."""
    return _sukaku_direct(board, pointing=False)
