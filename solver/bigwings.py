"""SukakuExplainer's big wings: WXYZ- and VWXYZ-Wing (4 and 5 digits).

A wing of size n is an ALS-XZ whose small set is one two-candidate cell. The large set is n - 1
cells that all see one another (so one house) holding exactly n digits between them: lose any
one digit and the rest fill the set. The pincer cell {x, z} lies outside the set, both its
digits in the set. Call x *restricted* when every set cell holding x sees the pincer: set and
pincer cannot both take x, so one of them lacks x, and that one holds z; z then leaves every
cell that sees the pincer and every set cell holding z.

When both pincer digits are restricted (SE's "doubly linked" wing) the set and the pincer
together lock n cells onto n digits: both x and z leave the cells that see the pincer
and their holders, and each other digit w of the set leaves every cell that sees all its
holders in the set.

SukakuExplainer keeps the first hint of its sorted list, so the rung applies that one only. Its
search walks the set cells in ascending order (each later cell a peer of all earlier ones), then
the pincer cells in ascending order; the list is then sorted (stably) by difficulty (SE adds
tenths for the size of the set's largest cell: ``WING_BONUS``),
then by more eliminations, then by the hint name's suffix, descending. The suffix is
"<1 single or 2 doubly linked><largest set cell's size><total candidates of the set>" (e.g.
"WXYZ-Wing 126"); a doubly linked wing is called single when it removes no digit other than x
and z and does not remove both.
"""

from __future__ import annotations

from typing import NamedTuple

from solver.bitboard import PEER_BB, board_digits, cells_of
from solver.board import NOTHING, Board, Found, remove
from solver.grid import BITS, POPCOUNT

# For each cell, its peers of higher index: where SE looks for the next cell of the set.
_FORWARD = tuple(PEER_BB[i] & ~((2 << i) - 1) for i in range(81))
_ALL_CELLS = (1 << 81) - 1


class _Wing(NamedTuple):
    """A wing's place in SE's order (bonus, eliminations, suffix) and its removals."""

    bonus: int
    eliminations: int
    suffix: str
    removals: tuple[tuple[int, int], ...]  # (digit bit, bitboard of cells losing it)

    def beats(self, other: _Wing | None) -> bool:
        """True if SE's sort puts this wing strictly before ``other`` (ties keep the first)."""
        if other is None:
            return True
        if self.bonus != other.bonus:
            return self.bonus < other.bonus
        if self.eliminations != other.eliminations:
            return self.eliminations > other.eliminations
        return self.suffix > other.suffix


def _se_bonus(size: int, biggest: int) -> int:
    """SE's extra tenths of a wing of ``size`` digits whose largest set cell has ``biggest``
    candidates: the middle size of a set cell is the hardest (a set cell has two candidates at
    least, so the sizes below give 0)."""
    middle = 3
    top = {4: 1, 5: 2}[size]
    return max(0, top - abs(middle - biggest))


# WING_BONUS[size - 4][biggest]: the table the rungs (and the compiled core) read.
WING_BONUS = tuple(tuple(_se_bonus(size, big) for big in range(8)) for size in range(4, 6))


def _pincers(board: Board, digits: list[int], size: int, als: list[int], union: int) -> list[_Wing]:
    """The wings of the set ``als`` (digits ``union``) with each pincer, in SE's order;
    ``digits``: the board's bitboard of each digit's candidates."""
    cands = board.cands
    als_bb = 0
    reach = 0
    for c in als:
        als_bb |= 1 << c
        reach |= PEER_BB[c]
    biggest = max(POPCOUNT[cands[c]] for c in als)
    suffix_tail = f"{biggest}{sum(POPCOUNT[cands[c]] for c in als)}"
    bonus = WING_BONUS[size - 4][biggest]
    # Per digit of the set: the set cells holding it, and the cells that see all of those.
    holders: dict[int, int] = {}
    seen_by_all: dict[int, int] = {}
    for bit in BITS[union]:
        held = _ALL_CELLS
        cells = 0
        for c in als:
            if cands[c] & bit:
                cells |= 1 << c
                held &= PEER_BB[c]
        holders[bit] = cells
        seen_by_all[bit] = held
    wings = []
    for yz in cells_of(reach & ~als_bb):
        m = cands[yz]
        if POPCOUNT[m] != 2 or m & ~union:
            continue
        x, z = BITS[m]
        x_restricted = not holders[x] & ~PEER_BB[yz]
        z_restricted = not holders[z] & ~PEER_BB[yz]
        if not (x_restricted or z_restricted):
            continue
        outside = ~(als_bb | 1 << yz)

        def victims(bit: int, strong: bool, yz: int = yz, outside: int = outside) -> int:
            near = seen_by_all[bit] & outside & digits[bit.bit_length() - 1]
            return near & PEER_BB[yz] if strong else near

        if x_restricted and z_restricted:
            weak = tuple((w, victims(w, False)) for w in BITS[union & ~m])
            strong_x = victims(x, True)
            strong_z = victims(z, True)
            removals = (*weak, (x, strong_x), (z, strong_z))
            doubly = any(v for _, v in weak) or bool(strong_x and strong_z)
        else:
            gone = z if x_restricted else x
            removals = ((gone, victims(gone, True)),)
            doubly = False
        eliminations = sum(v.bit_count() for _, v in removals)
        if eliminations:
            suffix = ("2" if doubly else "1") + suffix_tail
            wings.append(_Wing(bonus, eliminations, suffix, removals))
    return wings


def _first_wing(board: Board, size: int) -> _Wing | None:
    """SE's first hint among the wings of ``size`` digits (``size - 1`` set cells), or None."""
    cands = board.cands
    digits = board_digits(board)
    best: _Wing | None = None
    als: list[int] = []

    def extend(options: int, union: int) -> None:
        nonlocal best
        if len(als) == size - 1:
            if POPCOUNT[union] == size:
                for wing in _pincers(board, digits, size, als, union):
                    if wing.beats(best):
                        best = wing
            return
        for c in cells_of(options):
            m = cands[c]
            joined = union | m
            if POPCOUNT[m] < 2 or POPCOUNT[joined] > size:
                continue
            als.append(c)
            extend(options & _FORWARD[c] if len(als) > 1 else _FORWARD[c], joined)
            als.pop()

    extend(_ALL_CELLS, 0)
    return best


def _apply(board: Board, size: int) -> Found:
    """Apply SE's first wing of ``size`` digits: its removals, cell by cell, with its bonus."""
    wing = _first_wing(board, size)
    if wing is None:
        return NOTHING
    per_cell = [0] * 81
    for bit, cells in wing.removals:
        for c in cells_of(cells):
            per_cell[c] |= bit
    found = NOTHING
    for c in range(81):
        if per_cell[c]:
            found += remove(board, (c,), per_cell[c])
    return Found(1, wing.bonus, found.contradiction)


def wxyz_wing(board: Board) -> Found:
    """WXYZ-Wing: three cells holding four digits, and a pincer."""
    return _apply(board, 4)


def vwxyz_wing(board: Board) -> Found:
    """VWXYZ-Wing: four cells holding five digits, and a pincer."""
    return _apply(board, 5)
