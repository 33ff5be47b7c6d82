"""Sudoku solving and rating, pure standard library (see ``solver.grid`` for the glossary).

Public API::

    parse(text) -> Grid                       normalize(text) -> str
    solve(puzzle, *, node_budget=200_000)     -> SolveResult
    solve_many(puzzles, *, node_budget)       -> list[SolveResult]   (one call per batch)
    solve_many_timed(puzzles, *, node_budget) -> list[(SolveResult, seconds)]
    backend() -> "native" | "python"          use_backend("native" | "python" | "auto")
    find_conflict(grid) -> str | None         is_solution(puzzle, solution) -> bool
    PuzzleFormatError, SolveResult, Metrics, LADDER, Rung, LADDER_CEILING, SOLVER_VERSION
"""

from __future__ import annotations

from solver.backends import (
    available,
    backend,
    solve,
    solve_many,
    solve_many_timed,
    unavailable_reason,
    use_backend,
)
from solver.engine import SolverBug
from solver.grid import Grid, PuzzleFormatError, find_conflict, is_solution, normalize, parse
from solver.ladder import LADDER, Rung
from solver.rating import LADDER_CEILING
from solver.result import Metrics, SolveResult

SOLVER_VERSION = "1.2.0"

__all__ = [
    "LADDER",
    "LADDER_CEILING",
    "SOLVER_VERSION",
    "Grid",
    "Metrics",
    "PuzzleFormatError",
    "Rung",
    "SolveResult",
    "SolverBug",
    "available",
    "backend",
    "find_conflict",
    "is_solution",
    "normalize",
    "parse",
    "solve",
    "solve_many",
    "solve_many_timed",
    "unavailable_reason",
    "use_backend",
]
