"""Sudoku Explainer's chains of several assumptions, found and chosen as SE does: Nishio forcing
chains (7.5), multiple forcing chains (cell and region, 8.0), dynamic forcing chains (8.5) and
their "(+)" form (9.0), whose runs also apply a few other rules (``solver.nested``).

Potentials are written as in ``solver.cycles``: ``(cell * 9 + digit - 1) * 2 + on``. From an
assumption SE follows every implication breadth-first (``implications``), each potential once,
"on" potentials before "off" ones:

* on -> off: the cell's other candidates (not in Nishio), the digit in the cell's peers;
* off -> on: the cell's other candidate when it has two left (not in Nishio), the digit's other
  place in a unit where it has two left.

*Dynamic* chains (Nishio and dynamic) remove each "off" from the board as it is followed, so
later implications see the board it leaves; an implication that needed such removals has them
as *hidden parents*. A chain's *complexity* is the number of distinct potentials it rests on
(the implied potential and all its ancestors); a hint's is the sum over its chains, and adds
SE's extra for its length (``chains.LENGTH_BONUS``) to the rule's value. A run stops at its
first contradiction (a potential both on and off), keeping what it had found.

What each rule concludes, from the runs of one position:

* *contradiction* (Nishio, dynamic): an assumption that leads to a contradiction is false;
* *double* (dynamic, cells of three candidates or more): what follows from a candidate both on
  and off is true;
* *cell* (multiple, dynamic): what follows from every candidate of a cell is true;
* *region* (multiple, dynamic): what follows from every place of a digit in a unit is true.

SE takes the hint of least complexity, then its kind (double, cell, region, contradiction),
then the first found: cells in reading order, each candidate's contradictions, doubles and
regions (box, row, column; a unit when its first place is met), then the cell's own.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from solver import work
from solver.board import NOTHING, Board, Found, place, remove
from solver.chains import LENGTH_BONUS
from solver.cycles import Chain, Technique, chain_causes, kept_once, order_of
from solver.grid import POPCOUNT, SE_PEERS, SE_UNITS_OF, UNITS
from solver.nested import Nested, by_cell, by_hash, eliminations

# SE's order among hints of equal complexity (its hints' sort keys; the core reads them).
DOUBLE, CELL, REGION, CONTRADICTION = 1, 5, 6, 7
KINDS = (DOUBLE, CELL, REGION, CONTRADICTION)

Parents = tuple[int, ...]


@dataclass(frozen=True)
class Rule:
    """One of SE's producers of chains of several assumptions."""

    multiple: bool  # cell and region chains
    dynamic: bool  # "off" potentials leave the board as they are followed
    nishio: bool  # one digit only, contradictions only
    level: int = 0  # other rules applied inside the chain (solver.nested): 1 SE's "(+)", 2 nested
    hash_order: bool = False  # those rules' eliminations in SukakuExplainer's order


class Run:
    """The potentials implied by an assumption, each with its parents, in the order found, the
    nested chain each "off" a rule inside the run gave rests on, the cause of each "on" but the
    start (``cycles.cause``: its cell, or 81 + the unit), and the contradiction that stopped
    it: (on potential, its parents), (off potential, its)."""

    __slots__ = ("absurd", "cause", "nested", "off", "on")

    def __init__(self) -> None:
        self.on: dict[int, Parents] = {}
        self.off: dict[int, Parents] = {}
        self.nested: dict[int, Nested] = {}
        self.cause: dict[int, int] = {}
        self.absurd: tuple[tuple[int, Parents], tuple[int, Parents]] | None = None

    def ancestry(self, p: int, parents: Parents | None = None) -> set[int]:
        """The potentials ``p`` rests on, itself included (its recorded parents by default)."""
        seen = {p}
        todo = list((self.on if p & 1 else self.off)[p] if parents is None else parents)
        while todo:
            q = todo.pop()
            if q not in seen:
                seen.add(q)
                todo.extend((self.on if q & 1 else self.off)[q])
        return seen

    def absurd_chains(self) -> list[tuple[Run, int, Parents | None]]:
        """The contradiction's two chains, to its "on" and its "off"."""
        assert self.absurd is not None
        (on, on_parents), (off, off_parents) = self.absurd
        return [(self, on, on_parents), (self, off, off_parents)]


