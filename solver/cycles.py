"""Bidirectional cycles and forcing chains of one assumption: Sudoku Explainer's "Forcing
Chains & Cycles", found and chosen as SE does.

A *potential* is a candidate assumed on (the cell holds the digit) or off, written as one int:
``(cell * 9 + digit - 1) * 2 + on``. An *implication* leads from a potential to another:

* on -> off: the digit leaves the cell's peers, and (with bivalue links) the cell's other
  candidates leave it;
* off -> on: with bilocation ("X") links, the digit's other place in a unit where it has two;
  with bivalue ("Y") links, the other candidate of a two-candidate cell.

From each potential "on", SE follows implications breadth-first in three searches: X links only
(one digit), Y links only (from two-candidate cells), both. A *bidirectional cycle* leads back
to its start: then whatever the start is, the chain alternates, and a candidate seeing an "on"
of each direction goes. A *forcing chain* leads an assumption to its own negation: the opposite
is true. Each hint is worth its rung's value plus SE's extra for its length (``chains``), the
length being its *complexity* (the potentials on it) less two. SE applies one hint per step:
the least difficulty, then the least complexity, then X before Y before both, then the first
found; its kind is the rung that fires.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from solver import chains, work
from solver.board import NOTHING, Board, Found, place, remove
from solver.grid import POPCOUNT, SE_PEERS, SE_UNITS, SE_UNITS_OF, UNITS

NO_LIMIT = chains.LONGEST_CHAIN


Technique = Callable[[Board], Found]


@dataclass(frozen=True)
class Links:
    """One of SE's three searches: which links it follows and the rungs of what it finds
    (their technique functions, below; ``forcing`` None: forcing Y-chains do not exist), with
    SE's rank among equals."""

    bivalue: bool
    bilocation: bool
    cycle: Technique
    forcing: Technique | None
    rank: int


@dataclass(frozen=True)
class Hint:
    """A chain SE would apply: its rung, its order among hints, its extra difficulty (tenths),
    the candidates it removes (cell, mask) and the digit it places (cell, bit), if any."""

    rung: Technique
    order: tuple[float, int, int]
    bonus: int
    removals: tuple[tuple[int, int], ...]
    placement: tuple[int, int] | None


@cache
def _tenths(rung: Technique) -> int:
    """The SE value in tenths of the ladder's rung applying ``rung`` (read at call time: the
    ladder imports this module)."""
    from solver import ladder

    return next(r.tenths for r in ladder.LADDER if r.apply is rung)


def order_of(rung: Technique, complexity: int, rank: int) -> tuple[float, int, int]:
    """SE's sort key of a hint: difficulty (as SE's sum of doubles), complexity, rank."""
    return (_tenths(rung) / 10 + chains.LENGTH_ADDED[complexity - 2], complexity, rank)


def limit_of(rung: Technique, rank: int, best: Hint | None) -> int:
    """The largest complexity at which a hint of ``rung`` still precedes ``best``."""
    if best is None:
        return NO_LIMIT
    c = 1
    while c < NO_LIMIT and order_of(rung, c + 1, rank) < best.order:
        c += 1
    return c


class Graph:
    """The implications of one search on one board, each listed once and remembered."""

    def __init__(self, cands: Sequence[int], links: Links) -> None:
        self.cands = cands
        self.links = links
        self.memo: dict[int, list[int]] = {}

    def __call__(self, p: int) -> list[int]:
        """The potentials implied by ``p``, in SE's order."""
        out = self.memo.get(p)
        if out is None:
            out = self.memo[p] = self._on(p) if p & 1 else self._off(p)
        return out

    def _on(self, p: int) -> list[int]:
        cell, d = divmod(p >> 1, 9)
        cands, bit = self.cands, 1 << d
        out = []
        if self.links.bivalue:
            out = [(cell * 9 + e) * 2 for e in range(9) if e != d and cands[cell] >> e & 1]
        out += [(c * 9 + d) * 2 for c in SE_PEERS[cell] if cands[c] & bit]
        return out

    def _off(self, p: int) -> list[int]:
        cell, d = divmod(p >> 1, 9)
        cands, bit = self.cands, 1 << d
        out = []
        if self.links.bivalue and POPCOUNT[cands[cell]] == 2:
            other = (cands[cell] ^ bit).bit_length() - 1
            out.append((cell * 9 + other) * 2 + 1)
        if self.links.bilocation:
            for unit in SE_UNITS[cell]:
                places = [c for c in unit if cands[c] & bit]
                if len(places) == 2:
                    q = (places[places[0] == cell] * 9 + d) * 2 + 1
                    if q not in out:
                        out.append(q)
        return out


