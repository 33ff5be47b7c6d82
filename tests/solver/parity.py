"""Comparing the compiled core with the reference: outcomes field by field, in readable words.

An *outcome* is what a call gave: the fields of its SolveResult, or the exception it raised
(type, message, column). Two outcomes are equal only when every field has the same type and
value: floats are compared with ``==`` (exactly, to the last bit), technique counts as the
ordered list of their items. ``check_batch`` is what the process pool runs over a corpus.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from solver import engine, work
from solver.ladder import DEFAULT_PROFILE, NESTED_CHAINS
from solver.result import Metrics, SolveResult

Puzzle = str | Sequence[int]
Outcome = dict[str, Any]

# Every field of the result and of its metrics, in their dataclasses' order.
RESULT_FIELDS = tuple(f.name for f in dataclasses.fields(SolveResult) if f.name != "metrics")
METRIC_FIELDS = tuple(f.name for f in dataclasses.fields(Metrics))
SHOWN = 20  # mismatches listed in one failure message; the rest are counted
# Work budgets the corpora are checked with: SE's chains never tried; a few hundred units, which
# run out in the middle of a hard puzzle's climb (the step under way abandoned, the rest left to
# the estimate); the default, which rates all but the hardest puzzles exactly.
SMALL_WORK = 300
WORK_BUDGETS = (0, SMALL_WORK, work.DEFAULT)
# The most work of SE's chains a puzzle is compared at: the reference takes about 60 us a unit
# (the core about 1), so this is a few seconds there. SE's nested chains, taken or tried in vain,
# take hundreds of thousands of units, and the reference minutes a puzzle.
REFERENCE_WORK = 50_000


def fields(result: SolveResult) -> Outcome:
    """Every field of a result, metrics flattened, technique counts as ordered items; the
    types of the objects too (the core builds them in C)."""
    out: Outcome = {"types": [type(result), type(result.metrics)]}
    out["types"].append(type(result.metrics.technique_counts))
    out["types"] = [t.__qualname__ for t in out["types"]]
    out |= {name: getattr(result, name) for name in RESULT_FIELDS}
    for name in METRIC_FIELDS:
        out[f"metrics.{name}"] = getattr(result.metrics, name)
    out["metrics.technique_counts"] = list(result.metrics.technique_counts.items())
    return out


def outcome(call: Callable[[], SolveResult]) -> Outcome:
    """The fields of ``call()``'s result, or the exception it raised."""
    try:
        return fields(call())
    except Exception as exc:  # every error is part of the outcome compared
        column = getattr(exc, "column", None)
        return {"raises": type(exc).__name__, "message": str(exc), "column": column}


def _typed(value: Any) -> Any:
    """The value with its type, recursively: 1 and 1.0 and True differ here."""
    if isinstance(value, list | tuple):
        return [_typed(v) for v in value]
    return type(value).__name__, value


def differences(native: Outcome, reference: Outcome) -> list[str]:
    """``field: native X, reference Y`` for each field that differs (type or value)."""
    if ("raises" in native) != ("raises" in reference):
        return [f"outcome: native {_summary(native)}, reference {_summary(reference)}"]
    out = []
    for name in sorted(set(native) | set(reference), key=_order):
        a, b = native.get(name, "<absent>"), reference.get(name, "<absent>")
        if _typed(a) != _typed(b):
            out.append(f"{name}: native {a!r}, reference {b!r}")
    return out


def _summary(outcome: Outcome) -> str:
    """``raises E('message') at column C`` or ``returns <status> for '<puzzle>'``."""
    if "raises" in outcome:
        where = f" at column {outcome['column']}" if outcome["column"] is not None else ""
        return f"raises {outcome['raises']}({outcome['message']!r}){where}"
    return f"returns {outcome['status']} for {outcome['puzzle']!r}"


def _order(name: str) -> int:
    """Fields in the order of the dataclasses, exception fields last."""
    names = ["types", *RESULT_FIELDS, *(f"metrics.{n}" for n in METRIC_FIELDS)]
    return names.index(name) if name in names else len(names)