# A hint's chains: each a run, the potential it leads to, and that one's parents when it is
# not a node of the run (a contradiction's second potential).
ChainsOf = list[tuple[Run, int, Parents | None]]


def complexity(chains: Iterable[tuple[Run, int, Parents | None]]) -> int:
    """A hint's complexity: the potentials each of its chains rests on, plus the complexity of
    every distinct chain nested in them (SE's getNestedComplexity)."""
    total, nested = 0, {}
    for run, p, parents in chains:
        seen = run.ancestry(p, parents)
        total += len(seen)
        if run.nested:
            for q in seen:
                chain = run.nested.get(q)
                if chain is not None:
                    nested[chain[0]] = chain[1]
    return total + sum(nested.values())


def _on_to_off(cands: Sequence[int], p: int, y: bool) -> list[int]:
    """What an "on" turns off: the cell's other candidates (with ``y``), the digit's peers."""
    cell, d = divmod(p >> 1, 9)
    bit = 1 << d
    out = [(cell * 9 + e) * 2 for e in range(9) if e != d and cands[cell] >> e & 1] if y else []
    out += [(c * 9 + d) * 2 for c in SE_PEERS[cell] if cands[c] & bit]
    return out


def _off_to_on(
    cands: Sequence[int], source: Sequence[int], p: int, y: bool
) -> list[tuple[int, Parents, int]]:
    """What an "off" turns on, each with its parents (``p`` and the candidates the run removed
    that made it follow; ``source``: the board the run started from) and its cause (the cell,
    or 81 + the unit)."""
    cell, d = divmod(p >> 1, 9)
    bit = 1 << d
    out: dict[int, tuple[Parents, int]] = {}
    if y and POPCOUNT[cands[cell]] == 2:
        other = (cands[cell] ^ bit).bit_length() - 1
        gone = source[cell] & ~cands[cell]
        out[(cell * 9 + other) * 2 + 1] = (
            (p, *((cell * 9 + e) * 2 for e in range(9) if gone >> e & 1)),
            cell,
        )
    for u in SE_UNITS_OF[cell]:
        unit = UNITS[u]
        places = [c for c in unit if cands[c] & bit]
        if len(places) == 2:
            q = (places[places[0] == cell] * 9 + d) * 2 + 1
            if q not in out:
                gone_here = (c for c in unit if source[c] & ~cands[c] & bit)
                out[q] = ((p, *((c * 9 + d) * 2 for c in gone_here)), 81 + u)
    return [(q, parents, why) for q, (parents, why) in out.items()]


def implications(cands: Sequence[int], start: int, rule: Rule) -> Run:
    """SE's run from the assumption ``start`` (an "on" or an "off" potential); charged
    ``work.RUN``."""
    work.charge(work.RUN)
    board = list(cands)  # a dynamic run removes from it what it turns off
    run = Run()
    pending_on: deque[int] = deque()
    pending_off: deque[int] = deque()
    (run.on if start & 1 else run.off)[start] = ()
    (pending_on if start & 1 else pending_off).append(start)
    while pending_on or pending_off:
        if pending_on:
            _turn_off(board, run, pending_on.popleft(), rule, pending_off)
        else:
            _turn_on(board, cands, run, pending_off.popleft(), rule, pending_on)
        if run.absurd:
            return run
        if rule.level and not pending_on and not pending_off:
            order = by_hash if rule.hash_order else by_cell
            for q, parents, nested in eliminations(board, cands, order, rule.level):
                if q not in run.off:
                    run.off[q] = parents
                    if nested is not None:
                        run.nested[q] = nested
                    pending_off.append(q)
    return run


