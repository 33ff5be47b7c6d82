"""The pencil-marked board the techniques work on: placed digits plus candidates.

A board keeps two flat lists of 81 ints: ``values`` (the placed digit, 0 while empty) and
``cands`` (the candidate mask of an empty cell, 0 once the cell holds a digit). Placing a digit
removes it from the candidates of the cell's peers. A contradiction (an empty cell with no
candidate, a digit with no place left in a unit) is recorded in ``contradiction`` as a
sentence, not raised: the caller checks it after each step. A technique whose SE value
depends on the instance (a longer chain, a rarer type) adds the extra to ``bonus``.
"""

from __future__ import annotations

from solver.grid import ALL, BIT, DIGIT_OF, PEERS, Grid, Mask, cell_name


class Board:
    """Placed digits, candidates, the count of empty cells, and the first contradiction met."""

    __slots__ = ("bonus", "cands", "contradiction", "digit_cells", "empty", "values")

    def __init__(self, values: list[int], cands: list[Mask]) -> None:
        self.values = values
        self.cands = cands
        self.empty = values.count(0)
        self.contradiction: str | None = None
        self.bonus = 0.0
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
        board = cls(values, cands)
        for i, d in enumerate(values):
            if not d and not cands[i]:
                board.contradiction = f"cell {cell_name(i)} has no candidate left"
                break
        return board

    def copy(self) -> Board:
        """An independent board with the same state."""
        twin = Board(self.values[:], self.cands[:])
        twin.contradiction = self.contradiction
        return twin

    def solved(self) -> bool:
        """True when every cell holds a digit."""
        return self.empty == 0

    def masks(self) -> list[Mask]:
        """One mask per cell: the placed digit's bit, or the candidates of an empty cell."""
        return [BIT[v] if v else c for v, c in zip(self.values, self.cands, strict=True)]


def place(board: Board, i: int, bit: Mask) -> bool:
    """Put the digit of ``bit`` in cell ``i``, remove it from the peers; False on contradiction."""
    cands = board.cands
    if not cands[i] & bit:
        board.contradiction = f"cell {cell_name(i)} cannot hold {DIGIT_OF[bit]}"
        return False
    board.values[i] = DIGIT_OF[bit]
    board.digit_cells = None
    cands[i] = 0
    board.empty -= 1
    for p in PEERS[i]:
        if cands[p] & bit:
            cands[p] ^= bit
            if not cands[p]:
                board.contradiction = f"cell {cell_name(p)} has no candidate left"
                return False
    return True


def eliminate(board: Board, i: int, mask: Mask) -> bool:
    """Remove the digits of ``mask`` from cell ``i``: True if any was there to remove."""
    cands = board.cands
    if not cands[i] & mask:
        return False
    board.digit_cells = None
    cands[i] &= ~mask
    if not cands[i]:
        board.contradiction = f"cell {cell_name(i)} has no candidate left"
    return True
