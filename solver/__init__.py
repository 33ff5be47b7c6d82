"""Sudoku solving and rating, pure standard library (see ``solver.grid`` for the glossary).

Public API::

    parse(text) -> Grid                       normalize(text) -> str
    solve(puzzle, *, node_budget=DEFAULT_NODE_BUDGET, profile, work_budget) -> SolveResult
    solve_many(puzzles, *, node_budget, profile, work_budget, batch_budget)
                                              -> list[SolveResult]   (one call per batch)
    solve_many_timed(puzzles, ...)            -> list[(SolveResult, seconds)]
    solving_path(puzzle, *, profile, work_budget) -> SolvingPath   (steps: PathStep)
    backend() -> "native" | "python"          use_backend("native" | "python" | "auto")
    canonical(puzzle) -> str                  canonical_many(puzzles) -> list[str]  (minlex)
    canonical_forms(puzzles) -> dict[str, str]  (each distinct one's form, by its text)
    keyed_forms(puzzles) -> dict[str, (form, key)]  canonical_key(form) -> int  (64-bit digest)
    is_minimal(puzzle) -> bool | None         minimal_many(puzzles) -> list[bool | None]
    find_conflict(grid) -> str | None         is_solution(puzzle, solution) -> bool
    SolveResult, Metrics, LADDER, Rung, LADDER_CEILING, SOLVER_VERSION
    STATUSES, LABELS, EMPTY_CHARS, DEFAULT_NODE_BUDGET: the vocabulary, defined once
    work: the work budget of SE's chains (its units, charges and default budgets)
    SudokuBatchError (the project's error root), PuzzleFormatError, SolverBug
"""

from __future__ import annotations

from solver import work
from solver.backends import (
    available,
    backend,
    canonical,
    canonical_forms,
    canonical_many,
    is_minimal,
    keyed_forms,
    minimal_many,
    solve,
    solve_many,
    solve_many_timed,
    solving_path,
    unavailable_reason,
    use_backend,
)
from solver.canon import canonical_key
from solver.errors import PuzzleFormatError, SolverBug, SudokuBatchError
from solver.grid import EMPTY_CHARS, Grid, find_conflict, is_solution, normalize, parse
from solver.ladder import DEFAULT_PROFILE, LADDER, PROFILES, Rung
from solver.path import PathStep, SolvingPath
from solver.rating import LABELS, LADDER_CEILING
from solver.result import STATUSES, Metrics, SolveResult, Status
from solver.search import DEFAULT_NODE_BUDGET

SOLVER_VERSION = "1.4.0"

__all__ = [
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_PROFILE",
    "EMPTY_CHARS",
    "LABELS",
    "LADDER",
    "LADDER_CEILING",
    "PROFILES",
    "SOLVER_VERSION",
    "STATUSES",
    "Grid",
    "Metrics",
    "PathStep",
    "PuzzleFormatError",
    "Rung",
    "SolveResult",
    "SolverBug",
    "SolvingPath",
    "Status",
    "SudokuBatchError",
    "available",
    "backend",
    "canonical",
    "canonical_forms",
    "canonical_key",
    "canonical_many",
    "find_conflict",
    "is_minimal",
    "is_solution",
    "keyed_forms",
    "minimal_many",
    "normalize",
    "parse",
    "solve",
    "solve_many",
    "solve_many_timed",
    "solving_path",
    "unavailable_reason",
    "use_backend",
    "work",
]
