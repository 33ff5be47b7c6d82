"""Unique rectangles and unique loops, as Sudoku Explainer's ``UniqueLoops`` finds them.

Both assume the puzzle has exactly one solution: a deduction they make can be wrong for a
puzzle with several. The engine therefore never trusts them for the status: when one fired,
uniqueness is proven by search from the givens (``solver.engine``). BUG is in ``solver.bug``.

A *unique loop* on the digits {a, b}: an even cycle of cells holding both, each next to the
next in a unit, that visits every unit it touches exactly twice, once at an odd and once at an
even place of the cycle. If only {a, b} were left in all its cells, the two digits could swap
along it and the puzzle would have two solutions; so the *extra* digits of its other cells
(at most two such cells, or any number sharing one extra digit) cannot all be false. A loop of
four cells is a unique rectangle. SE starts each loop at a cell holding exactly {a, b}.

Type 1: one extra cell: it is not a or b.
Type 2: the extra cells share one extra digit z: one of them is z, so z leaves every cell
that sees them all.
Type 3: two extra cells in a unit whose extra digits, as one more cell, complete a naked set
with other cells of the unit (its digits leave the unit's other cells), or whose a and b, with
other digits, form a hidden set with other cells of the unit but only one of the two extra cells
(those cells keep only the set's digits).
Type 4: two extra cells in a unit where a (or b) has no other place: they are both not b (a).

SukakuExplainer (with lkSudoku's changes, its defaults) differs in two details, followed on
the ``sukaku`` profile: its search counts the extra digits of the path only, and its type 3
also looks for hidden sets of fewer digits than the extra ones.

A loop's SE value is 4.5 for a rectangle (``unique_rectangle``) and more for longer loops
(``LOOP_BONUS``, tenths on that base), plus for type 3 a tenth per digit of the naked set
beyond the first, or per cell of the hidden set beyond the first two. SE's step is the first
hint found (start cells in reading order, then its search) among the easiest (by value, then
type): it is a step of ``unique_rectangle`` when that hint is a rectangle's, else of
``unique_loop``, the next rung.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

from solver.bitboard import PEER_BB, UNIT_BB, cells_of
from solver.board import NOTHING, Board, Found, remove
from solver.grid import BITS, POPCOUNT, SE_UNITS_OF, UNITS

# Tenths a loop adds to SE's 4.5 by its number of cells: the first row whose length it reaches.
LOOP_BONUS = ((10, 5), (8, 2), (6, 1), (4, 0))
TYPE_3_NAKED_BONUS = 1  # tenths per digit of the naked set beyond the first
TYPE_3_HIDDEN_BONUS = 1  # tenths per cell of the hidden set beyond the first two
LARGEST_SET = 7  # SE's largest set of type 3
MAX_EXTRA_CELLS = 2  # extra cells allowed in a loop unless they share one extra digit


UNITS_MASK = tuple(sum(1 << u for u in SE_UNITS_OF[i]) for i in range(81))


class Hint(NamedTuple):
    """A loop's deduction: its SE value above 4.5 (tenths), type, cells and removals."""

    bonus: int
    kind: int
    size: int
    removals: tuple[tuple[int, int], ...]  # (cell, digits to remove)


def loop_bonus(size: int) -> int:
    """The tenths a loop of ``size`` cells adds to SE's unique rectangle."""
    return next(bonus for length, bonus in LOOP_BONUS if size >= length)


def _loop_cells(cells: int) -> int:
    """The cells (a bitboard) that may lie on a loop through ``cells``: a loop cell shares each
    of its units with another loop cell, so cells alone in a unit go, until none is."""
    changed = True
    while changed:
        changed = False
        for i in cells_of(cells):
            others = cells & ~(1 << i)
            if any(not UNIT_BB[u] & others for u in SE_UNITS_OF[i]):
                cells &= ~(1 << i)
                changed = True
    return cells


