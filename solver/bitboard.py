"""Bitboards: a set of cells as one int, bit ``i`` for cell ``i`` (0..80).

Techniques that reason about where a digit can go (intersections, fish, wings, uniqueness)
work on one bitboard per digit, built from the board's candidates, plus the precomputed
bitboards of the units and of each cell's peers.
"""

from __future__ import annotations

from collections.abc import Iterator

from solver.board import Board
from solver.grid import BITS, PEERS, UNITS, Mask

UNIT_BB = tuple(sum(1 << i for i in unit) for unit in UNITS)
PEER_BB = tuple(sum(1 << p for p in peers) for peers in PEERS)


def digit_boards(cands: list[Mask]) -> list[int]:
    """For each digit 1-9 (index 0-8), the bitboard of the empty cells that allow it."""
    boards = [0] * 9
    for i, m in enumerate(cands):
        if m:
            cell = 1 << i
            for bit in BITS[m]:
                boards[bit.bit_length() - 1] |= cell
    return boards


def board_digits(board: Board) -> list[int]:
    """``digit_boards`` of the board's candidates, cached on the board until it changes."""
    if board.digit_cells is None:
        board.digit_cells = digit_boards(board.cands)
    return board.digit_cells


def cells_of(bb: int) -> Iterator[int]:
    """The cells of a bitboard, ascending."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def first_cell(bb: int) -> int:
    """The lowest cell of a non-empty bitboard."""
    return (bb & -bb).bit_length() - 1
