"""The rules Sudoku Explainer's dynamic forcing chains "(+)" apply inside a chain (SE's
``Chaining`` of level 1): when an assumption's implications run dry, the board they leave is
searched with pointing and claiming, hidden pairs, naked pairs and X-wings, in that order, and
every elimination of the first of those rules that gives any becomes an "off" of the chain.

Only eliminations that the chain made possible count: each one's *parents* are the candidates
the chain removed that the rule needed (SE's ``getRuleParents``), and an instance that needed
none (it was already on the board the chain started from) is skipped. The chain goes on from
those eliminations as from any other "off".

Each rule finds its instances in SE's order (units and digits as SE iterates them; pairs of
digits, cells and lines in SE's ``Permutations`` order); an instance's eliminations are taken
cell by cell, in reading order (``by_cell``), or, for SukakuExplainer, in the order of a Java
``HashMap`` keyed by the cell's index (``by_hash``), each cell's digits in increasing order.

Potentials are written as in ``solver.forcing``: ``(cell * 9 + digit - 1) * 2 + on``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from solver import work
from solver.cycles import Chain, every_hint, rule_parents
from solver.grid import POPCOUNT, ROWS, UNITS

# A nested chain's identity (SE's FullChain: its chains' potentials) and complexity.
Nested = tuple[tuple[tuple[int, ...], ...], int]
# An instance: its eliminations (cell, mask of digits), in the order SE builds them, the "off"
# potentials it rests on, and, for a chain, the chain (its complexity adds to the hint's).
Instance = tuple[list[tuple[int, int]], list[int], Nested | None]
Order = Callable[[list[tuple[int, int]]], list[tuple[int, int]]]
Places = list[list[int]]

# SE's Permutations(2, 9): the pairs of 0..8 in increasing order of their bit mask.
PAIRS = tuple((a, b) for b in range(1, 9) for a in range(b))
# The kinds of units, as first indices into UNITS (rows, columns, boxes).
ROW, COLUMN, BOX = 0, 9, 18
# Pointing and claiming as SE's Locking looks for them: (the unit the digit is confined to, the
# unit it is removed from), indices into UNITS, by kinds of units in its order, each a pair of
# crossing units.
CROSSINGS = tuple(
    (first, second)
    for kind1, kind2 in ((BOX, COLUMN), (BOX, ROW), (COLUMN, BOX), (ROW, BOX))
    for first in range(kind1, kind1 + 9)
    for second in range(kind2, kind2 + 9)
    if set(UNITS[first]) & set(UNITS[second])
)
# The units SE's hidden and naked sets look in, in its order: boxes, columns, rows.
SET_UNITS = (*range(BOX, BOX + 9), *range(COLUMN, COLUMN + 9), *range(ROW, ROW + 9))
# X-wings' (base lines, cover lines), in SE's order: columns on rows, then rows on columns.
FISH_LINES = ((COLUMN, ROW), (ROW, COLUMN))


def by_cell(removals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Classic SE's order: the cells in reading order."""
    return sorted(removals)


