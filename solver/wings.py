"""Wings: XY-Wing and XYZ-Wing.

XY-Wing: a pivot cell with candidates {x, y} sees a wing {x, z} and a wing {y, z}; whichever
the pivot holds, one wing is z, so z leaves every cell that sees both wings. XYZ-Wing: the
pivot holds {x, y, z} and the wings {x, z} and {y, z}; z leaves every cell that sees all three.
"""

from __future__ import annotations

from solver.bitboard import PEER_BB, cells_of
from solver.board import NOTHING, Board, Found, remove
from solver.grid import PEERS, POPCOUNT


def _wings(board: Board, xyz: bool) -> list[tuple[int, int]]:
    """Every (bitboard of cells to clear, digit bit z) of an XY-Wing (or XYZ-Wing)."""
    cands = board.cands
    found = []
    for pivot in range(81):
        pm = cands[pivot]
        if POPCOUNT[pm] != (3 if xyz else 2):
            continue
        wings = [p for p in PEERS[pivot] if POPCOUNT[cands[p]] == 2 and cands[p] & pm]
        for a, w1 in enumerate(wings):
            m1 = cands[w1]
            for w2 in wings[a + 1 :]:
                m2 = cands[w2]
                z = m1 & m2
                if m1 == m2 or POPCOUNT[z] != 1:
                    continue
                if xyz:
                    ok = m1 | m2 == pm
                    sees = PEER_BB[w1] & PEER_BB[w2] & PEER_BB[pivot]
                else:
                    ok = (m1 | m2) & ~z == pm and not pm & z
                    sees = PEER_BB[w1] & PEER_BB[w2]
                if ok:
                    found.append((sees, z))
    return found


def _apply(board: Board, xyz: bool) -> Found:
    """Remove z from the cells every wing pattern sees; fired: the patterns that removed."""
    found = NOTHING
    for sees, z in _wings(board, xyz):
        found += remove(board, cells_of(sees), z)
        if found.contradiction:
            break
    return found


def xy_wing(board: Board) -> Found:
    """XY-Wing."""
    return _apply(board, xyz=False)


def xyz_wing(board: Board) -> Found:
    """XYZ-Wing."""
    return _apply(board, xyz=True)