def _turn_off(board: list[int], run: Run, p: int, rule: Rule, pending: deque[int]) -> None:
    """Follow the "on" ``p``: what it turns off, or the contradiction it meets."""
    on, off = run.on, run.off
    for q in _on_to_off(board, p, not rule.nishio):
        if q | 1 in on:
            run.absurd = ((q | 1, on[q | 1]), (q, (p,)))
            return
        if q not in off:
            off[q] = (p,)
            pending.append(q)


def _turn_on(
    board: list[int], cands: Sequence[int], run: Run, p: int, rule: Rule, pending: deque[int]
) -> None:
    """Follow the "off" ``p`` (off the board, in a dynamic run): what it turns on, or the
    contradiction it meets."""
    on, off = run.on, run.off
    made = _off_to_on(board, cands, p, not rule.nishio)
    if rule.dynamic:
        cell, d = divmod(p >> 1, 9)
        board[cell] &= ~(1 << d)
    for q, parents, why in made:
        if q ^ 1 in off:
            run.cause[q] = why
            run.absurd = ((q, parents), (q ^ 1, off[q ^ 1]))
            return
        if q not in on:
            on[q] = parents
            run.cause[q] = why
            pending.append(q)


@dataclass(frozen=True)
class Hint:
    """The hint SE applies: its complexity, its kind and what it concludes (a potential: "on"
    places its digit, "off" removes it)."""

    complexity: int
    kind: int
    target: int

    @property
    def bonus(self) -> int:
        """SE's extra for the length, in tenths."""
        return LENGTH_BONUS[self.complexity - 2]


class Runs(dict[int, Run]):
    """The runs of ``rule`` from "on" potentials of one board, each made once, when first
    asked for (a region's chains reuse the cells' own)."""

    def __init__(self, cands: Sequence[int], rule: Rule) -> None:
        super().__init__()
        self.cands, self.rule = cands, rule

    def __missing__(self, p: int) -> Run:
        run = self[p] = implications(self.cands, p, self.rule)
        return run


def best_hint(cands: Sequence[int], rule: Rule) -> Hint | None:
    """The hint of ``rule`` SE applies on the board of ``cands``, or None."""
    best: Hint | None = None
    runs = Runs(cands, rule)

    def offer(complexity: int, kind: int, target: int) -> None:
        nonlocal best
        if best is None or (complexity, kind) < (best.complexity, best.kind):
            best = Hint(complexity, kind, target)

    for cell in range(81):
        n = POPCOUNT[cands[cell]]
        if not (n > 2 or (n > 1 and rule.dynamic)):
            continue
        outcomes: list[Run] = []
        for d in range(9):
            if cands[cell] >> d & 1:
                p = (cell * 9 + d) * 2 + 1
                if_on = runs[p]
                doubles = n >= 3 and rule.dynamic and not rule.nishio
                for kind, target, chains in _binary(cands, p, if_on, doubles, rule):
                    offer(complexity(chains), kind, target)
                if not rule.nishio:
                    for _, region in _regions(cands, cell, d, runs):
                        _common(region, REGION, offer)
                    outcomes.append(if_on)
        if outcomes:
            _common(outcomes, CELL, offer)
    return best


def _binary(
    cands: Sequence[int], p: int, if_on: Run, doubles: bool, rule: Rule
) -> Iterator[tuple[int, int, ChainsOf]]:
    """Contradiction forcing chains of a candidate, on and off, and its double forcing chains
    (what follows from both), in SE's order: each hint's kind, target and chains."""
    contradictions = rule.dynamic or rule.nishio
    if not (contradictions or doubles):
        return
    if_off = implications(cands, p ^ 1, rule)
    if contradictions and if_on.absurd:
        yield CONTRADICTION, p ^ 1, if_on.absurd_chains()
    if contradictions and if_off.absurd:
        yield CONTRADICTION, p, if_off.absurd_chains()
    if doubles:
        for side_on, side_off in ((if_on.on, if_off.on), (if_on.off, if_off.off)):
            for q in side_on:
                if q in side_off:
                    yield DOUBLE, q, [(if_on, q, None), (if_off, q, None)]


