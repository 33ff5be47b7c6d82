"""The techniques: each takes a board, applies every instance it finds in one sweep, and
returns how many times it fired (0 when it found nothing). A contradiction met on the way is
left in ``board.contradiction``; the caller stops there.

Every technique here is sound without assuming a unique solution: it never removes a digit
that some solution of the puzzle has in that cell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from solver.board import Board, eliminate, place
from solver.grid import BITS, BOXES, COLS, DIGIT_OF, LINES, POPCOUNT, ROWS, UNITS, Mask, unit_name

BOX_UNITS = tuple(range(18, 27))
LINE_UNITS = tuple(range(18))


def _intersections() -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """For each line crossing a box: (the 3 shared cells, rest of the line, rest of the box)."""
    found = []
    for line in LINES:
        for box in BOXES:
            shared = tuple(i for i in line if i in box)
            if shared:
                rest_line = tuple(i for i in line if i not in shared)
                rest_box = tuple(i for i in box if i not in shared)
                found.append((shared, rest_line, rest_box))
    return tuple(found)


INTERSECTIONS = _intersections()


def _hidden_singles(board: Board, unit_indices: Sequence[int]) -> int:
    """Place each digit that has a single candidate cell left in one of the given units."""
    cands = board.cands
    fired = 0
    for u in unit_indices:
        unit = UNITS[u]
        once = twice = 0
        for i in unit:
            c = cands[i]
            twice |= once & c
            once |= c
        for bit in BITS[once & ~twice]:
            cell = next((i for i in unit if cands[i] & bit), -1)
            if cell < 0 or not place(board, cell, bit):
                board.contradiction = board.contradiction or (
                    f"digit {DIGIT_OF[bit]} has no place left in {unit_name(u)}"
                )
                return fired
            fired += 1
    return fired


def hidden_single_box(board: Board) -> int:
    """Hidden single in a box (SE 1.2): a digit with one candidate cell left in a box."""
    return _hidden_singles(board, BOX_UNITS)


def hidden_single_line(board: Board) -> int:
    """Hidden single in a row or column (SE 1.5)."""
    return _hidden_singles(board, LINE_UNITS)


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


def _locked(board: Board, source: int, target: int) -> int:
    """Locked candidates: digits of a line/box intersection absent from ``source`` (1: rest of
    line, 2: rest of box) are removed from ``target``."""
    cands = board.cands
    fired = 0
    for parts in INTERSECTIONS:
        a, b, c = parts[0]
        inside = cands[a] | cands[b] | cands[c]
        if not inside:
            continue
        outside = 0
        for i in parts[source]:
            outside |= cands[i]
        for bit in BITS[inside & ~outside]:
            hits = [eliminate(board, i, bit) for i in parts[target]]
            fired += any(hits)
    return fired


def pointing(board: Board) -> int:
    """Pointing (SE 2.6): a digit confined to one line within a box leaves the rest of the line."""
    return _locked(board, source=2, target=1)


def claiming(board: Board) -> int:
    """Claiming (SE 2.8): a digit confined to one box within a line leaves the rest of the box."""
    return _locked(board, source=1, target=2)


def _naked_subsets(board: Board, size: int) -> int:
    """Naked subset: ``size`` cells of a unit holding only ``size`` digits between them."""
    cands = board.cands
    fired = 0
    for unit in UNITS:
        small = [i for i in unit if 1 < POPCOUNT[cands[i]] <= size]
        for group in combinations(small, size):
            union = 0
            for i in group:
                union |= cands[i]
            if POPCOUNT[union] == size:
                hits = [eliminate(board, i, union) for i in unit if i not in group]
                fired += any(hits)
    return fired


def _positions(cands: list[Mask], unit: Sequence[int]) -> list[int]:
    """For each digit 1-9 (index 0-8), the mask of the unit's positions that allow it."""
    where = [0] * 9
    for k, i in enumerate(unit):
        for bit in BITS[cands[i]]:
            where[bit.bit_length() - 1] |= 1 << k
    return where


def _hidden_subsets(board: Board, size: int) -> int:
    """Hidden subset: ``size`` digits of a unit confined to the same ``size`` cells."""
    cands = board.cands
    fired = 0
    for unit in UNITS:
        where = _positions(cands, unit)
        digits = [d for d in range(9) if 1 < POPCOUNT[where[d]] <= size]
        for group in combinations(digits, size):
            spots = 0
            keep = 0
            for d in group:
                spots |= where[d]
                keep |= 1 << d
            if POPCOUNT[spots] == size:
                hits = [eliminate(board, unit[k], 0x1FF & ~keep) for k in _ks(spots)]
                fired += any(hits)
    return fired


def _ks(positions: int) -> Iterator[int]:
    """The indices of the set bits of a position mask."""
    return (b.bit_length() - 1 for b in BITS[positions])


def _fish(board: Board, bases: Sequence[Sequence[int]], covers: Sequence[Sequence[int]]) -> int:
    """X-Wing over ``bases`` (rows or columns): a digit in exactly the same two positions of two
    base lines is removed from those two cover lines everywhere else."""
    cands = board.cands
    fired = 0
    for bit in BITS[0x1FF]:
        pattern: dict[int, list[int]] = {}
        for n, line in enumerate(bases):
            spots = 0
            for k, i in enumerate(line):
                if cands[i] & bit:
                    spots |= 1 << k
            if POPCOUNT[spots] == 2:
                pattern.setdefault(spots, []).append(n)
        for spots, lines in pattern.items():
            for pair in combinations(lines, 2):
                hits = [
                    eliminate(board, i, bit)
                    for k in _ks(spots)
                    for n, i in enumerate(covers[k])
                    if n not in pair
                ]
                fired += any(hits)
    return fired


def naked_pair(board: Board) -> int:
    """Naked pair (SE 3.0): two cells of a unit with the same two candidates."""
    return _naked_subsets(board, 2)


def x_wing(board: Board) -> int:
    """X-Wing (SE 3.2), on rows then on columns."""
    return _fish(board, ROWS, COLS) + _fish(board, COLS, ROWS)


def hidden_pair(board: Board) -> int:
    """Hidden pair (SE 3.4): two digits of a unit confined to the same two cells."""
    return _hidden_subsets(board, 2)


def naked_triple(board: Board) -> int:
    """Naked triple (SE 3.6): three cells of a unit holding only three digits between them."""
    return _naked_subsets(board, 3)


def hidden_triple(board: Board) -> int:
    """Hidden triple (SE 4.0): three digits of a unit confined to the same three cells."""
    return _hidden_subsets(board, 3)