def _loops(cands: list[int], start: int, sukaku: bool) -> Iterator[list[int]]:
    """The loops on the two digits of ``start`` that SE's search finds from it. Classic SE
    counts the extra digits over every cell tried from the current one; SukakuExplainer
    (``sukaku``) over the cells of the path only."""
    pair = cands[start]
    path = [start]
    seen = [UNITS_MASK[start], 0]  # units touched at even and at odd places
    able = _loop_cells(sum(1 << i for i in range(81) if cands[i] & pair == pair))
    if not able >> start & 1:
        return

    def extend(cell: int, allowed: int, extra: int, came: int) -> Iterator[list[int]]:
        for kind, unit in enumerate(SE_UNITS_OF[cell]):
            if kind == came:
                continue
            for nxt in UNITS[unit]:
                if nxt == start and len(path) >= 4:
                    if seen[0] == seen[1]:
                        yield path[:]
                    continue
                m = cands[nxt]
                if m & pair != pair or nxt in path:
                    continue
                mine = extra | m & ~pair  # classic SE keeps it for the next cells tried
                extra = extra if sukaku else mine
                wide = POPCOUNT[m] > 2
                if not able >> nxt & 1:
                    continue  # counted for the extra digits, but on no loop
                if not wide or POPCOUNT[mine] == 1 or allowed > 0:
                    parity = len(path) & 1
                    if seen[parity] & UNITS_MASK[nxt]:
                        continue  # a unit twice at places of one parity: never a loop
                    path.append(nxt)
                    seen[parity] |= UNITS_MASK[nxt]
                    yield from extend(nxt, allowed - wide, mine, kind)
                    seen[parity] &= ~UNITS_MASK[nxt]
                    path.pop()

    yield from extend(start, MAX_EXTRA_CELLS, 0, -1)


def _hints(board: Board, sukaku: bool) -> list[Hint]:
    """Every hint of every loop SE finds, in SE's order (start cell, then search)."""
    cands = board.cands
    hints: list[Hint] = []
    for start in range(81):
        if POPCOUNT[cands[start]] != 2:
            continue
        for loop in _loops(cands, start, sukaku):
            hints.extend(_loop_hints(board, loop, cands[start], sukaku))
    return hints


def _loop_hints(board: Board, loop: list[int], pair: int, sukaku: bool) -> Iterator[Hint]:
    """The hints of one loop on the digits of ``pair``."""
    cands = board.cands
    base = loop_bonus(len(loop))
    extra = [i for i in loop if POPCOUNT[cands[i]] > 2]
    if not extra:
        return
    if len(extra) == 1:
        yield Hint(base, 1, len(loop), ((extra[0], pair),))
        return
    digits = 0
    for i in extra:
        digits |= cands[i] & ~pair
    if POPCOUNT[digits] == 1:
        seeing = -1
        for i in extra:
            seeing &= PEER_BB[i]
        removals = tuple((i, digits) for i in cells_of(seeing) if cands[i] & digits)
        if removals:
            yield Hint(base, 2, len(loop), removals)
    if len(extra) != 2:
        return
    a, b = extra
    if POPCOUNT[digits] >= 2:
        yield from _type3(board, loop, pair, a, b, digits, base, sukaku)
    yield from _type4(cands, len(loop), pair, a, b, base)


def _shared(a: int, b: int) -> list[int]:
    """The units holding both cells, in SE's order."""
    return [u for u in SE_UNITS_OF[a] if UNIT_BB[u] >> b & 1]


def _type4(cands: list[int], size: int, pair: int, a: int, b: int, base: int) -> Iterator[Hint]:
    """Type 4: a digit of the pair locked in a unit of the two extra cells."""
    locked = [0, 0]
    lo, hi = BITS[pair]
    for u in _shared(a, b):
        rest = [i for i in UNITS[u] if i not in (a, b)]
        for k, bit in enumerate((lo, hi)):
            if not any(cands[i] & bit for i in rest):
                locked[k] = 1
    if locked[0] or locked[1]:
        drop = hi if locked[0] else lo
        yield Hint(base, 4, size, ((a, drop), (b, drop)))


