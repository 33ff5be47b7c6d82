"""Strong-linked fishes of three links: SukakuExplainer's ``StrongLinks(3)`` ("3 Skyscrapers",
"3-String Kite", "Grouped 3 Strong links", ...), and the grouped chains of two links its
``TurbotFish`` finds ("Grouped Skyscraper", "Grouped 2-String
Kite", "Grouped Turbot Crane": 4.3 whatever their kinds).

A strong link holds a digit in one of its two ends: a unit (row, column or box) whose
candidates for the digit are two cells, or are split into two groups that each lie on one
line (the groups of a box form a cross or two parallel lines; those of a row or column are
two of its box segments). Chain the links end to end, each link's far end sharing a unit
with the next link's near end (a weak link): one of the two outer ends holds the digit, so
every cell outside the links' units that sees both outer ends (every cell of a group end)
and lies in no weak-link unit loses it. When the outer ends themselves share a unit the
chain closes into a loop, and the cells seeing both ends of each weak link lose it too.

SE finds every such chain, sorts them by difficulty, then most eliminations, then the name's
suffix (the links' kinds, the grouped links counted first), and applies only the first; the
order it enumerates them in decides ties. The difficulty is the rung's value plus SE's extra
(``LINK_BONUS``): most with a grouped link, else by the name SukakuExplainer 1.15.12 gives
the chain: "Skyscrapers" (rows or columns only) none, "... including blocks" (a box link)
one tenth, "String Kite" (rows and columns) two. This module reproduces that enumeration:
unit kinds per link (box, row, column), digit, units in order, each link's grouping, then
every arrangement of the links into a chain (min-lex of a permutation and its reverse) and
every direction.

``TurbotFish`` reads a box's groups as a cross only (never as two parallel lines) and, once
the chains without a group are gone (skyscraper, kite and turbot fish, rungs of their own),
keeps those with a grouped link, all at its one value.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

from solver.bitboard import PEER_BB, UNIT_BB, board_digits, cells_of
from solver.board import NOTHING, Board, Found, remove
from solver.grid import BIT, BOX_OF, BOXES, COL_OF, COLS, ROW_OF, ROWS

BOX, ROW, COL = 0, 1, 2

# SE's regions by kind (boxes, rows, columns): (kind, index) -> its 9 cells, and its bitboard.
REGION_CELLS = (BOXES, ROWS, COLS)
REGION_BB = (UNIT_BB[18:27], UNIT_BB[0:9], UNIT_BB[9:18])

# SukakuExplainer 1.15.12's extra tenths of a chain: lines of one direction only, a box link,
# links in both line directions and no box link, a grouped link (whatever its kinds).
LINK_BONUS = (0, 1, 2, 3)

# Box positions of the four corners left empty by a cross centred on position e (e < 9), or
# the line of three left empty by two parallel lines (e >= 9); the cross's arms, or the two
# lines (first, second). A row's or column's box segments, and the other two of each. The
# compiled core reads these (padded with NO_POSITION).
BOX_EMPTY = (
    (4, 5, 7, 8), (3, 5, 6, 8), (3, 4, 6, 7), (1, 2, 7, 8), (0, 2, 6, 8), (0, 1, 6, 7),
    (1, 2, 4, 5), (0, 2, 3, 5), (0, 1, 3, 4),
    (6, 7, 8), (3, 4, 5), (0, 1, 2), (2, 5, 8), (1, 4, 7), (0, 3, 6),
)  # fmt: skip
BOX_ARMS = (
    ((3, 6), (1, 2)), ((4, 7), (0, 2)), ((5, 8), (0, 1)), ((0, 6), (4, 5)), ((1, 7), (3, 5)),
    ((2, 8), (3, 4)), ((0, 3), (7, 8)), ((1, 4), (6, 8)), ((2, 5), (6, 7)),
    ((0, 1, 2), (3, 4, 5)), ((0, 1, 2), (6, 7, 8)), ((3, 4, 5), (6, 7, 8)),
    ((0, 3, 6), (1, 4, 7)), ((0, 3, 6), (2, 5, 8)), ((1, 4, 7), (2, 5, 8)),
)  # fmt: skip
SEGMENTS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
LINE_ARMS = (((3, 4, 5), (6, 7, 8)), ((0, 1, 2), (6, 7, 8)), ((0, 1, 2), (3, 4, 5)))
NO_POSITION = 9  # no position of a unit (0-8): pads the layouts for the core

End = tuple[int, ...]  # a link's end: its cell, then the other cells of its group, if any


class Link(NamedTuple):
    """A strong link: its two ends, and whether it is grouped (an end of several cells)."""

    ends: tuple[End, End]
    grouped: bool


def _same_line(a: int, b: int) -> bool:
    return ROW_OF[a] == ROW_OF[b] or COL_OF[a] == COL_OF[b]


def _split(kind: int, have: set[int], parallel: bool) -> tuple[int, list[int], list[int]] | None:
    """SE's split of a region's candidate positions into two groups: the first layout (cross
    centre or empty line, box segment for a row or column; a box's two parallel lines only if
    `parallel`) leaving its empty part free of candidates, and the positions on each of its
    two arms; None if there is none."""
    for e in range(15 if kind == BOX and parallel else 9 if kind == BOX else 3):
        if e > 8 and len(have) < 4:
            continue
        empty = BOX_EMPTY[e] if kind == BOX else SEGMENTS[e]
        if have.intersection(empty):
            continue
        arms = BOX_ARMS[e] if kind == BOX else LINE_ARMS[e]
        return e, [p for p in arms[0] if p in have], [p for p in arms[1] if p in have]
    return None


def _region_links(kind: int, index: int, spots: tuple[int, ...], parallel: bool) -> list[Link]:
    """The strong links SE reads in a region whose candidate positions are ``spots``."""
    cells = REGION_CELLS[kind][index]
    if not 2 <= len(spots) <= 6:
        return []
    if len(spots) == 2:
        a, b = cells[spots[0]], cells[spots[1]]
        return [] if kind == BOX and _same_line(a, b) else [Link(((a,), (b,)), False)]
    split = _split(kind, set(spots), parallel)
    if split is None or not split[1] or not split[2]:
        return []
    e, one, two = split[0], [cells[p] for p in split[1]], [cells[p] for p in split[2]]
    if len(one) == 1 or len(two) == 1:
        # One end is a single cell; the other is the other arm (and the cross's centre).
        lone, group = (two[0], one) if len(two) == 1 else (one[0], two)
        far = (group[0], cells[e], *group[1:2]) if kind == BOX else tuple(group)
        return [Link(((lone,), far), True)]
    if e > 8 and len(spots) == 4 and _same_line(one[1], two[1]) and _same_line(one[0], two[0]):
        # Two parallel pairs: the box is read both ways.
        return [
            Link(((one[0], one[1]), (two[0], two[1])), True),
            Link(((one[0], two[0]), (one[1], two[1])), True),
        ]
    first, second = tuple(one), tuple(two)
    if kind == BOX and e < 9 and e in spots:  # the cross's centre joins both arms
        first, second = (*first, cells[e]), (*second, cells[e])
    return [Link((first, second), True)]


def _share(x: End, y: End) -> int:
    """The cells of the unit (column, row, then box) holding both ends; 0 if none."""
    a = x[0]
    every = x + y
    if all(COL_OF[c] == COL_OF[a] for c in every):
        return REGION_BB[COL][COL_OF[a]]
    if all(ROW_OF[c] == ROW_OF[a] for c in every):
        return REGION_BB[ROW][ROW_OF[a]]
    if all(BOX_OF[c] == BOX_OF[a] for c in every):
        return REGION_BB[BOX][BOX_OF[a]]
    return 0


def _seen_by(end: End) -> int:
    bb = -1
    for c in end:
        bb &= PEER_BB[c]
    return bb


def _is_lex(seq: tuple[int, ...]) -> bool:
    return seq <= seq[::-1]


@cache
def _kind_sets(n: int) -> tuple[tuple[int, ...], ...]:
    """The links' unit kinds, in SE's order: never decreasing (boxes, rows, then columns),
    by the number with bit n*kind+i set for link i, ascending."""
    sets = [s for s in product((BOX, ROW, COL), repeat=n) if list(s) == sorted(s)]
    return tuple(sorted(sets, key=lambda s: sum(1 << (n * k + i) for i, k in enumerate(s))))


@cache
def _orders(n: int) -> tuple[tuple[int, ...], ...]:
    """Arrangements of the links into a chain, in SE's order (QuickPerm), one per reversal."""
    q, r = list(range(n)), [*range(n), n]
    found = [tuple(q)]
    s = 1
    while s < n:
        r[s] -= 1
        t = s % 2 * r[s]
        q[t], q[s] = q[s], q[t]
        found.append(tuple(q))
        s = 1
        while r[s] == 0:
            r[s] = s
            s += 1
    return tuple(o for o in found if _is_lex(o))