def by_hash(removals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """SukakuExplainer's order, a Java HashMap's keyed by cell index: by the index modulo the
    table's size (16, doubled while more than three quarters full), then as built."""
    size = 16
    while len(removals) > size * 3 // 4:
        size *= 2
    return sorted(removals, key=lambda removal: removal[0] & (size - 1))


def _places(board: Sequence[int]) -> list[list[int]]:
    """Each unit's positions of each digit, as masks: [unit][digit - 1], bit k for the unit's
    k-th cell."""
    out = []
    for unit in UNITS:
        row = [0] * 9
        for k, c in enumerate(unit):
            for d in range(9):
                if board[c] >> d & 1:
                    row[d] |= 1 << k
        out.append(row)
    return out


# For each crossing, the positions of the first unit inside the second.
_INSIDE = tuple(sum(1 << k for k, c in enumerate(UNITS[u]) if c in UNITS[v]) for u, v in CROSSINGS)


def locking(board: Sequence[int], source: Sequence[int], places: Places) -> Iterator[Instance]:
    """Pointing and claiming (SE's Locking, its generalised form adds nothing on a 9x9 board):
    parents, the digit's removed places in the first unit outside the second."""
    for (u, v), inside in zip(CROSSINGS, _INSIDE, strict=True):
        first, second = UNITS[u], UNITS[v]
        for d in range(9):
            where = places[u][d]
            if POPCOUNT[where] < 2 or where & ~inside:
                continue
            bit = 1 << d
            removals = [(c, bit) for c in second if c not in first and board[c] & bit]
            if removals:
                gone = [c for c in first if c not in second and source[c] & ~board[c] & bit]
                yield removals, [(c * 9 + d) * 2 for c in gone], None


def hidden_pairs(board: Sequence[int], source: Sequence[int], places: Places) -> Iterator[Instance]:
    """Hidden pairs (in units of more than four empty cells): parents, both digits' removed
    places elsewhere in the unit."""
    for u in SET_UNITS:
        unit = UNITS[u]
        if sum(1 for c in unit if source[c]) <= 4:
            continue
        for a, b in PAIRS:
            at_a, at_b = places[u][a], places[u][b]
            if POPCOUNT[at_a] < 2 or POPCOUNT[at_b] < 2 or POPCOUNT[at_a | at_b] != 2:
                continue
            pair = 1 << a | 1 << b
            cells = [c for k, c in enumerate(unit) if (at_a | at_b) >> k & 1]
            removals = [(c, board[c] & ~pair) for c in cells if board[c] & ~pair]
            if removals:
                yield (
                    removals,
                    [
                        (c * 9 + d) * 2
                        for c in unit
                        if c not in cells
                        for d in (a, b)
                        if source[c] >> d & 1
                    ],
                    None,
                )


def naked_pairs(board: Sequence[int], source: Sequence[int], places: Places) -> Iterator[Instance]:
    """Naked pairs (in units of four empty cells or more): parents, the pair's cells' removed
    other digits."""
    for u in SET_UNITS:
        unit = UNITS[u]
        if sum(1 for c in unit if source[c]) < 4:
            continue
        for i, j in PAIRS:
            x, y = unit[i], unit[j]
            pair = board[x] | board[y]
            if POPCOUNT[board[x]] < 2 or POPCOUNT[board[y]] < 2 or POPCOUNT[pair] != 2:
                continue
            removals = [(c, board[c] & pair) for c in unit if c not in (x, y) and board[c] & pair]
            if removals:
                yield (
                    removals,
                    [
                        (c * 9 + d) * 2
                        for c in (x, y)
                        for d in range(9)
                        if (source[c] & ~pair) >> d & 1
                    ],
                    None,
                )


def x_wings(board: Sequence[int], source: Sequence[int], places: Places) -> Iterator[Instance]:
    """X-wings, columns as base lines first, then rows (of digits placed at most five times):
    parents, the digit's removed places in the base lines outside the cover lines."""
    # How often each digit is placed: the rows without it as a candidate.
    placed = [sum(1 for row in ROWS if not any(source[c] >> d & 1 for c in row)) for d in range(9)]
    for base, cover in FISH_LINES:
        for i, j in PAIRS:
            for d in range(9):
                at_i, at_j = places[base + i][d], places[base + j][d]
                crossing = at_i | at_j
                if placed[d] + 4 > 9 or POPCOUNT[at_i] < 2 or POPCOUNT[at_j] < 2:
                    continue
                if POPCOUNT[crossing] != 2:
                    continue
                bit = 1 << d
                removals = [
                    (c, bit)
                    for k in range(9)
                    if crossing >> k & 1
                    for m, c in enumerate(UNITS[cover + k])
                    if m not in (i, j) and board[c] & bit
                ]
                if removals:
                    yield (
                        removals,
                        [
                            (c * 9 + d) * 2
                            for line in (i, j)
                            for m, c in enumerate(UNITS[base + line])
                            if not crossing >> m & 1 and source[c] & ~board[c] & bit
                        ],
                        None,
                    )


def forcing_chains(
    board: Sequence[int], source: Sequence[int], places: Places
) -> Iterator[Instance]:
    """SE's "Forcing Chains & Cycles" (``solver.cycles``), every hint it hands on, in its order:
    parents, the candidates gone from the cells and units that made its chains' "on"s follow
    (SE's ``getRuleParents``); the chain itself adds its complexity to the hint nesting it."""
    return _instances(every_hint(tuple(board)), source, board)


def multiple_chains(
    board: Sequence[int], source: Sequence[int], places: Places
) -> Iterator[Instance]:
    """SE's multiple forcing chains (``forcing.every_multiple_hint``), every hint it hands on,
    in its order; parents as for ``forcing_chains`` (a chain's start counts as made by its cell,
    or by the region, as SE counts it)."""
    from solver.forcing import every_multiple_hint  # solver.forcing runs the chains nesting these

    return _instances(every_multiple_hint(tuple(board)), source, board)


def dynamic_chains(
    board: Sequence[int], source: Sequence[int], places: Places
) -> Iterator[Instance]:
    """SE's dynamic forcing chains (``forcing.every_dynamic_hint``), every hint it hands on, in
    its order; parents as for ``multiple_chains``, through every parent of its chains' "on"s
    (a dynamic chain's "on" also rests on the candidates its run removed)."""
    from solver.forcing import every_dynamic_hint  # solver.forcing runs the chains nesting these

    return _instances(every_dynamic_hint(tuple(board)), source, board)


def _instances(
    hints: Iterable[Chain], source: Sequence[int], board: Sequence[int]
) -> Iterator[Instance]:
    """A chain producer's hints as instances: parents, SE's ``getRuleParents`` of their causes;
    each chain adds its complexity to the hint nesting it."""
    for chain in hints:
        parents = rule_parents(chain.causes, source, board)
        yield list(chain.removals), parents, (chain.key, chain.complexity)


# The rules a chain of each level applies inside (SE's getAdvancedPotentials), in its order:
# level 1 is SE's "(+)", levels 2 to 4 its nested forcing chains (level 4's dynamic forcing
# chains stand for the forcing chains and multiple forcing chains of levels 2 and 3).
RULES = (locking, hidden_pairs, naked_pairs, x_wings)
LEVEL_RULES = {
    1: RULES,
    2: (*RULES, forcing_chains),
    3: (*RULES, forcing_chains, multiple_chains),
    4: (*RULES, dynamic_chains),
}
# Every rule of LEVEL_RULES once, in the order of each level's (the core has them in this order).
RULE_ORDER = (*RULES, forcing_chains, multiple_chains, dynamic_chains)


def eliminations(
    board: Sequence[int], source: Sequence[int], order: Order = by_cell, level: int = 1
) -> list[tuple[int, tuple[int, ...], Nested | None]]:
    """The "off" potentials, each with its parents and its nested chain, of the first of the
    level's rules with an instance the chain made possible (on ``board``, the chain's, from
    ``source``, the step's), in SE's order; empty if none has one. Charged ``work.STALL``
    (and what the chains it applies charge)."""
    work.charge(work.STALL)
    places = _places(board)
    for rule in LEVEL_RULES[level]:
        out = [
            ((cell * 9 + d) * 2, tuple(parents), nested)
            for removals, parents, nested in rule(board, source, places)
            if parents
            for cell, mask in order(removals)
            for d in range(9)
            if mask >> d & 1
        ]
        if out:
            return out
    return []
