"""The compiled core (``solver._core``, built from ``solver/core/*.c``) behind the solver's API.

At import the core is handed the reference's tables (``core_tables``): the ladder, the labels
and their cut-offs, the rating's constants, SE's order of the units, the empty-cell markers,
the words of statuses and contradictions, the result classes. It keeps no copy of them; what
it must recognise by name is checked, and a mismatch (a rung without a C function, say)
refuses the core here, with a message naming it, so the solver falls back to the reference.

The core reads plain 81-character puzzles (digits and the empty markers of ``solver.grid``,
surrounded by ASCII whitespace at most) and returns, per puzzle, the ``SolveResult`` and the
seconds it took. Anything else it hands back untouched (None) and the reference ``parse`` says
what is wrong, or normalises it for a second try.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

import solver._core as _core
from solver import (
    bigwings,
    bug,
    chains,
    effort,
    engine,
    forcing,
    intersections,
    links,
    nested,
    rating,
    subsets,
    uniqueness,
    work,
)
from solver.board import CONTRADICTIONS, Board, Contradiction, Found
from solver.errors import PuzzleFormatError, SolverBug
from solver.grid import (
    EMPTY_CHARS,
    SE_UNIT_ORDER,
    SE_UNITS_OF,
    check_grid,
    find_conflict,
    parse,
    to_text,
)
from solver.ladder import DEFAULT_PROFILE, LADDERS, PROFILES, RUNGS, Rung
from solver.result import STATUSES, Metrics, SolveResult


def _padded(rows: tuple[tuple[int, ...], ...], width: int) -> list[int]:
    """The rows of unit positions, each padded to ``width`` with ``links.NO_POSITION``, flat."""
    return [p for row in rows for p in (*row, *[links.NO_POSITION] * (width - len(row)))]


def core_tables() -> dict[str, Any]:
    """Every fact the compiled core uses, from its one home in the reference."""
    return {
        # Every rung, with the name of the function applying it (the core's function of that
        # name): a rung SukakuExplainer applies its own way is there twice, one name. The
        # flags: estimated, assumes uniqueness, one of SE's chains (tried within the budget).
        "ladder": [
            (
                r.name,
                r.apply.__name__,
                r.tenths,
                r.estimated,
                r.assumes_uniqueness,
                r.se_chain,
            )
            for r in RUNGS
        ],
        # Each profile's ladder, as indices into "ladder", in its order (PROFILES' order).
        "profiles": [[RUNGS.index(rung) for rung in LADDERS[profile]] for profile in PROFILES],
        "length_bonus": chains.LENGTH_BONUS,
        # (length, tenths) rows of the unique loops' bonus, flattened.
        "loop_bonus": [n for row in uniqueness.LOOP_BONUS for n in row],
        "unique_loops": (
            uniqueness.TYPE_3_NAKED_BONUS,
            uniqueness.TYPE_3_HIDDEN_BONUS,
            uniqueness.LARGEST_SET,
            uniqueness.MAX_EXTRA_CELLS,
        ),
        "bug_type_3": (bug.TYPE_3_BONUS, bug.LARGEST_SET),
        "length_added": chains.LENGTH_ADDED,
        # SE's order of the kinds of hint of several chains: double, cell, region, contradiction.
        "forcing_kinds": forcing.KINDS,
        # The flags (dynamic, Nishio, level, order) of SE's rules of several chains, in
        # forcing.RULES' order, flattened.
        "forcing_rules": [
            int(flag)
            for rule in forcing.RULES
            for flag in (rule.dynamic, rule.nishio, rule.level, rule.hash_order)
        ],
        # The rules a chain "(+)" applies inside (solver.nested): their units, lines and pairs.
        "nested_crossings": [u for pair in nested.CROSSINGS for u in pair],
        "nested_set_units": nested.SET_UNITS,
        "nested_fish_lines": [u for lines in nested.FISH_LINES for u in lines],
        "nested_pairs": [k for pair in nested.PAIRS for k in pair],
        # The rules each level applies: bit k for nested.RULE_ORDER[k].
        "nested_level_rules": [
            sum(1 << nested.RULE_ORDER.index(rule) for rule in nested.LEVEL_RULES.get(level, ()))
            for level in range(max(nested.LEVEL_RULES) + 1)
        ],
        # SukakuExplainer's extras: strong-linked fishes', and wings' ([size - 4][largest cell]).
        "link_bonus": links.LINK_BONUS,
        # The layouts the strong-link search splits a unit's positions by, padded, flattened.
        "box_empty": _padded(links.BOX_EMPTY, 4),
        "box_arms": [p for arms in links.BOX_ARMS for p in _padded(arms, 3)],
        "segments": _padded(links.SEGMENTS, 3),
        "line_arms": [p for arms in links.LINE_ARMS for p in _padded(arms, 3)],
        "wing_bonus": [n for row in bigwings.WING_BONUS for n in row],
        # SE's order of the units (indices into UNITS): all 27, and each cell's three, flattened.
        "se_unit_order": SE_UNIT_ORDER,
        "se_units_of": [u for units in SE_UNITS_OF for u in units],
        # SE's order of the units for its direct hidden pairs and triples.
        "se_direct_units": subsets.SE_DIRECT_UNITS,
        # SE's order of its direct claiming, then pointing: (source, target) pairs, flattened.
        "se_direct_locks": [
            u
            for pointing in (False, True)
            for pair in intersections.SE_DIRECT_LOCKS[pointing]
            for u in pair
        ],
        "buckets": rating.BUCKETS,
        "top_bucket": rating.TOP_BUCKET,
        "search_label": rating.SEARCH_LABEL,
        "scale": (rating.SCALE_BOTTOM, rating.SCALE_TOP),
        # The estimate's floor per profile (PROFILES' order): without SE's chains (work budget
        # 0), with them.
        "search_floors": [n for floors in rating.SEARCH_FLOORS for n in floors],
        "estimate": (rating.ESTIMATE_BASE, rating.ESTIMATE_SLOPE, rating.CANDIDATE_WEIGHT),
        # What each kind of SE's chains' work is charged (solver.work.CHARGES' order).
        "work_charges": work.CHARGES,
        "copies": (effort.COPIES, effort.COPY_GUESS_LIMIT),
        "empty_chars": EMPTY_CHARS,
        "statuses": STATUSES,
        "contradictions": CONTRADICTIONS,
        "contradiction_class": Contradiction,
        "no_solution": engine.NO_SOLUTION,
        "result_class": SolveResult,
        "metrics_class": Metrics,
        "result_fields": [f.name for f in fields(SolveResult)],
        "metric_fields": [f.name for f in fields(Metrics)],
    }


try:
    _core.configure(core_tables())
except ValueError as exc:  # a core built from other sources than this reference
    raise ImportError(str(exc)) from exc

_PLAIN = frozenset({"solved", "multiple", "unsolvable", "gave_up"})


def _plain(puzzle: str | Sequence[int]) -> str:
    """The text to hand the core: strings as given, grids checked and written out."""
    return puzzle if isinstance(puzzle, str) else to_text(check_grid(puzzle))


def _checked(item: tuple[SolveResult, float]) -> tuple[SolveResult, float]:
    """The core's answer, completed: an invalid puzzle's reason worded by the reference, and a
    refused answer raised."""
    result, seconds = item
    if result.status == "invalid":  # rare: the reference words which givens clash
        reason = find_conflict(parse(result.puzzle))
        return replace(result, reason=reason), seconds
    if result.status not in STATUSES:  # "solver_bug", the core's signal
        raise SolverBug(f"solver produced a wrong solution for {result.puzzle}")
    return item


def solve_many(
    puzzles: Sequence[str | Sequence[int]],
    *,
    node_budget: int,
    profile: str = DEFAULT_PROFILE,
    work_budget: int = work.DEFAULT,
    batch_budget: int | None = None,
    name_index: bool = True,
) -> list[tuple[SolveResult, float]]:
    """Solve a batch in one call into the core (``solver.backends.solve_many_timed``). A
    malformed puzzle raises PuzzleFormatError, its message prefixed with ``puzzle K:`` (its
    index) when ``name_index``."""
    if node_budget < 0:
        raise ValueError("node_budget must not be negative")
    work.check_budget(work_budget)
    texts = _texts(puzzles, name_index)
    ladder = PROFILES.index(profile)
    batch = -1 if batch_budget is None else work.check_budget(batch_budget, "batch_budget")
    raws = _core.solve_many(texts, node_budget, ladder, work_budget, batch)
    if None in raws:  # not the plain form: the reference parser explains or normalises
        plain = [
            text if raw else _normalised(texts, k, name_index)
            for k, (text, raw) in enumerate(zip(texts, raws, strict=True))
        ]
        if batch_budget is None:
            raws = [
                raw or _core.solve_many([plain[k]], node_budget, ladder, work_budget)[0]
                for k, raw in enumerate(raws)
            ]
        else:  # each puzzle's share of the batch's budget depends on those before it
            raws = _core.solve_many(plain, node_budget, ladder, work_budget, batch)
    return [raw if raw[0].status in _PLAIN else _checked(raw) for raw in raws]


def _texts(puzzles: Sequence[str | Sequence[int]], name_index: bool = True) -> list[str]:
    """The texts to hand the core, a malformed grid raised with its index."""
    texts = []
    for k, puzzle in enumerate(puzzles):
        try:
            texts.append(_plain(puzzle))
        except PuzzleFormatError as exc:
            raise _at(k, exc, name_index) from exc
    return texts


def _normalised(texts: list[str], k: int, name_index: bool = True) -> str:
    """Text k, not in the plain form, as the reference parser normalises it (or explains,
    raising PuzzleFormatError with its index)."""
    try:
        return to_text(parse(texts[k]))
    except PuzzleFormatError as exc:
        raise _at(k, exc, name_index) from exc


def _at(k: int, exc: PuzzleFormatError, name_index: bool) -> PuzzleFormatError:
    if not name_index:
        return exc
    return PuzzleFormatError(f"puzzle {k}: {exc}", exc.column)


def canonical_many(puzzles: Sequence[str | Sequence[int]]) -> list[str]:
    """The canonical form of each puzzle (``solver.canon.canonical``), in one call into the
    core; a malformed puzzle raises PuzzleFormatError, prefixed with ``puzzle K:``."""
    texts = _texts(puzzles)
    forms: list[str] = _core.canonical_many(texts)
    for k, form in enumerate(forms):
        if form is None:  # not the plain form: the reference parser explains or normalises
            forms[k] = _core.canonical_many([_normalised(texts, k)])[0]
    return forms


def apply_rung(rung: Rung, board: Board) -> Found:
    """``ladder.apply_rung`` in the core: its function of the rung's function's name, on the
    board (for ``solver.path``), charging the work budget under way (``work.current``). The
    core reports no contradiction: one is seen only as a cell left without candidates, so on a
    puzzle without solution the path may end otherwise."""
    budget = work.current()
    fired, bonus, values, cands, left = _core.apply_technique(
        rung.apply.__name__, board.values, board.cands, budget.left
    )
    if left < 0:
        budget.left, budget.spent = 0, True
        raise work.WorkSpent
    budget.left = left
    board.values[:], board.cands[:] = values, cands
    board.empty, board.digit_cells = values.count(0), None
    return Found(fired, bonus, board.first_dead_cell())


def minimal_many(
    puzzles: Sequence[str | Sequence[int]], solutions: Sequence[str | None] | None = None
) -> list[bool | None]:
    """Whether each puzzle is minimal (``solver.minimal.is_minimal``), in one call into the
    core (``solutions``: each puzzle's one solution, when a solve proved it, or None); a
    malformed puzzle raises PuzzleFormatError, prefixed with ``puzzle K:``."""
    known = None if solutions is None else list(solutions)
    texts = _texts(puzzles)
    if known is not None and len(known) != len(texts):
        raise ValueError("give one solution (or None) per puzzle")
    try:
        return list(_core.minimal_many(texts, known))
    except ValueError:  # one not in the plain form: the reference parser explains or normalises
        pass
    return list(_core.minimal_many([_normalised(texts, k) for k in range(len(texts))], known))