@cache
def _suffix(kinds: tuple[int, ...], grouped: int) -> str:
    """SE's name suffix: grouped links, then the kinds read min-lex (rows and columns alike)."""
    if not _is_lex(kinds):
        kinds = kinds[::-1]
    original = "".join(map(str, kinds))
    if ROW in kinds:
        swap = "".join(str(3 - k if k else k) for k in kinds)
        best = min(swap, swap[::-1])
        name = best if original > best else original
    else:
        name = original.replace("2", "1")
    return f"{grouped}{name}"


def _tenths(suffix: str) -> int:
    """The chain's bonus from its suffix: in the kinds, 0 is a box, 2 a second direction."""
    kinds = suffix[1:]
    if suffix[0] != "0":
        return LINK_BONUS[3]
    return LINK_BONUS[1] if "0" in kinds else LINK_BONUS[2] if "2" in kinds else LINK_BONUS[0]


def _targets(chain: list[Link], u: tuple[int, ...], shares: list[int], ring: int, bases: int,
             bb: int) -> tuple[int, int]:  # fmt: skip
    """SE's count of eliminations (a loop's repeats counted again) and the cells cleared."""
    start, end = chain[0].ends[u[0]], chain[-1].ends[1 - u[-1]]
    seen = PEER_BB[start[0]] & PEER_BB[end[0]] & ~bases
    if chain[0].grouped:
        seen &= _seen_by(start)
    if chain[-1].grouped:
        seen &= _seen_by(end)
    if not ring:
        for s in shares:
            seen &= ~s
    clear = seen & bb
    count = clear.bit_count()
    if ring:
        for w in range(len(chain) - 1):
            x, y = chain[w].ends[1 - u[w]], chain[w + 1].ends[u[w + 1]]
            more = _seen_by(x) & _seen_by(y) & ~bases & bb
            count += more.bit_count()
            clear |= more
    return count, clear


