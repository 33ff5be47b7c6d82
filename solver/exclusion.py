"""Aligned pair exclusion, as Sudoku Explainer applies it.

Two *base* cells and the bivalue cells that see both of them (their *excluders*): a pair of
digits (one per base cell) is impossible when the base cells see each other and the digits are
equal, or when an excluder holds exactly those two digits (it would be left empty). A
candidate of a base cell that belongs to no possible pair is removed.

SE's base cells are the empty cells with two candidates or more that see a bivalue cell (and
no cell with a single candidate); a pair of them needs two excluders or more. Pairs are tried
in SE's order (by the later cell, then the earlier one, cells in reading order) and the first
that removes something is the step, as SE takes the first hint its producer finds.
"""

from __future__ import annotations

from solver.bitboard import PEER_BB, cells_of
from solver.board import NOTHING, ONE, Board, Found, remove
from solver.grid import BITS, POPCOUNT


def _base_cells(cands: list[int]) -> list[int]:
    """SE's base cells, ascending: two candidates or more, a bivalue peer, no single peer."""
    bivalue = sum(1 << i for i in range(81) if POPCOUNT[cands[i]] == 2)
    single = sum(1 << i for i in range(81) if POPCOUNT[cands[i]] == 1)
    return [
        i
        for i in range(81)
        if POPCOUNT[cands[i]] >= 2 and PEER_BB[i] & bivalue and not PEER_BB[i] & single
    ]


def _exclusions(cands: list[int], a: int, b: int, excluders: list[int]) -> tuple[int, int]:
    """The candidates of base cells ``a`` and ``b`` that belong to no possible pair."""
    aligned = PEER_BB[a] >> b & 1
    allowed_a = allowed_b = 0
    for bit in BITS[cands[a]]:
        # The digits of b that the digit `bit` in a forbids.
        banned = bit if aligned else 0
        for e in excluders:
            if cands[e] & bit:
                banned |= cands[e] & ~bit
        left = cands[b] & ~banned
        if left:
            allowed_a |= bit
            allowed_b |= left
    return cands[a] & ~allowed_a, cands[b] & ~allowed_b


def aligned_pair_exclusion(board: Board) -> Found:
    """Aligned pair exclusion: the first pair of base cells (in SE's order) that excludes a
    candidate, with its exclusions removed."""
    cands = board.cands
    base = _base_cells(cands)
    bivalue = sum(1 << i for i in range(81) if POPCOUNT[cands[i]] == 2)
    for k in range(1, len(base)):
        b = base[k]
        for a in base[:k]:
            common = PEER_BB[a] & PEER_BB[b] & bivalue
            if common & (common - 1) == 0:  # fewer than two excluders
                continue
            out_a, out_b = _exclusions(cands, a, b, list(cells_of(common)))
            if out_a or out_b:
                first = remove(board, (a,), out_a)
                if first.contradiction:
                    return first
                second = remove(board, (b,), out_b)
                return second if second.contradiction else ONE
    return NOTHING