def _regions(
    cands: Sequence[int], cell: int, d: int, runs: Runs
) -> Iterator[tuple[int, list[Run]]]:
    """The units (index into UNITS) where the digit's places are first met at this cell, in
    SE's order, each with the runs from its places."""
    for u in SE_UNITS_OF[cell]:
        places = [c for c in UNITS[u] if cands[c] >> d & 1]
        if len(places) >= 2 and places[0] == cell:
            yield u, [runs[(c * 9 + d) * 2 + 1] for c in places]


def _implied_by_all(outcomes: list[Run]) -> Iterator[int]:
    """What every one of ``outcomes`` implies, in the first's order, "on"s then "off"s."""
    for side in ("on", "off"):
        sets = [getattr(run, side) for run in outcomes]
        for q in sets[0]:
            if all(q in s for s in sets[1:]):
                yield q


def _common(outcomes: list[Run], kind: int, offer: Callable[[int, int, int], None]) -> None:
    """Offer what every one of ``outcomes`` implies."""
    for q in _implied_by_all(outcomes):
        offer(complexity((run, q, None) for run in outcomes), kind, q)


# ---- every hint of multiple forcing chains, for the chains nesting them (SE's level 3) ----


def _path(run: Run, p: int) -> list[int]:
    """The chain to ``p`` in a run that is not dynamic (one parent each), back to its start."""
    out = [p]
    while True:
        parents = (run.on if out[-1] & 1 else run.off)[out[-1]]
        if not parents:
            return out
        out.append(parents[0])


def _multiple_chains(
    cands: Sequence[int], outcomes: list[Run], kind: int, root: int
) -> list[Chain]:
    """The hints of ``kind`` from what every run of ``outcomes`` implies (in the first's order),
    "on"s then "off"s, as ``cycles.Chain``s; ``root``: what SE gives as the cause of each
    chain's start (its cell, or 81 + the unit)."""
    out = []
    for q in _implied_by_all(outcomes):
        cell, d = divmod(q >> 1, 9)
        mask = cands[cell] & ~(1 << d) if q & 1 else 1 << d
        if not mask:
            continue  # SE's hint removes nothing: not worth it
        paths = [_path(run, q) for run in outcomes]
        causes = []
        for path in paths:
            causes += chain_causes(cands, path, 1)
            causes.append((root, (path[-1] >> 1) % 9))
        complexity = sum(len(path) for path in paths)
        order = order_of(multiple_forcing_chain, complexity, kind)
        key = tuple(tuple(path) for path in paths)
        out.append(Chain(order, ((cell, mask),), tuple(causes), key, complexity))
    return out


@work.charged_cache(maxsize=256)
def every_multiple_hint(cands: tuple[int, ...]) -> tuple[Chain, ...]:
    """Every hint SE's multiple forcing chains give on the board of ``cands`` (cells of three
    candidates or more: each one's region chains, then its cell chains), in the order SE hands
    them on, each set of removals once (``cycles.kept_once``)."""
    runs = Runs(cands, MULTIPLE)
    found: list[Chain] = []
    for cell in range(81):
        if POPCOUNT[cands[cell]] <= 2:
            continue
        outcomes = []
        for d in range(9):
            if not cands[cell] >> d & 1:
                continue
            for u, region in _regions(cands, cell, d, runs):
                found += _multiple_chains(cands, region, REGION, 81 + u)
            outcomes.append(runs[(cell * 9 + d) * 2 + 1])
        found += _multiple_chains(cands, outcomes, CELL, cell)
    return kept_once(found)


