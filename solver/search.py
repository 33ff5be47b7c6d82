"""Recursive search for when the ladder stalls: guess in the cell with fewest candidates (MRV),
propagate singles after every guess, and keep going after the first solution until a second
one shows up or the tree is exhausted, so uniqueness is known (``limit=1``: stop at the first,
for a question of existence such as solver/minimal.py asks).

The search state is one list of 81 masks (a placed cell is a single bit); each guess works on
a copy, so undoing a wrong guess is dropping the copy. Contradictions are return values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

from solver.grid import (
    ALL,
    BITS,
    BOX_OF,
    COL_OF,
    DIGIT_OF,
    PEERS,
    POPCOUNT,
    ROW_OF,
    UNITS,
    Mask,
)

DEFAULT_NODE_BUDGET = 200_000  # search nodes a puzzle may take before it is ``gave_up``

UNIT_GETTERS = tuple(itemgetter(*unit) for unit in UNITS)
CELL_UNITS = tuple(
    (1 << ROW_OF[i]) | (1 << (9 + COL_OF[i])) | (1 << (18 + BOX_OF[i])) for i in range(81)
)
PLACED_SLOTS = tuple((81 + ROW_OF[i], 90 + COL_OF[i], 99 + BOX_OF[i]) for i in range(81))
UNIT_OF_BIT = {1 << u: u for u in range(27)}
EVERY_UNIT = (1 << 27) - 1


def propagate(c: list[Mask], stack: list[int], dirty: int = EVERY_UNIT) -> bool:
    """Naked and hidden singles until nothing changes; False on a contradiction.

    ``c`` is 81 cell masks followed by 27 unit masks: the digits already placed (and
    propagated) in each unit. ``stack`` holds cells that became single and whose digit is not
    yet removed from peers; ``dirty`` marks (bit u) the units that lost a candidate since they
    were last checked for hidden singles: only those are checked again.
    """
    peers, cell_units, units_of = PEERS, CELL_UNITS, PLACED_SLOTS
    while True:
        while stack:
            i = stack.pop()
            b = c[i]
            row, col, box = units_of[i]
            c[row] |= b
            c[col] |= b
            c[box] |= b
            for p in peers[i]:
                m = c[p]
                if m & b:
                    m ^= b
                    if not m:
                        return False
                    c[p] = m
                    dirty |= cell_units[p]
                    if not m & (m - 1):
                        stack.append(p)
        dirty = _hidden_singles(c, dirty, stack)
        if dirty < 0:
            return False
        if not stack:
            return True


def _hidden_singles(c: list[Mask], dirty: int, stack: list[int]) -> int:
    """Check the dirty units: place their hidden singles (pushed on ``stack``). Returns the
    units dirtied by those placements, or -1 when a unit has lost a digit altogether."""
    getters = UNIT_GETTERS
    fresh = 0
    while dirty:
        low = dirty & -dirty
        dirty ^= low
        u = UNIT_OF_BIT[low]
        once = twice = 0
        for m in getters[u](c):
            twice |= once & m
            once |= m
        if once != ALL:
            return -1
        single = once & ~twice & ~c[81 + u]
        if single:
            found = _place_hidden(c, UNITS[u], single, stack)
            if found < 0:
                return -1
            fresh |= found
    return fresh


def _place_hidden(c: list[Mask], unit: tuple[int, ...], single: Mask, stack: list[int]) -> int:
    """Set each cell of ``unit`` holding a digit of ``single`` to that digit (pushed on
    ``stack``); returns the units that lost candidates, or -1 if a cell would need two."""
    dirty = 0
    for i in unit:
        m = c[i] & single
        if m and m != c[i]:
            if m & (m - 1):
                return -1
            c[i] = m
            stack.append(i)
            dirty |= CELL_UNITS[i]
    return dirty


def most_constrained(c: list[Mask]) -> int:
    """The cell to branch on (MRV), or -1 when every cell is placed.

    A cell with two candidates if there is one, preferring the cell whose row, column and box
    hold the fewest placed digits (that halves the tree on the hardest puzzles); else the first
    cell with the fewest candidates.
    """
    best, at = 99, -1
    for i in range(81):
        if POPCOUNT[c[i]] == 2:
            row, col, box = PLACED_SLOTS[i]
            score = POPCOUNT[c[row]] + POPCOUNT[c[col]] + POPCOUNT[c[box]]
            if score < best:
                best, at = score, i
    if at >= 0:
        return at
    best = 10
    for i in range(81):
        n = POPCOUNT[c[i]]
        if 1 < n < best:
            best, at = n, i
    return at


@dataclass
class Search:
    """One search run and its effort counters.

    ``nodes``: positions propagated (the root and every guess); ``guesses``: candidates tried
    in a branch cell; ``backtracks``: guesses that ran into a contradiction; ``depth``: the
    deepest level of nested guesses reached before the first solution. ``limit``: the
    solutions to find before stopping (two prove uniqueness, one proves existence).
    """

    node_budget: int
    limit: int = 2
    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    depth: int = 0
    gave_up: bool = False
    solutions: list[tuple[int, ...]] = field(default_factory=list)

    def run(self, masks: list[Mask]) -> None:
        """Search from a position (solutions and counters are left on the object)."""
        c = masks + [0] * 27
        self.nodes += 1
        if propagate(c, [i for i in range(81) if POPCOUNT[c[i]] == 1]):
            self._explore(c, 0)

    def _explore(self, c: list[Mask], depth: int) -> None:
        at = most_constrained(c)
        if at < 0:
            self.solutions.append(tuple(DIGIT_OF[m] for m in c[:81]))
            return
        for bit in BITS[c[at]]:
            if self.nodes >= self.node_budget:
                self.gave_up = True
                return
            self.nodes += 1
            self.guesses += 1
            if not self.solutions and depth >= self.depth:
                self.depth = depth + 1
            child = c[:]
            child[at] = bit
            if propagate(child, [at], CELL_UNITS[at]):
                self._explore(child, depth + 1)
            else:
                self.backtracks += 1
            if self.gave_up or len(self.solutions) >= self.limit:
                return
