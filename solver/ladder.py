"""The ladder: the techniques as rungs in Sudoku Explainer's order, applied easiest first.

After every step that changes the board the climb restarts from the bottom rung, as Sudoku
Explainer does, so the hardest rung used is the hardest step of an easiest-first path. One
step applies every instance a rung finds in one sweep (the uniqueness rungs, aligned
exclusion and the chains: SE's one instance, as their value depends on it; the direct rungs of
the classic profile: SE's first instance, as each applies removals that SE, one hint at a time,
may never make), and is recorded on the path (``Step``).
The order is SE's: ascending value, except that SE tries its whole turbot family (empty
rectangle) before XY-Wing, and aligned triplet exclusion (7.5) after all its cycles and
forcing chains of one assumption, however long. To add a technique, write a function
``(Board) -> Found`` in its module, export it from ``solver.techniques``, insert a ``Rung``
where SE tries it, and give the compiled core the same function under the same name
(``solver/core``: the core refuses to load while a rung has none); the rating's ceiling
follows the table.

This table is the one home of the techniques' names and SE values: the compiled core, the
database's documentation and the docs site read them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from solver import techniques as t
from solver import work
from solver.board import Board, Contradiction, Found
from solver.grid import Mask


@dataclass(frozen=True)
class Rung:
    """A technique on the ladder: its stable name, its SE value and the function applying it."""

    name: str
    value: float
    apply: Callable[[Board], Found]

    @property
    def tenths(self) -> int:
        """The SE value in tenths (an instance's bonus is added in tenths)."""
        return round(self.value * 10)


# In Sudoku Explainer's order (easiest first; SE also tries its direct variants, which place a
# digit, before the naked single).
LADDER: tuple[Rung, ...] = (
    Rung("full_house", 1.0, t.full_house),
    Rung("hidden_single_box", 1.2, t.hidden_single_box),
    Rung("hidden_single_line", 1.5, t.hidden_single_line),
    Rung("direct_pointing", 1.7, t.direct_pointing),
    Rung("direct_claiming", 1.9, t.direct_claiming),
    Rung("direct_hidden_pair", 2.0, t.direct_hidden_pair),
    Rung("naked_single", 2.3, t.naked_single),
    Rung("direct_hidden_triple", 2.5, t.direct_hidden_triple),
    Rung("pointing", 2.6, t.pointing),
    Rung("claiming", 2.8, t.claiming),
    Rung("naked_pair", 3.0, t.naked_pair),
    Rung("x_wing", 3.2, t.x_wing),
    Rung("hidden_pair", 3.4, t.hidden_pair),
    Rung("naked_triple", 3.6, t.naked_triple),
    Rung("swordfish", 3.8, t.swordfish),
    Rung("hidden_triple", 4.0, t.hidden_triple),
    Rung("skyscraper", 4.0, t.skyscraper),
    Rung("two_string_kite", 4.1, t.two_string_kite),
    Rung("turbot_fish", 4.2, t.turbot_fish),
    Rung("empty_rectangle", 4.3, t.empty_rectangle),
    Rung("grouped_two_strong_links", 4.3, t.grouped_two_strong_links),
    Rung("xy_wing", 4.2, t.xy_wing),
    Rung("xyz_wing", 4.4, t.xyz_wing),
    Rung("unique_rectangle", 4.5, t.unique_rectangle),
    Rung("unique_loop", 4.6, t.unique_loop),
    Rung("naked_quad", 5.0, t.naked_quad),
    Rung("jellyfish", 5.2, t.jellyfish),
    Rung("hidden_quad", 5.4, t.hidden_quad),
    # SukakuExplainer's strong-linked fishes and wings (solver.links, solver.bigwings), where it
    # tries them: a value from the first instance in its order, that one instance applied.
    Rung("three_strong_links", 5.4, t.three_strong_links),
    Rung("wxyz_wing", 5.5, t.wxyz_wing),
    Rung("bug", 5.6, t.bug),
    Rung("bug_type_2", 5.7, t.bug_type_2),
    Rung("bug_type_4", 5.7, t.bug_type_4),
    Rung("bug_type_3", 5.7, t.bug_type_3),
    Rung("vwxyz_wing", 6.2, t.vwxyz_wing),
    Rung("aligned_pair_exclusion", 6.2, t.aligned_pair_exclusion),
    # SE's "Forcing Chains & Cycles" (solver.cycles): one of them fires at a time, the hint SE
    # would apply among all their chains, at the rung's value plus its length's bonus.
    Rung("bidirectional_x_cycle", 6.5, t.bidirectional_x_cycle),
    Rung("bidirectional_y_cycle", 6.5, t.bidirectional_y_cycle),
    Rung("forcing_x_chain", 6.6, t.forcing_x_chain),
    Rung("bidirectional_cycle", 7.0, t.bidirectional_cycle),
    Rung("forcing_xy_chain", 7.0, t.forcing_xy_chain),
    # SE's next chaining producer: tried only when none of its chains above fires, whatever
    # their value (SE takes the first hint of its producers, in their order).
    Rung("aligned_triplet_exclusion", 7.5, t.aligned_triplet_exclusion),
    # SE's chains of several assumptions (solver.forcing), its next producers, in its order.
    Rung("nishio_forcing_chain", 7.5, t.nishio_forcing_chain),
    Rung("multiple_forcing_chain", 8.0, t.multiple_forcing_chain),
    Rung("dynamic_forcing_chain", 8.5, t.dynamic_forcing_chain),
    # SE's next producer: dynamic chains that apply a few other rules as they go (solver.nested).
    Rung("dynamic_forcing_chain_plus", 9.0, t.dynamic_forcing_chain_plus),
    # SE's nested forcing chains of level 2: the same, applying its forcing chains and cycles
    # inside each chain (solver.nested).
    Rung("nested_forcing_chain", 9.5, t.nested_forcing_chain),
    # Level 3: also applying its multiple forcing chains inside each chain.
    Rung("nested_multiple_forcing_chain", 10.0, t.nested_multiple_forcing_chain),
    # Level 4 (classic SE only): dynamic forcing chains inside each chain, in place of both.
    Rung("nested_dynamic_forcing_chain", 10.5, t.nested_dynamic_forcing_chain),
    # Beyond them, the estimate's fallback (SE's nested forcing chains of level 5).
    Rung("forcing_chain", 6.6, t.forcing_chain),
)
VALUES = {rung.name: rung.value for rung in LADDER}
# Rungs rated by an estimate rather than their own value (see solver.rating): our forcing
# chains propagate singles dynamically, so they also solve what SE needs much harder chains for
# (its deeper nested forcing chains).
ESTIMATED = frozenset({"forcing_chain"})
EXACT_LADDER = tuple(rung for rung in LADDER if rung.name not in ESTIMATED)

# Rating profiles: which Sudoku Explainer's ladder a puzzle is rated on. `classic` is Sudoku
# Explainer 1.2.1.3 with gsf's serate changes, the rating of the enjoysudoku forum's lists
# (docs/rating/profiles.md); `sukaku` is SukakuExplainer 1.15.12 with its default techniques,
# the build that rated the Sudoku Exchange puzzle bank (its later releases add UVWXYZ- and
# TUVWXYZ-wings and four strong links, and rate strong links otherwise), whose ladder adds the
# turbot family, strong-linked fishes of three links and wings of four and five cells
# (SUKAKU_ONLY), each where SukakuExplainer tries it, and applies a few of SE's rules its own
# way (SUKAKU_RULES). A puzzle that needs a rung its
# profile lacks goes on to the next rung that solves it, as that Explainer would.
PROFILES = ("classic", "sukaku")
DEFAULT_PROFILE = PROFILES[0]
SUKAKU_ONLY = frozenset(
    {
        "skyscraper",
        "two_string_kite",
        "turbot_fish",
        "empty_rectangle",
        "grouped_two_strong_links",
        "three_strong_links",
        "wxyz_wing",
        "vwxyz_wing",
    }
)
# Rungs only classic SE has: SukakuExplainer 1.15.12 nests its chains beyond level 3 its own way
# (its own nesting limits), so the sukaku profile stops at level 3 and estimates beyond it.
CLASSIC_ONLY = frozenset({"nested_dynamic_forcing_chain"})
# Rules SukakuExplainer finds its own way (lkSudoku's changes, on by default there; its direct
# rungs are Juillerat's SE's, which place their digit and apply no removal, where classic SE
# 1.2.1.3 applies the removals too): the same rungs, names and values, applied by these
# functions on the sukaku ladder.
SUKAKU_RULES: dict[str, Callable[[Board], Found]] = {
    "direct_pointing": t.sukaku_direct_pointing,
    "direct_claiming": t.sukaku_direct_claiming,
    "direct_hidden_pair": t.sukaku_direct_hidden_pair,
    "direct_hidden_triple": t.sukaku_direct_hidden_triple,
    "unique_rectangle": t.sukaku_unique_rectangle,
    "unique_loop": t.sukaku_unique_loop,
    "bug_type_2": t.sukaku_bug_type_2,
    "bug_type_4": t.sukaku_bug_type_4,
    "bug_type_3": t.sukaku_bug_type_3,
    "dynamic_forcing_chain_plus": t.sukaku_dynamic_forcing_chain_plus,
    "nested_forcing_chain": t.sukaku_nested_forcing_chain,
    "nested_multiple_forcing_chain": t.sukaku_nested_multiple_forcing_chain,
}
# Sudoku Explainer's cycles and forcing chains of one assumption (solver.cycles), aligned
# triplet exclusion, its next chaining producer (solver.exclusion), and its chains of several
# assumptions (solver.forcing, solver.nested): exact, but from microseconds to minutes a step,
# so a climb tries them only within its work budget (``solver.work``; 0 never tries them).
# Aligned triplet exclusion must go with the chains: SE tries it only when they find nothing.
SE_CHAINS = frozenset(
    {
        "bidirectional_x_cycle",
        "bidirectional_y_cycle",
        "forcing_x_chain",
        "bidirectional_cycle",
        "forcing_xy_chain",
        "aligned_triplet_exclusion",
        "nishio_forcing_chain",
        "multiple_forcing_chain",
        "dynamic_forcing_chain",
        "dynamic_forcing_chain_plus",
        "nested_forcing_chain",
        "nested_multiple_forcing_chain",
        "nested_dynamic_forcing_chain",
    }
)
# SE's nested forcing chains: the costliest of them (seconds a puzzle in the core; minutes in
# the reference, whose parity tests keep to a few puzzles of them).
NESTED_CHAINS = frozenset(
    {"nested_forcing_chain", "nested_multiple_forcing_chain", "nested_dynamic_forcing_chain"}
)


def _sukaku(rung: Rung) -> Rung:
    """The rung as SukakuExplainer applies it."""
    return replace(rung, apply=SUKAKU_RULES[rung.name]) if rung.name in SUKAKU_RULES else rung


LADDERS: dict[str, tuple[Rung, ...]] = {
    "classic": tuple(rung for rung in LADDER if rung.name not in SUKAKU_ONLY),
    "sukaku": tuple(_sukaku(rung) for rung in LADDER if rung.name not in CLASSIC_ONLY),
}
# Every rung of every profile, once each: LADDER's, each SukakuExplainer variant after its twin.
RUNGS = tuple(dict.fromkeys(variant for rung in LADDER for variant in (rung, _sukaku(rung))))
EXACT_LADDERS = {
    profile: tuple(rung for rung in rungs if rung.name not in ESTIMATED)
    for profile, rungs in LADDERS.items()
}


def check_profile(profile: str) -> str:
    """The profile, if it is one of PROFILES; ValueError naming them otherwise."""
    if profile not in LADDERS:
        raise ValueError(f"unknown rating profile {profile!r}: expected {' or '.join(PROFILES)}")
    return profile


# Rungs that assume a unique solution: a path using one proves nothing about uniqueness.
ASSUMES_UNIQUENESS = frozenset(
    {"unique_rectangle", "unique_loop", "bug", "bug_type_2", "bug_type_3", "bug_type_4"}
)


@dataclass(frozen=True)
class Step:
    """One step of the path: the rung, its SE value (with the instance's bonus), and whether
    it placed a digit (else it only removed candidates)."""

    name: str
    value: float
    placed: bool


# How a climb applies one rung on a board: the reference calls the rung's own function
# (``apply_rung``); the compiled core applies its function of the same name (solver.native).
StepFn = Callable[[Rung, Board], Found]


def apply_rung(rung: Rung, board: Board) -> Found:
    """Apply the rung's own function (the reference's step)."""
    return rung.apply(board)


def climb(
    board: Board,
    rungs: Sequence[Rung] = LADDER,
    path: list[Step] | None = None,
    chains: work.Budget | None = None,
    step: StepFn = apply_rung,
) -> tuple[dict[str, int], Contradiction | None]:
    """Apply the easiest rung that fires until the board is solved, stuck or contradictory.

    Returns how often each rung fired (only rungs that fired, in ladder order) and the
    contradiction that stopped the climb (None if none did); each step is appended to
    ``path`` when one is given. The SE chain rungs are tried within the work budget ``chains``
    (without limit when it is None): none when it is 0, none again once it is spent, the step
    under way abandoned. ``step`` applies a rung.
    """
    counts = [0] * len(rungs)
    k = 0
    while k < len(rungs) and board.empty:
        empty = board.empty
        if rungs[k].name in SE_CHAINS and chains is not None:
            found = _within(chains, step, rungs[k], board)
        else:
            found = step(rungs[k], board)
        if found is None:  # SE's chains are off, or their budget is spent
            k += 1
            continue
        if found.fired:
            counts[k] += found.fired
            if path is not None:
                value = (rungs[k].tenths + found.bonus) / 10
                path.append(Step(rungs[k].name, value, board.empty < empty))
            k = 0
        else:
            k += 1
        if found.contradiction:
            return _fired(rungs, counts), found.contradiction
    return _fired(rungs, counts), None


def _within(budget: work.Budget, step: StepFn, rung: Rung, board: Board) -> Found | None:
    """The rung applied with its charges going to ``budget``; None when the budget is 0 or
    spent, or runs out first (the board is then as it was: a chain rung changes it only once
    its search is done)."""
    if not budget.on or budget.spent:
        return None
    if budget.gate is not None:
        gate, budget.gate = budget.gate, None
        if not gate():
            budget.on = False
            return None
    with work.charging(budget):
        try:
            return step(rung, board)
        except work.WorkSpent:
            return None


def climb_profile(
    board: Board,
    profile: str,
    chains: work.Budget,
    path: list[Step] | None = None,
    step: StepFn = apply_rung,
) -> tuple[dict[str, int], list[Mask] | None, Contradiction | None]:
    """Climb the profile's exact ladder, then its whole ladder (chains) if it stalls, both
    within the puzzle's one work budget, as ``solve`` does. Returns the technique counts, the
    pencil marks where the exact ladder stalled (None if it did not) and the contradiction that
    stopped the climb, if any."""
    dead = board.first_dead_cell()
    if dead is not None:
        return {}, None, dead
    counts, contradiction = climb(board, EXACT_LADDERS[profile], path, chains, step)
    if board.solved() or contradiction is not None:
        return counts, None, contradiction
    stall = board.masks()
    more, contradiction = climb(board, LADDERS[profile], path, chains, step)
    return merge(counts, more), stall, contradiction


def _fired(rungs: Sequence[Rung], counts: list[int]) -> dict[str, int]:
    """The rungs that fired, by name, in ladder order."""
    return {rung.name: n for rung, n in zip(rungs, counts, strict=True) if n}


def merge(*counts: dict[str, int]) -> dict[str, int]:
    """Technique counts of several climbs added up, in ladder order."""
    return {
        rung.name: total for rung in LADDER if (total := sum(c.get(rung.name, 0) for c in counts))
    }


def hardest(counts: dict[str, int]) -> str | None:
    """The technique with the highest SE value among those that fired, or None."""
    return max(counts, key=VALUES.__getitem__, default=None)