Best = tuple[int, int, str, int, int]  # tenths, -eliminations, suffix, cells to clear, digit


class _Search:
    """SE's enumeration for one number of links, keeping the first of the best chains."""

    def __init__(self, board: Board, n: int, turbot: bool = False) -> None:
        self.n, self.turbot = n, turbot  # turbot: TurbotFish's grouped chains of two links
        self.digits = board_digits(board)
        # [digit][kind][index]: the region's links and its candidate cells
        self.links = [
            [
                [_region_links(k, i, _spots(bb, k, i), not turbot) for i in range(9)]
                for k in (BOX, ROW, COL)
            ]
            for bb in self.digits
        ]
        self.spots = [
            [[bb & r for r in REGION_BB[k]] for k in (BOX, ROW, COL)] for bb in self.digits
        ]
        self.best: Best | None = None
        self.kinds: tuple[int, ...] = ()
        self.digit = 0
        self.chosen: list[tuple[Link, int, int]] = []  # link, region cells, SE's region number

    def run(self) -> Best | None:
        for kinds in _kind_sets(self.n):
            self.kinds = kinds
            for digit in range(1, 10):
                self.digit = digit
                self.build(0, 0, 0)
        return self.best

    def build(self, depth: int, after: int, used: int) -> None:
        """Choose the link of each depth's region, in SE's order, then try every chain."""
        kind, d = self.kinds[depth], self.digit - 1
        first = after + 1 if depth and self.kinds[depth - 1] == kind else 0
        for index in range(first, 9):
            mine = self.spots[d][kind][index]
            if mine & used:
                continue
            for link in self.links[d][kind][index]:
                self.chosen.append((link, REGION_BB[kind][index], kind * 10 + index + 1))
                if depth + 1 < self.n:
                    self.build(depth + 1, index, used | mine)
                else:
                    self.chains()
                self.chosen.pop()

    def chains(self) -> None:
        """Every chain of the chosen links (SE's order); keep it if better than the best."""
        links = [c[0] for c in self.chosen]
        nums = [c[2] for c in self.chosen]
        bases = 0
        for c in self.chosen:
            bases |= c[1]
        # The unit joining each end of each link to each end of another, worked out once: a
        # link joined to no other is in no chain.
        joins = {
            (i, a, j, b): _share(x.ends[a], y.ends[b])
            for i, x in enumerate(links)
            for j, y in enumerate(links)
            if i != j
            for a in (0, 1)
            for b in (0, 1)
        }
        if any(not any(v for k, v in joins.items() if k[0] == i) for i in range(self.n)):
            return
        grouped = sum(link.grouped for link in links)
        if self.turbot and not grouped:
            return
        bb = self.digits[self.digit - 1]
        for q in _orders(self.n):
            suffix = _suffix(tuple(self.kinds[k] for k in q), grouped)
            tenths = _tenths(suffix)
            if self.best is not None and tenths > self.best[0]:
                continue
            chain = [links[k] for k in q]
            for u in product((0, 1), repeat=self.n):
                shares = [joins[q[w], 1 - u[w], q[w + 1], u[w + 1]] for w in range(self.n - 1)]
                if not all(shares):
                    continue
                ring = joins[q[0], u[0], q[-1], 1 - u[-1]]
                if ring and (u[0] or nums[q[0]] != min(nums)):
                    continue  # a loop counts once: from its first region, first direction
                count, clear = _targets(chain, u, shares, ring, bases, bb)
                key = (tenths, -count, suffix)
                if clear and (self.best is None or key < self.best[:3]):
                    self.best = (*key, clear, self.digit)


def _spots(bb: int, kind: int, index: int) -> tuple[int, ...]:
    return tuple(k for k, c in enumerate(REGION_CELLS[kind][index]) if bb >> c & 1)


def _strong_links(board: Board, n: int, turbot: bool = False) -> Found:
    best = _Search(board, n, turbot).run()
    if best is None:
        return NOTHING
    found = remove(board, cells_of(best[3]), BIT[best[4]])
    return found if turbot else found.with_bonus(best[0])


def grouped_two_strong_links(board: Board) -> Found:
    """TurbotFish's first chain of two strong links with a grouped link ("Grouped Skyscraper",
    "Grouped 2-String Kite", "Grouped Turbot Crane")."""
    return _strong_links(board, 2, turbot=True)


def three_strong_links(board: Board) -> Found:
    """SE's first chain of three strong links (its "3 Skyscrapers", "3-String Kite", ...)."""
    return _strong_links(board, 3)