class Tree:
    """Potentials reached from an assumption, each with the one that implied it."""

    def __init__(self, root: int) -> None:
        self.keys = [root]
        self.parents = [-1]

    def add(self, p: int, parent: int) -> int:
        """The new node of ``p``, implied by node ``parent``."""
        self.parents.append(parent)
        self.keys.append(p)
        return len(self.parents) - 1

    def implied_before(self, n: int, p: int) -> bool:
        """Whether ``p`` implied node ``n``, directly or not."""
        n = self.parents[n]
        while n >= 0:
            if self.keys[n] == p:
                return True
            n = self.parents[n]
        return False

    def path(self, n: int) -> list[int]:
        """The potentials from node ``n`` back to the assumption's first implication."""
        out = []
        while self.parents[n] >= 0:
            out.append(self.keys[n])
            n = self.parents[n]
        return out


def cycles(graph: Graph, start: int, limit: int) -> tuple[Tree, list[int]]:
    """SE's cycle search from ``start`` (on), one layer of "on" then one of "off" at a time;
    "off" potentials are not merged, so every way back to the start is a cycle (of as many
    potentials as the search's length), up to ``limit`` long. Returns the tree and the nodes
    closing a cycle."""
    tree, seen, ons, ends = Tree(start), {start}, [0], []
    add, keys = tree.add, tree.keys
    length = 0
    while ons and length + 2 <= limit:
        length += 2
        offs = []
        for n in ons:
            for p in graph(keys[n]):
                if not tree.implied_before(n, p):
                    offs.append(add(p, n))
        ons = []
        for n in offs:
            for p in graph(keys[n]):
                if p == start:
                    if length >= 4:
                        ends.append(add(p, n))
                elif p not in seen:
                    seen.add(p)
                    ons.append(add(p, n))
    return tree, ends


def forcing(graph: Graph, start: int, limit: int) -> int:
    """SE's forcing chain from ``start`` (on or off) to its negation: breadth-first, each
    potential once. Returns the chain's complexity (its potentials, the depth at which the
    negation is reached plus one), or 0 if there is none of at most ``limit``."""
    seen, layer, depth, target = {start}, [start], 0, start ^ 1
    while layer and depth + 2 <= limit:
        depth += 1
        nxt = []
        for q in layer:
            for p in graph(q):
                if p not in seen:
                    if p == target:
                        return depth + 1
                    seen.add(p)
                    nxt.append(p)
        layer = nxt
    return 0