def _type3(
    board: Board, loop: list[int], pair: int, a: int, b: int, digits: int, base: int, sukaku: bool
) -> Iterator[Hint]:
    """Type 3: naked sets completed by the extra digits, hidden sets with the pair. Classic SE
    looks for sets of as many digits as the extra ones and more; SukakuExplainer for hidden
    sets from pairs on."""
    cands = board.cands
    for size in range(2 if sukaku else POPCOUNT[digits], LARGEST_SET + 1):
        for u in _shared(a, b):
            empty = sum(1 for i in UNITS[u] if not board.values[i])
            others = [i for i in UNITS[u] if i not in (a, b)]
            if size * 2 <= empty and size >= POPCOUNT[digits]:
                core = digits & cands[a] & cands[b]
                for cells in combinations(others, size - 1):
                    if any(POPCOUNT[cands[i]] < 2 for i in cells):
                        continue
                    union = 0
                    for i in cells:
                        union |= cands[i]
                    if POPCOUNT[union | core] != size or POPCOUNT[union | digits] != size:
                        continue
                    naked = union | digits
                    removals = tuple(
                        (i, naked) for i in others if i not in cells and cands[i] & naked
                    )
                    if removals:
                        bonus = base + TYPE_3_NAKED_BONUS * (size - 1)
                        yield Hint(bonus, 3, len(loop), removals)
            if size * 2 < empty:
                yield from _hidden(cands, len(loop), u, pair, a, b, digits, size, base)


def _hidden(
    cands: list[int],
    length: int,
    u: int,
    pair: int,
    a: int,
    b: int,
    digits: int,
    size: int,
    base: int,
) -> Iterator[Hint]:
    """Type 3 with a hidden set of ``size`` digits: the pair and others in the unit, on the
    first extra cell but not the second."""
    rest = [bit for bit in BITS[511] if not bit & (pair | digits)]
    for chosen in combinations(rest, size - 2):
        hidden = pair
        places = 0
        ok = True
        for bit in chosen:
            hidden |= bit
        for bit in BITS[hidden]:
            where = sum(1 << k for k, i in enumerate(UNITS[u]) if cands[i] & bit and i != b)
            if not where:
                ok = False
                break
            places |= where
        if not ok or POPCOUNT[places] != size:
            continue
        cells = [UNITS[u][k] for k in range(9) if places >> k & 1 and UNITS[u][k] != a]
        removals = tuple((i, cands[i] & ~hidden) for i in cells if cands[i] & ~hidden)
        if removals:
            bonus = base + TYPE_3_HIDDEN_BONUS * (len(cells) - 1)
            yield Hint(bonus, 3, length, removals)


def _apply(board: Board, hint: Hint) -> Found:
    """The hint's removals: one firing, with the contradiction met, if any."""
    found = NOTHING
    for i, digits in hint.removals:
        found += remove(board, (i,), digits)
        if found.contradiction:
            break
    return Found(1, 0, found.contradiction) if found.fired else NOTHING


def _easiest(board: Board, rectangle: bool, base: int, sukaku: bool) -> Found:
    """SE's step among all loops' hints: the first (in SE's order of search) of the easiest
    (value, then type), applied when it is a rectangle's (``rectangle``), or a longer loop's."""
    hints = _hints(board, sukaku)
    if not hints:
        return NOTHING
    key = min((h.bonus, h.kind) for h in hints)
    first = next(h for h in hints if (h.bonus, h.kind) == key)
    if (first.size == 4) != rectangle:
        return NOTHING
    found = _apply(board, first)
    return found.with_bonus(key[0] - base) if found.fired else found


def unique_rectangle(board: Board) -> Found:
    """Unique rectangle, types 1 to 4, when SE's easiest unique loop is a rectangle."""
    return _easiest(board, True, loop_bonus(4), False)


def unique_loop(board: Board) -> Found:
    """Unique loop of six cells or more, types 1 to 4, when SE's easiest is such a loop."""
    return _easiest(board, False, loop_bonus(6), False)


def sukaku_unique_rectangle(board: Board) -> Found:
    """``unique_rectangle`` as SukakuExplainer finds it."""
    return _easiest(board, True, loop_bonus(4), True)


def sukaku_unique_loop(board: Board) -> Found:
    """``unique_loop`` as SukakuExplainer finds it."""
    return _easiest(board, False, loop_bonus(6), True)
