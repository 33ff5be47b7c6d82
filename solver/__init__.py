"""Sudoku solving and rating, pure standard library (see ``solver.grid`` for the glossary).

Public API::

    parse(text) -> Grid                       normalize(text) -> str
    solve(puzzle, *, node_budget=200_000)     -> SolveResult
    find_conflict(grid) -> str | None         is_solution(puzzle, solution) -> bool
    PuzzleFormatError, SolveResult, Metrics, LADDER, Rung, LADDER_CEILING, SOLVER_VERSION
"""

from __future__ import annotations

from solver.engine import SolverBug, solve
from solver.grid import Grid, PuzzleFormatError, find_conflict, is_solution, normalize, parse
from solver.ladder import LADDER, Rung
from solver.rating import LADDER_CEILING
from solver.result import Metrics, SolveResult

SOLVER_VERSION = "1.1.0"

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
    "find_conflict",
    "is_solution",
    "normalize",
    "parse",
    "solve",
]