# ---- every hint of dynamic forcing chains, for the chains nesting them (SE's level 4) ----


def _walk(run: Run, p: int, parents: Parents | None) -> list[int]:
    """SE's getChain: the potentials ``p`` rests on, itself first, breadth first through each
    one's parents in order, each once (``parents``: its own, when it is not a node of the run,
    as a contradiction's second potential is not)."""
    out: list[int] = []
    seen: set[int] = set()
    layer = [p]
    while layer:
        nxt: list[int] = []
        for q in layer:
            if q not in seen:
                seen.add(q)
                out.append(q)
                if q == p and parents is not None:
                    nxt += parents
                else:
                    nxt += (run.on if q & 1 else run.off)[q]
        layer = nxt
    return out


def _dynamic_chain(
    cands: Sequence[int],
    rung: Technique,
    kind: int,
    target: int,
    chains: ChainsOf,
    root: int | None,
) -> Chain | None:
    """A hint of dynamic forcing chains as ``cycles.Chain`` (None when it removes nothing):
    ``target`` is what it concludes, ``chains`` its chains (run, potential, own parents), and
    ``root`` the cause SE gives each chain's start (its cell, 81 + the unit, or None for the
    chains of one candidate on and off)."""
    cell, d = divmod(target >> 1, 9)
    mask = cands[cell] & ~(1 << d) if target & 1 else 1 << d
    if not mask:
        return None
    causes, key = [], []
    for run, q, parents in chains:
        walk = _walk(run, q, parents)
        key.append(tuple(walk))
        for p in walk:
            why = run.cause.get(p, root) if p & 1 else None
            if why is not None:
                causes.append((why, (p >> 1) % 9))
    total = complexity(chains)
    order = order_of(rung, total, kind)
    return Chain(order, ((cell, mask),), tuple(causes), tuple(key), total)


@work.charged_cache(maxsize=64)  # each holds every chain's whole ancestry
def every_dynamic_hint(cands: tuple[int, ...]) -> tuple[Chain, ...]:
    """Every hint SE's dynamic forcing chains give on the board of ``cands`` (cells of two
    candidates or more: each candidate's contradictions, on then off, its doubles, its region
    chains, then the cell's chains), in the order SE hands them on, each set of removals once
    (``cycles.kept_once``)."""
    runs = Runs(cands, DYNAMIC)
    found: list[Chain] = []

    def add(kind: int, target: int, chains: ChainsOf, root: int | None) -> None:
        chain = _dynamic_chain(cands, dynamic_forcing_chain, kind, target, chains, root)
        if chain is not None:
            found.append(chain)

    for cell in range(81):
        n = POPCOUNT[cands[cell]]
        if n < 2:
            continue
        outcomes = []
        for d in range(9):
            if not cands[cell] >> d & 1:
                continue
            p = (cell * 9 + d) * 2 + 1
            if_on = runs[p]
            for kind, target, chains in _binary(cands, p, if_on, n >= 3, DYNAMIC):
                add(kind, target, chains, None)
            for u, region in _regions(cands, cell, d, runs):
                for q in _implied_by_all(region):
                    add(REGION, q, [(run, q, None) for run in region], 81 + u)
            outcomes.append(if_on)
        for q in _implied_by_all(outcomes):
            add(CELL, q, [(run, q, None) for run in outcomes], cell)
    return kept_once(found)


