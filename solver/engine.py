"""``solve``: check the givens, climb the ladder, search if it stalls, verify, rate."""

from __future__ import annotations

from collections.abc import Sequence

from solver import rating
from solver.board import Board
from solver.grid import Grid, check_grid, find_conflict, is_solution, parse, to_text
from solver.ladder import climb, hardest
from solver.result import Metrics, SolveResult, Status
from solver.search import Search


class SolverBug(AssertionError):
    """The solver produced a grid that fails the independent check: never returned."""


def solve(puzzle: str | Sequence[int], *, node_budget: int = 200_000) -> SolveResult:
    """Solve, prove uniqueness and rate one puzzle (text, or 81 ints with 0 for empty).

    Raises PuzzleFormatError for malformed input; every other outcome is a status.
    """
    grid = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
    text = to_text(grid)
    givens = 81 - grid.count(0)
    conflict = find_conflict(grid)
    if conflict:
        return _unrated(text, "invalid", conflict, Metrics(givens=givens))
    board = Board.from_grid(grid)
    counts = climb(board) if board.contradiction is None else {}
    logic = Metrics(
        solved_by_elimination=board.solved() and board.contradiction is None,
        hardest_technique=hardest(counts),
        technique_counts=counts,
        givens=givens,
    )
    if board.contradiction is not None:
        return _unrated(text, "unsolvable", board.contradiction, logic)
    if board.solved():
        score = rating.ladder_score(counts)
        return _solved(grid, text, tuple(board.values), logic, score, rating.label(score, False))
    return _searched(grid, text, board, logic, node_budget)


def _searched(grid: Grid, text: str, board: Board, logic: Metrics, budget: int) -> SolveResult:
    """The outcome when the ladder stalls: search from the ladder's pencil marks."""
    run = Search(node_budget=budget)
    run.run(board.masks())
    metrics = Metrics(
        solved_by_elimination=False,
        hardest_technique=logic.hardest_technique,
        technique_counts=logic.technique_counts,
        recursion_depth=run.depth,
        guesses=run.guesses,
        backtracks=run.backtracks,
        givens=logic.givens,
        nodes=run.nodes,
    )
    if run.gave_up:
        return _unrated(text, "gave_up", None, metrics)
    if not run.solutions:
        return _unrated(
            text, "unsolvable", "no solution: every branch of the search fails", metrics
        )
    for found in run.solutions:
        _verify(grid, found)
    if len(run.solutions) > 1:
        return _unrated(text, "multiple", None, metrics)
    score = rating.search_score(run.guesses)
    return _solved(grid, text, run.solutions[0], metrics, score, rating.label(score, True))


def _verify(grid: Grid, solution: Sequence[int]) -> None:
    """Raise SolverBug unless ``solution`` passes the independent check."""
    if not is_solution(grid, solution):
        raise SolverBug(f"solver produced a wrong solution for {to_text(grid)}")


def _solved(
    grid: Grid, text: str, solution: Sequence[int], metrics: Metrics, score: float, name: str
) -> SolveResult:
    """A verified ``solved`` result."""
    _verify(grid, solution)
    return SolveResult(text, "solved", to_text(solution), None, metrics, score, name)


def _unrated(text: str, status: Status, reason: str | None, metrics: Metrics) -> SolveResult:
    """A result without solution or rating (invalid, unsolvable, multiple, gave_up)."""
    return SolveResult(text, status, None, reason, metrics, None, None)
