"""Single-digit chains of two strong links (SukakuExplainer's "Scraper, Kite, Turbot").

A strong link: a unit where the digit has exactly two candidate cells, so one of them holds
it. Two strong links (a1-a2 and b1-b2) whose inner ends a2 and b1 see each other cannot both
be false at the outer ends: a1 or b2 holds the digit, and it leaves every cell that sees both.
Skyscraper: both links in rows, or both in columns. Two-string kite: one in a row, one in a
column. Turbot fish: a link in a box.

Empty rectangle: in a box, the digit's candidates lie on one row and one column of the
box (a cross); with a strong link whose end sees the cross's row outside the box, its other
end or the cross's column holds the digit.
"""

from __future__ import annotations

from itertools import combinations

from solver.bitboard import PEER_BB, UNIT_BB, board_digits, cells_of
from solver.board import NOTHING, Board, Found, remove
from solver.grid import BIT, COL_OF, ROW_OF

SKYSCRAPER, KITE, TURBOT = 0, 1, 2


def _kind(u1: int, u2: int) -> int:
    """Skyscraper, kite or turbot, by the kinds of the two link units."""
    if u1 >= 18 or u2 >= 18:
        return TURBOT
    return SKYSCRAPER if (u1 < 9) == (u2 < 9) else KITE


def _links(bb: int) -> list[tuple[int, int, int]]:
    """Every strong link (unit, cell, cell) of a digit's bitboard."""
    found = []
    for u in range(27):
        spots = bb & UNIT_BB[u]
        if spots.bit_count() == 2:
            a, b = cells_of(spots)
            found.append((u, a, b))
    return found


def _pairs(bb: int, kind: int) -> list[int]:
    """The bitboards to clear for every two-link chain of the given kind."""
    found = []
    for (u1, a1, a2), (u2, b1, b2) in combinations(_links(bb), 2):
        if _kind(u1, u2) != kind or len({a1, a2, b1, b2}) < 4:
            continue
        for x, inner_a in ((a1, a2), (a2, a1)):
            for inner_b, z in ((b1, b2), (b2, b1)):
                if PEER_BB[inner_a] >> inner_b & 1:
                    found.append(PEER_BB[x] & PEER_BB[z] & bb)
    return found


def _chains(board: Board, kind: int) -> Found:
    """Apply every two-link chain of ``kind``; fired: the chains that removed something."""
    found = NOTHING
    for d, bb in enumerate(board_digits(board)):
        for clear in _pairs(bb, kind):
            found += remove(board, cells_of(clear), BIT[d + 1])
            if found.contradiction:
                return found
    return found


def skyscraper(board: Board) -> Found:
    """Skyscraper."""
    return _chains(board, SKYSCRAPER)


def two_string_kite(board: Board) -> Found:
    """Two-string kite."""
    return _chains(board, KITE)


def turbot_fish(board: Board) -> Found:
    """Turbot fish."""
    return _chains(board, TURBOT)


def _crosses(bb: int, box: int) -> list[tuple[int, int]]:
    """Every (row, column) whose cross holds all the digit's candidates in the box, when the
    candidates are neither on one line alone nor fewer than two."""
    spots = bb & UNIT_BB[18 + box]
    if spots.bit_count() < 2:
        return []
    cells = list(cells_of(spots))
    rows = sorted({ROW_OF[i] for i in cells})
    cols = sorted({COL_OF[i] for i in cells})
    if len(rows) == 1 or len(cols) == 1:
        return []
    return [
        (r, c) for r in rows for c in cols if all(ROW_OF[i] == r or COL_OF[i] == c for i in cells)
    ]


def _seen_by_all(cells: int) -> int:
    """The cells that see every cell of a bitboard."""
    seen = -1
    for i in cells_of(cells):
        seen &= PEER_BB[i]
    return seen


def _er_targets(bb: int, box: int, r: int, c: int) -> list[int]:
    """The bitboards to clear for the empty rectangle of cross (r, c) in the box."""
    inside = bb & UNIT_BB[18 + box]
    arm_row = inside & UNIT_BB[r] & ~UNIT_BB[9 + c]
    arm_col = inside & UNIT_BB[9 + c] & ~UNIT_BB[r]
    found = []
    for u, a, b in _links(bb):
        if u >= 18 or UNIT_BB[u] & UNIT_BB[18 + box]:
            continue
        for p, q in ((a, b), (b, a)):
            if ROW_OF[p] == r and arm_col:
                found.append(PEER_BB[q] & _seen_by_all(arm_col) & bb)
            if COL_OF[p] == c and arm_row:
                found.append(PEER_BB[q] & _seen_by_all(arm_row) & bb)
    return found


def empty_rectangle(board: Board) -> Found:
    """Empty rectangle; fired: the patterns that removed something."""
    found = NOTHING
    for d, bb in enumerate(board_digits(board)):
        targets = [
            clear
            for box in range(9)
            for r, c in _crosses(bb, box)
            for clear in _er_targets(bb, box, r, c)
        ]
        for clear in targets:
            found += remove(board, cells_of(clear), BIT[d + 1])
            if found.contradiction:
                return found
    return found
