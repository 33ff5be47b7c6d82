"""Basic fish: X-Wing (SE 3.2), swordfish (3.8), jellyfish (5.2).

A digit whose candidates in ``n`` base lines (rows, or columns) lie in exactly ``n`` cover
lines of the other kind is removed from the cover lines outside the base lines. As in Sudoku
Explainer, a fish of size ``n`` is looked for only for digits placed at most ``9 - 2n`` times
(otherwise the complement is a smaller fish).
"""

from __future__ import annotations

from itertools import combinations

from solver.board import Board, eliminate
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


def _fish_one(board: Board, bit: int, size: int, transpose: bool) -> int:
    """Apply the fish of ``size`` for one digit with rows (or columns) as base lines."""
    bases, covers = (COLS, ROWS) if transpose else (ROWS, COLS)
    spots = _line_positions(board.cands, bases, bit)
    eligible = [n for n in range(9) if 1 < POPCOUNT[spots[n]] <= size]
    fired = 0
    for group in combinations(eligible, size):
        union = 0
        for n in group:
            union |= spots[n]
        if POPCOUNT[union] != size:
            continue
        hits = [
            eliminate(board, i, bit)
            for k in range(9)
            if union >> k & 1
            for n, i in enumerate(covers[k])
            if n not in group
        ]
        fired += any(hits)
    return fired


def fish(board: Board, size: int) -> int:
    """Apply every fish of ``size``; the count of patterns that removed something."""
    placed = [0] * 10
    for v in board.values:
        placed[v] += 1
    fired = 0
    for d in range(1, 10):
        if placed[d] + 2 * size <= 9:
            fired += _fish_one(board, BIT[d], size, transpose=True)
            fired += _fish_one(board, BIT[d], size, transpose=False)
    return fired


def x_wing(board: Board) -> int:
    """X-Wing (SE 3.2)."""
    return fish(board, 2)


def swordfish(board: Board) -> int:
    """Swordfish (SE 3.8)."""
    return fish(board, 3)


def jellyfish(board: Board) -> int:
    """Jellyfish (SE 5.2)."""
    return fish(board, 4)
