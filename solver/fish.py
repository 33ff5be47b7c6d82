"""Basic fish: X-Wing, swordfish, jellyfish.

A digit whose candidates in ``n`` base lines (rows, or columns) lie in exactly ``n`` cover
lines of the other kind is removed from the cover lines outside the base lines. As in Sudoku
Explainer, a fish of size ``n`` is looked for only for digits placed at most ``9 - 2n`` times
(otherwise the complement is a smaller fish).
"""

from __future__ import annotations

from itertools import combinations

from solver.board import NOTHING, Board, Found, remove
from solver.grid import BIT, COLS, POPCOUNT, ROWS


def _line_positions(cands: list[int], lines: tuple[tuple[int, ...], ...], bit: int) -> list[int]:
    """For each line, the mask of positions (0-8 along the line) that allow the digit."""
    found = []
    for line in lines:
        spots = 0
        for k, i in enumerate(line):
            if cands[i] & bit:
                spots |= 1 << k
        found.append(spots)
    return found


def _fish_one(board: Board, bit: int, size: int, transpose: bool) -> Found:
    """Apply the fish of ``size`` for one digit with rows (or columns) as base lines."""
    bases, covers = (COLS, ROWS) if transpose else (ROWS, COLS)
    spots = _line_positions(board.cands, bases, bit)
    eligible = [n for n in range(9) if 1 < POPCOUNT[spots[n]] <= size]
    found = NOTHING
    for group in combinations(eligible, size):
        union = 0
        for n in group:
            union |= spots[n]
        if POPCOUNT[union] != size:
            continue
        cells = [
            i for k in range(9) if union >> k & 1 for n, i in enumerate(covers[k]) if n not in group
        ]
        found += remove(board, cells, bit)
        if found.contradiction:
            break
    return found


def fish(board: Board, size: int) -> Found:
    """Apply every fish of ``size``; fired: the patterns that removed something."""
    placed = [0] * 10
    for v in board.values:
        placed[v] += 1
    found = NOTHING
    for d in range(1, 10):
        if placed[d] + 2 * size <= 9:
            for transpose in (True, False):
                found += _fish_one(board, BIT[d], size, transpose)
                if found.contradiction:
                    return found
    return found


def x_wing(board: Board) -> Found:
    """X-Wing."""
    return fish(board, 2)


def swordfish(board: Board) -> Found:
    """Swordfish."""
    return fish(board, 3)


def jellyfish(board: Board) -> Found:
    """Jellyfish."""
    return fish(board, 4)