NISHIO = Rule(multiple=False, dynamic=True, nishio=True)
MULTIPLE = Rule(multiple=True, dynamic=False, nishio=False)
DYNAMIC = Rule(multiple=True, dynamic=True, nishio=False)
DYNAMIC_PLUS = Rule(multiple=True, dynamic=True, nishio=False, level=1)
SUKAKU_DYNAMIC_PLUS = Rule(multiple=True, dynamic=True, nishio=False, level=1, hash_order=True)
NESTED = Rule(multiple=True, dynamic=True, nishio=False, level=2)
SUKAKU_NESTED = Rule(multiple=True, dynamic=True, nishio=False, level=2, hash_order=True)
NESTED_MULTIPLE = Rule(multiple=True, dynamic=True, nishio=False, level=3)
SUKAKU_NESTED_MULTIPLE = Rule(multiple=True, dynamic=True, nishio=False, level=3, hash_order=True)
NESTED_DYNAMIC = Rule(multiple=True, dynamic=True, nishio=False, level=4)
# SE's producers of chains of several assumptions, in its order (the core reads their flags).
RULES = (
    NISHIO,
    MULTIPLE,
    DYNAMIC,
    DYNAMIC_PLUS,
    SUKAKU_DYNAMIC_PLUS,
    NESTED,
    SUKAKU_NESTED,
    NESTED_MULTIPLE,
    SUKAKU_NESTED_MULTIPLE,
    NESTED_DYNAMIC,
)


def _apply(board: Board, rule: Rule) -> Found:
    """Apply the hint of ``rule`` SE would, if any: one instance, with its length's bonus."""
    hint = best_hint(board.cands, rule)
    if hint is None:
        return NOTHING
    cell, d = divmod(hint.target >> 1, 9)
    found = place(board, cell, 1 << d) if hint.target & 1 else remove(board, (cell,), 1 << d)
    return Found(1, hint.bonus, found.contradiction)


def nishio_forcing_chain(board: Board) -> Found:
    """SE's Nishio forcing chain: one digit's assumption that contradicts itself."""
    return _apply(board, NISHIO)


def multiple_forcing_chain(board: Board) -> Found:
    """SE's multiple forcing chains: what every candidate of a cell, or every place of a digit
    in a unit, implies."""
    return _apply(board, MULTIPLE)


def dynamic_forcing_chain(board: Board) -> Found:
    """SE's dynamic forcing chains: contradictions, doubles, cells and regions, on a board the
    chains change as they go."""
    return _apply(board, DYNAMIC)


def dynamic_forcing_chain_plus(board: Board) -> Found:
    """SE's dynamic forcing chains "(+)": dynamic forcing chains that also apply pointing,
    claiming, hidden and naked pairs and X-wings to the board each assumption leaves."""
    return _apply(board, DYNAMIC_PLUS)


def sukaku_dynamic_forcing_chain_plus(board: Board) -> Found:
    """The same, as SukakuExplainer takes those rules' eliminations."""
    return _apply(board, SUKAKU_DYNAMIC_PLUS)


def nested_forcing_chain(board: Board) -> Found:
    """SE's nested forcing chains of level 2: dynamic forcing chains "(+)" that also apply SE's
    forcing chains and cycles (``solver.cycles``) to the board each assumption leaves, each
    adding its own complexity to the hint's."""
    return _apply(board, NESTED)


def sukaku_nested_forcing_chain(board: Board) -> Found:
    """The same, as SukakuExplainer takes the nested rules' eliminations."""
    return _apply(board, SUKAKU_NESTED)


def nested_multiple_forcing_chain(board: Board) -> Found:
    """SE's nested forcing chains of level 3: those of level 2 that also apply SE's multiple
    forcing chains inside each chain, where its forcing chains and cycles find nothing."""
    return _apply(board, NESTED_MULTIPLE)


def sukaku_nested_multiple_forcing_chain(board: Board) -> Found:
    """The same, as SukakuExplainer takes the nested rules' eliminations."""
    return _apply(board, SUKAKU_NESTED_MULTIPLE)


def nested_dynamic_forcing_chain(board: Board) -> Found:
    """SE's nested forcing chains of level 4: dynamic forcing chains "(+)" that also apply SE's
    dynamic forcing chains inside each chain (in place of the forcing chains and multiple
    forcing chains of levels 2 and 3, which they cover)."""
    return _apply(board, NESTED_DYNAMIC)