def report(where: str, puzzle: object, native: Outcome, reference: Outcome) -> str | None:
    """One readable paragraph naming the puzzle and its differing fields, or None if equal."""
    diffs = differences(native, reference)
    if not diffs:
        return None
    return f"{where}: {puzzle!r}\n    " + "\n    ".join(diffs)


def verdict(mismatches: Sequence[str], checked: int) -> str:
    """The failure message: how many of ``checked`` puzzles differ, the first few in full."""
    shown = "\n".join(mismatches[:SHOWN])
    more = f"\n... and {len(mismatches) - SHOWN} more" if len(mismatches) > SHOWN else ""
    return f"{len(mismatches)} of {checked} puzzles differ (native vs reference):\n{shown}{more}"


def beyond_the_reference(result: SolveResult) -> bool:
    """Whether the core's climb did more work than the reference can follow in a test
    (``REFERENCE_WORK``): SE's nested chains taken, or tried in vain (a puzzle with several
    solutions tries them all), or a budget of millions spent. There the reference takes
    minutes a puzzle; tests/solver/test_nested.py compares the nested chains themselves."""
    counts = result.metrics.technique_counts
    return result.metrics.work > REFERENCE_WORK or bool(NESTED_CHAINS & set(counts))


def check_batch(job: tuple[str, int, list[tuple[int, str]], str, int]) -> list[str]:
    """Solve one chunk of a corpus in the core (one batch, as a worker does) and one by one in
    the reference, on one rating profile with one work budget; the mismatches as readable
    paragraphs. A puzzle whose climb in the core does more work than the reference can follow
    (``beyond_the_reference``: SE's nested chains) is compared with SE's chains not tried. Runs
    in a pool process."""
    from solver import native  # the pool's processes import it on their own

    name, budget, numbered, profile, chains = job
    puzzles = [puzzle for _, puzzle in numbered]

    def core(puzzle: str, work_budget: int) -> SolveResult:
        return _one(native, puzzle, budget, profile, work_budget)

    solved: list[SolveResult | None]
    try:
        batch = native.solve_many(puzzles, node_budget=budget, profile=profile, work_budget=chains)
        solved = [result for result, _ in batch]
    except Exception:  # then each puzzle alone says which one fails, and how (below)
        solved = [_or_none(lambda p=p: core(p, chains)) for p in puzzles]
    out = []
    for (line, puzzle), result in zip(numbered, solved, strict=True):
        used = chains
        if result is not None and beyond_the_reference(result):
            used = 0
        if result is None or used != chains:
            got = outcome(lambda p=puzzle, c=used: core(p, c))
        else:
            got = fields(result)
        expected = outcome(
            lambda p=puzzle, c=used: engine.solve(
                p, node_budget=budget, profile=profile, work_budget=c
            )
        )
        where = f"{name} line {line} ({profile}, work budget {used})"
        found = report(where, puzzle, got, expected)
        if found:
            out.append(found)
    return out


def _or_none(call: Callable[[], SolveResult]) -> SolveResult | None:
    """``call()``'s result, or None if it raised."""
    try:
        return call()
    except Exception:  # its outcome, error included, is taken again where it is compared
        return None


def _one(
    native: Any, puzzle: Puzzle, budget: int, profile: str = DEFAULT_PROFILE, chains: int = 0
) -> SolveResult:
    solved = native.solve_many(
        [puzzle], node_budget=budget, profile=profile, work_budget=chains, name_index=False
    )
    result: SolveResult = solved[0][0]
    return result


def native_outcome(native: Any, puzzle: Puzzle, budget: int) -> Outcome:
    """The core's outcome for one puzzle (a batch of one, error messages without the index),
    SE's chains not tried (work budget 0, as in ``reference_outcome``)."""
    return outcome(lambda: _one(native, puzzle, budget))


def reference_outcome(puzzle: Puzzle, budget: int) -> Outcome:
    """The reference's outcome for one puzzle, SE's chains not tried (work budget 0: on random
    puzzles, mostly with several solutions, they would be tried in vain at length)."""
    return outcome(lambda: engine.solve(puzzle, node_budget=budget, work_budget=0))