def cycle_removals(cands: Sequence[int], potentials: list[int]) -> tuple[tuple[int, int], ...]:
    """What a cycle removes: candidates off the cycle that see an "on" of its digit in one
    direction and an "off" (an "on" of the reverse direction) in the other, per cell."""
    cells = {(p >> 1) // 9 for p in potentials}
    seen: tuple[set[int], set[int]] = (set(), set())
    for p in potentials:
        cell, d = divmod(p >> 1, 9)
        for c in SE_PEERS[cell]:
            if c not in cells and cands[c] >> d & 1:
                seen[p & 1].add(c * 9 + d)
    masks: dict[int, int] = {}
    for cand in sorted(seen[0] & seen[1]):
        masks[cand // 9] = masks.get(cand // 9, 0) | 1 << cand % 9
    return tuple(sorted(masks.items()))


def _hints(graph: Graph, start: int, best: Hint | None) -> list[Hint]:
    """The hints of one start in SE's order: its cycles, then its forcing chains."""
    cands, s, out = graph.cands, graph.links, []
    limit = limit_of(s.cycle, s.rank, best)
    if limit >= 4:
        tree, ends = cycles(graph, start, limit)
        for end in ends:
            path = tree.path(end)
            order = order_of(s.cycle, len(path), s.rank)
            if best is not None and not order < best.order:
                continue  # it cannot be the hint applied: what it removes is moot
            removals = cycle_removals(cands, path)
            if removals:
                bonus = chains.LENGTH_BONUS[len(path) - 2]
                out.append(Hint(s.cycle, order, bonus, removals, None))
    if s.forcing is None or limit_of(s.forcing, s.rank, best) < 4:
        return out
    limit = limit_of(s.forcing, s.rank, best)
    cell, d = divmod(start >> 1, 9)
    for assumed in (start, start ^ 1):
        complexity = forcing(graph, assumed, limit)
        if complexity:
            bonus = chains.LENGTH_BONUS[complexity - 2]
            order = order_of(s.forcing, complexity, s.rank)
            if assumed & 1:  # "on" implies "off": the digit goes
                out.append(Hint(s.forcing, order, bonus, ((cell, 1 << d),), None))
            else:  # "off" implies "on": the digit is placed
                others = ((cell, cands[cell] ^ 1 << d),)
                out.append(Hint(s.forcing, order, bonus, others, (cell, 1 << d)))
    return out


def best_hint(cands: Sequence[int]) -> Hint | None:
    """The hint SE applies: the first of the least (difficulty, complexity, rank)."""
    best = None
    for s in SEARCHES:
        forcing_limit = 0 if s.forcing is None else limit_of(s.forcing, s.rank, best)
        if limit_of(s.cycle, s.rank, best) < 4 and forcing_limit < 4:
            continue  # nothing this search finds could be the hint applied
        graph = Graph(cands, s)
        for start in starts(cands, s):
            for hint in _hints(graph, start, best):
                if best is None or hint.order < best.order:
                    best = hint
    return best


def starts(cands: Sequence[int], s: Links) -> Iterator[int]:
    """The assumptions a search starts from, in SE's order: each candidate "on" of the cells of
    two candidates or more (Y links only: of two)."""
    for cell in range(81):
        n = POPCOUNT[cands[cell]]
        if n < 2 or (n > 2 and not s.bilocation):
            continue
        for d in range(9):
            if cands[cell] >> d & 1:
                yield (cell * 9 + d) * 2 + 1


_last: tuple[tuple[int, ...], Hint | None] = ((), None)


def _best(board: Board) -> Hint | None:
    """``best_hint`` of the board, remembered for the next rung (each rung asks in turn)."""
    global _last
    key = tuple(board.cands)
    if _last[0] != key:
        _last = (key, best_hint(key))
    return _last[1]


def _apply(board: Board, rung: Technique) -> Found:
    """Apply the hint SE would, if it is of ``rung``: one instance, with its length's bonus."""
    hint = _best(board)
    if hint is None or hint.rung is not rung:
        return NOTHING
    if hint.placement is not None:
        found = place(board, *hint.placement)
    else:
        found = NOTHING
        for cell, mask in hint.removals:
            found += remove(board, (cell,), mask)
    return Found(1, hint.bonus, found.contradiction)


def bidirectional_x_cycle(board: Board) -> Found:
    """SE's bidirectional X-cycle (one digit), when it is the chain SE applies. The first of the
    five rungs to ask on a position: it pays for their one search (``work.CYCLES``)."""
    work.charge(work.CYCLES)
    return _apply(board, bidirectional_x_cycle)


def bidirectional_y_cycle(board: Board) -> Found:
    """SE's bidirectional Y-cycle (two-candidate cells), when it is the chain SE applies."""
    return _apply(board, bidirectional_y_cycle)


def forcing_x_chain(board: Board) -> Found:
    """SE's forcing X-chain (one digit), when it is the chain SE applies."""
    return _apply(board, forcing_x_chain)


def bidirectional_cycle(board: Board) -> Found:
    """SE's bidirectional cycle (both links), when it is the chain SE applies."""
    return _apply(board, bidirectional_cycle)


def forcing_xy_chain(board: Board) -> Found:
    """SE's forcing chain (both links), when it is the chain SE applies."""
    return _apply(board, forcing_xy_chain)


SEARCHES = (
    Links(False, True, bidirectional_x_cycle, forcing_x_chain, 2),
    Links(True, False, bidirectional_y_cycle, None, 3),
    Links(True, True, bidirectional_cycle, forcing_xy_chain, 4),
)


# ---- every hint, for the chains that nest these (solver.nested, SE's level 2 and up) ----


@dataclass(frozen=True)
class Chain:
    """One of the hints SE's producer gives on a board, as a chain nesting it sees it: its sort
    key, the candidates it removes (cell, mask; by cell), the *causes* of its chains' "on"
    potentials (``cause``: what made each follow), its identity (its chains' potentials: SE's
    ``FullChain``) and its complexity (its potentials)."""

    order: tuple[float, int, int]
    removals: tuple[tuple[int, int], ...]
    causes: tuple[tuple[int, int], ...]
    key: tuple[tuple[int, ...], ...]
    complexity: int


def cause(cands: Sequence[int], p: int, parent: int) -> int:
    """What made ``parent`` imply ``p``, as SE records it: the cell (a naked single: ``p``'s cell
    index) or the unit (81 + its index in ``UNITS``: the first of the parent's units, in SE's
    order, that links them; for an "on", one where the digit has two places)."""
    cell, d = divmod(p >> 1, 9)
    from_cell = (parent >> 1) // 9
    if cell == from_cell:
        return cell
    for u in SE_UNITS_OF[from_cell]:
        unit = UNITS[u]
        if cell in unit and not (p & 1 and sum(1 for c in unit if cands[c] >> d & 1) != 2):
            return 81 + u
    raise AssertionError("no link")  # pragma: no cover


def rule_parents(
    causes: Sequence[tuple[int, int]], source: Sequence[int], board: Sequence[int]
) -> list[int]:
    """SE's ``getRuleParents``: for each cause (of an "on" with its digit), the candidates of
    its cell, or of its digit in its unit, on ``source`` but gone from ``board``, each once, in
    order ("off" potentials)."""
    out: dict[int, None] = {}
    for where, d in causes:
        if where < 81:
            gone = source[where] & ~board[where]
            for e in range(9):
                if gone >> e & 1:
                    out[(where * 9 + e) * 2] = None
        else:
            for c in UNITS[where - 81]:
                if (source[c] & ~board[c]) >> d & 1:
                    out[(c * 9 + d) * 2] = None
    return list(out)


def chain_causes(cands: Sequence[int], chain: Sequence[int], on: int) -> list[tuple[int, int]]:
    """The causes of the potentials of ``chain`` (each implied by the next; the last is the
    assumption) that are "on" when their state is ``on`` (1 as found, 0 reversed)."""
    return [
        (cause(cands, p, parent), (p >> 1) % 9)
        for p, parent in itertools.pairwise(chain)
        if p & 1 == on
    ]


def forcing_path(graph: Graph, start: int) -> list[int]:
    """``forcing`` with no limit, returning the chain: from the negation back to ``start`` (each
    potential implied by the next, its first discoverer), or [] if there is none."""
    parent = {start: -1}
    layer, target = [start], start ^ 1
    while layer:
        nxt = []
        for q in layer:
            for p in graph(q):
                if p not in parent:
                    parent[p] = q
                    if p == target:
                        out = [p]
                        while parent[out[-1]] >= 0:
                            out.append(parent[out[-1]])
                        return out
                    nxt.append(p)
        layer = nxt
    return []


def _chains(graph: Graph, start: int) -> list[Chain]:
    """Every hint of one start, in SE's order: its cycles, then its forcing chains."""
    cands, s, out = graph.cands, graph.links, []
    tree, ends = cycles(graph, start, NO_LIMIT)
    for end in ends:
        path = tree.path(end)
        removals = cycle_removals(cands, path)
        if removals:
            forward = (*path, start)
            # SE's reversed cycle: every potential flipped, from the start on, each keeping the
            # cause it had.
            causes = chain_causes(cands, forward, 1) + chain_causes(cands, forward, 0)[::-1]
            backward = tuple(p ^ 1 for p in reversed(forward))
            order = order_of(s.cycle, len(path), s.rank)
            out.append(Chain(order, removals, tuple(causes), (forward, backward), len(path)))
    if s.forcing is None:
        return out
    cell, d = divmod(start >> 1, 9)
    for assumed in (start, start ^ 1):
        chain = forcing_path(graph, assumed)
        if not chain:
            continue
        if assumed & 1:  # "on" implies "off": the digit goes
            removals = ((cell, 1 << d),)
        else:
            others = cands[cell] ^ 1 << d
            if not others:
                continue
            removals = ((cell, others),)
        order = order_of(s.forcing, len(chain), s.rank)
        causes = chain_causes(cands, chain, 1)
        out.append(Chain(order, removals, tuple(causes), (tuple(chain),), len(chain)))
    return out


def every_hint(cands: tuple[int, ...]) -> tuple[Chain, ...]:
    """Every hint SE's "Forcing Chains & Cycles" gives on the board of ``cands``, in the order
    it hands them on (sorted by difficulty, complexity and rank, stably), each set of removals
    once (SE keeps the first); charged ``work.EVERY_CYCLE``."""
    work.charge(work.EVERY_CYCLE)
    return _every_hint(cands)


@lru_cache(maxsize=256)
def _every_hint(cands: tuple[int, ...]) -> tuple[Chain, ...]:
    found: list[Chain] = []
    for s in SEARCHES:
        graph = Graph(cands, s)
        for start in starts(cands, s):
            found += _chains(graph, start)
    return kept_once(found)


def kept_once(found: list[Chain]) -> tuple[Chain, ...]:
    """SE's hand-over of a producer's hints: sorted (stably) by their order, the first of each
    set of removals kept."""
    kept: dict[tuple[tuple[int, int], ...], Chain] = {}
    for chain in sorted(found, key=lambda chain: chain.order):
        kept.setdefault(chain.removals, chain)
    return tuple(kept.values())
