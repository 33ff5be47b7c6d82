"""Aligned pair and triplet exclusion, as Sudoku Explainer applies them.

Two *base* cells and the bivalue cells that see both of them (their *excluders*): a pair of
digits (one per base cell) is impossible when the base cells see each other and the digits are
equal, or when an excluder holds exactly those two digits (it would be left empty). A
candidate of a base cell that belongs to no possible pair is removed.

SE's base cells are the empty cells with two candidates or more that see a bivalue cell (and
no cell with a single candidate); a pair of them needs two excluders or more. Pairs are tried
in SE's order (by the later cell, then the earlier one, cells in reading order) and the first
that removes something is the step, as SE takes the first hint its producer finds.

Aligned triplet exclusion (SE's ``AlignedExclusion(3)``) is the same rule on three base cells:
a triple of digits is impossible when two equal digits lie in cells that see each other, or
when an excluder's candidates are all among the three. Its base cells see a cell of two or
three candidates (the excluders are those), and no single; a triple needs two common
excluders or more. SE takes a pair of base cells in the pair's order above, then as third
each base cell of two or three candidates that sees either (SE's twin area: the peers of the
first in SE's peer order, then the second's), and applies the first triple that removes
something. SE tries it among its chaining producers, just after its cycles and forcing chains
of one assumption: on the ladder it follows them, within the chain budget.
"""

from __future__ import annotations

from solver import work
from solver.bitboard import PEER_BB, cells_of
from solver.board import NOTHING, ONE, Board, Found, remove
from solver.grid import BITS, POPCOUNT, SE_PEERS


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


def _triplet_exclusions(
    cands: list[int], cells: tuple[int, int, int], excluders: list[int]
) -> list[int]:
    """The candidates of the three base cells that belong to no possible triple of digits."""
    x, y, z = cells
    see_xy, see_xz, see_yz = PEER_BB[x] >> y & 1, PEER_BB[x] >> z & 1, PEER_BB[y] >> z & 1
    locks = [cands[e] for e in excluders]
    allowed = [0, 0, 0]
    full = [cands[x], cands[y], cands[z]]
    for dx in BITS[cands[x]]:
        for dy in BITS[cands[y]]:
            if dx == dy and see_xy:
                continue
            for dz in BITS[cands[z]]:
                if (dz == dx and see_xz) or (dz == dy and see_yz):
                    continue
                held = dx | dy | dz
                if any(not lock & ~held for lock in locks):
                    continue  # an excluder would be left empty
                allowed[0] |= dx
                allowed[1] |= dy
                allowed[2] |= dz
            if allowed == full:
                return [0, 0, 0]
    return [full[k] & ~allowed[k] for k in range(3)]


def aligned_triplet_exclusion(board: Board) -> Found:
    """Aligned triplet exclusion: the first triple of base cells (in SE's order) that excludes
    a candidate, with its exclusions removed; charged ``work.TRIPLET``."""
    work.charge(work.TRIPLET)
    cands = board.cands
    few = sum(1 << i for i in range(81) if 2 <= POPCOUNT[cands[i]] <= 3)
    single = sum(1 << i for i in range(81) if POPCOUNT[cands[i]] == 1)
    base = [
        i
        for i in range(81)
        if POPCOUNT[cands[i]] >= 2 and PEER_BB[i] & few and not PEER_BB[i] & single
    ]
    thirds = sum(1 << i for i in base) & few  # base cells that can be a third
    for k in range(1, len(base)):
        b = base[k]
        for a in base[:k]:
            common = PEER_BB[a] & PEER_BB[b] & few
            if common & (common - 1) == 0:  # fewer than two excluders: so for every third
                continue
            tails = dict.fromkeys(c for c in SE_PEERS[a] + SE_PEERS[b] if thirds >> c & 1)
            for c in tails:
                if c in (a, b):
                    continue
                excluders = common & PEER_BB[c]
                if excluders & (excluders - 1) == 0:
                    continue
                out = _triplet_exclusions(cands, (a, b, c), list(cells_of(excluders)))
                if any(out):
                    for cell, mask in zip((a, b, c), out, strict=True):
                        found = remove(board, (cell,), mask)
                        if found.contradiction:
                            return found
                    return ONE
    return NOTHING
