"""The compiled core (``solver._core``, from ``solver/_core.c``) behind the solver's API.

The core reads plain 81-character puzzles (digits and the empty markers of ``solver.grid``,
surrounded by ASCII whitespace at most) and returns, per puzzle, the ``SolveResult`` and the
seconds it took. Anything else it hands back untouched (None) and the reference ``parse`` says
what is wrong, or normalises it for a second try.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import solver._core as _core
from solver.errors import PuzzleFormatError, SolverBug
from solver.grid import check_grid, find_conflict, parse, to_text
from solver.result import STATUSES, SolveResult

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
    puzzles: Sequence[str | Sequence[int]], *, node_budget: int, name_index: bool = True
) -> list[tuple[SolveResult, float]]:
    """Solve a batch in one call into the core. A malformed puzzle raises PuzzleFormatError,
    its message prefixed with ``puzzle K:`` (its index) when ``name_index``."""
    if node_budget < 0:
        raise ValueError("node_budget must not be negative")
    texts = []
    for k, puzzle in enumerate(puzzles):
        try:
            texts.append(_plain(puzzle))
        except PuzzleFormatError as exc:
            raise _at(k, exc, name_index) from exc
    raws = _core.solve_many(texts, node_budget)
    out = []
    for k, raw in enumerate(raws):
        if raw is None:  # not the plain form: the reference parser explains or normalises
            try:
                text = to_text(parse(texts[k]))
            except PuzzleFormatError as exc:
                raise _at(k, exc, name_index) from exc
            raw = _core.solve_many([text], node_budget)[0]
        out.append(raw if raw[0].status in _PLAIN else _checked(raw))
    return out


def _at(k: int, exc: PuzzleFormatError, name_index: bool) -> PuzzleFormatError:
    if not name_index:
        return exc
    return PuzzleFormatError(f"puzzle {k}: {exc}", exc.column)
