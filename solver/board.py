"""The pencil-marked board the techniques work on, and what a change to it can find.

A board keeps two flat lists of 81 ints: ``values`` (the placed digit, 0 while empty) and
``cands`` (the candidate mask of an empty cell, 0 once the cell holds a digit). Placing a digit
removes it from the candidates of the cell's peers.

Changes report what they did as values, never through the board: ``place`` and ``remove``
return a ``Found`` (how many changes, and the ``Contradiction`` met, if any), techniques add
those up and return their own ``Found``, with the extra difficulty of the instance they applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from solver.grid import ALL, BIT, DIGIT_OF, PEERS, Grid, Mask, cell_name, unit_name

# Why a position cannot be completed, by kind (the compiled core reports the same kinds).
REASONS = {
    "no_candidate": "cell {cell} has no candidate left",
    "cannot_hold": "cell {cell} cannot hold {digit}",
    "no_place": "digit {digit} has no place left in {unit}",
    "both_branches": "both candidates of cell {cell} lead to a contradiction",
}
CONTRADICTIONS = tuple(REASONS)


class Contradiction(NamedTuple):
    """A position that cannot be completed: its kind (a key of ``REASONS``), the cell (the unit
    index for ``no_place``) and the digit concerned (0 when none)."""

    kind: str
    at: int
    digit: int = 0

    def __str__(self) -> str:
        place = unit_name(self.at) if self.kind == "no_place" else cell_name(self.at)
        return REASONS[self.kind].format(cell=place, unit=place, digit=self.digit)


@dataclass(frozen=True, slots=True)
class Found:
    """What applying a technique did: the instances (or changes) that changed the board, the
    extra difficulty in tenths of the instance applied (a longer chain, a rarer type), and the
    contradiction met, if any (the board is then left as it was when it was met)."""

    fired: int = 0
    bonus: int = 0
    contradiction: Contradiction | None = None

    def __add__(self, other: Found) -> Found:
        """Both findings together: changes added, the larger bonus, the first contradiction."""
        if other is NOTHING:
            return self
        if self is NOTHING:
            return other
        return Found(
            self.fired + other.fired,
            max(self.bonus, other.bonus),
            self.contradiction or other.contradiction,
        )

    def with_bonus(self, bonus: int) -> Found:
        """The same finding with the instance's extra difficulty."""
        return Found(self.fired, bonus, self.contradiction)


NOTHING = Found()
ONE = Found(1)


def broken(contradiction: Contradiction) -> Found:
    """A finding that is only a contradiction."""
    return Found(0, 0, contradiction)


class Board:
    """Placed digits, candidates and the count of empty cells."""

    __slots__ = ("cands", "digit_cells", "empty", "values")

    def __init__(self, values: list[int], cands: list[Mask]) -> None:
        self.values = values
        self.cands = cands
        self.empty = values.count(0)
        # Cache of solver.bitboard.digit_boards(cands); dropped by every change.
        self.digit_cells: list[int] | None = None

    @classmethod
    def from_grid(cls, grid: Grid) -> Board:
        """The board of a conflict-free grid: every empty cell gets the digits its peers lack."""
        values = list(grid)
        cands = [0] * 81
        for i, d in enumerate(values):
            if not d:
                used = 0
                for p in PEERS[i]:
                    used |= BIT[values[p]]
                cands[i] = ALL & ~used
        return cls(values, cands)

    def first_dead_cell(self) -> Contradiction | None:
        """An empty cell without candidates (the first), as a contradiction; None if none."""
        for i in range(81):
            if not self.values[i] and not self.cands[i]:
                return Contradiction("no_candidate", i)
        return None

    def copy(self) -> Board:
        """An independent board with the same state."""
        return Board(self.values[:], self.cands[:])

    def solved(self) -> bool:
        """True when every cell holds a digit."""
        return self.empty == 0

    def masks(self) -> list[Mask]:
        """One mask per cell: the placed digit's bit, or the candidates of an empty cell."""
        return [BIT[v] if v else c for v, c in zip(self.values, self.cands, strict=True)]


def place(board: Board, i: int, bit: Mask) -> Found:
    """Put the digit of ``bit`` in cell ``i`` and remove it from the peers: ONE, or the
    contradiction met (the cell cannot hold it, or a peer loses its last candidate), which
    counts no change."""
    cands = board.cands
    if not cands[i] & bit:
        return broken(Contradiction("cannot_hold", i, DIGIT_OF[bit]))
    board.values[i] = DIGIT_OF[bit]
    board.digit_cells = None
    cands[i] = 0
    board.empty -= 1
    for p in PEERS[i]:
        if cands[p] & bit:
            cands[p] ^= bit
            if not cands[p]:
                return broken(Contradiction("no_candidate", p))
    return ONE


def eliminate(board: Board, i: int, mask: Mask) -> bool:
    """Remove the digits of ``mask`` from cell ``i``: True if any was there to remove. The
    cell may be left without candidates: ``remove`` reports that."""
    cands = board.cands
    if not cands[i] & mask:
        return False
    board.digit_cells = None
    cands[i] &= ~mask
    return True


def remove(board: Board, cells: Iterable[int], mask: Mask) -> Found:
    """Remove the digits of ``mask`` from every cell of ``cells``: ONE if anything was removed
    (one instance), NOTHING otherwise, with the lowest cell left without candidates."""
    cands = board.cands
    removed = False
    dead = 81
    for i in cells:
        if cands[i] & mask:
            cands[i] &= ~mask
            removed = True
            if not cands[i] and i < dead:
                dead = i
    if not removed:
        return NOTHING
    board.digit_cells = None
    return ONE if dead == 81 else Found(1, 0, Contradiction("no_candidate", dead))
