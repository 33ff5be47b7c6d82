"""``solve``: check the givens, climb the ladder, search if it stalls, verify, rate.

Uniqueness is always proven, never assumed: a ladder path that used a technique assuming a
unique solution (unique rectangle, BUG) is rated only after a search from the givens has shown
the solution is unique; otherwise the puzzle is reported ``multiple``.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver import rating
from solver.board import Board
from solver.errors import SolverBug
from solver.grid import Grid, check_grid, find_conflict, is_solution, parse, to_text
from solver.ladder import ASSUMES_UNIQUENESS, EXACT_LADDER, Step, climb, hardest, merge
from solver.result import Metrics, SolveResult, Status
from solver.search import DEFAULT_NODE_BUDGET, Search


def solve(puzzle: str | Sequence[int], *, node_budget: int = DEFAULT_NODE_BUDGET) -> SolveResult:
    """Solve, prove uniqueness and rate one puzzle (text, or 81 ints with 0 for empty).

    Raises PuzzleFormatError for malformed input; every other outcome is a status.
    """
    if node_budget < 0:
        raise ValueError("node_budget must not be negative")
    grid = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
    text = to_text(grid)
    givens = 81 - grid.count(0)
    conflict = find_conflict(grid)
    if conflict:
        return _unrated(text, "invalid", conflict, Metrics(givens=givens))
    board = Board.from_grid(grid)
    path: list[Step] = []
    counts, stall = _climb(board, path)
    logic = Metrics(
        solved_by_elimination=board.solved() and board.contradiction is None,
        hardest_technique=hardest(counts),
        technique_counts=counts,
        givens=givens,
    )
    if ASSUMES_UNIQUENESS.intersection(counts):
        proof = _unique_proof(grid, text, logic, node_budget)
        if proof is not None:
            return proof
    if board.contradiction is not None:
        return _unrated(text, "unsolvable", board.contradiction, logic)
    if board.solved():
        beyond = None if stall is None else rating.stalled_score(stall, node_budget)
        return _solved(grid, text, tuple(board.values), logic, path, beyond, False)
    return _searched(grid, text, board, logic, path, stall, node_budget)


def _climb(board: Board, path: list[Step]) -> tuple[dict[str, int], list[int] | None]:
    """Climb the exact ladder, then the whole ladder (chains) if it stalls. Returns the
    technique counts and the pencil marks where the exact ladder stalled (None if it did not)."""
    if board.contradiction is not None:
        return {}, None
    counts = climb(board, EXACT_LADDER, path)
    if board.solved() or board.contradiction is not None:
        return counts, None
    stall = board.masks()
    return merge(counts, climb(board, path=path)), stall


def _unique_proof(grid: Grid, text: str, logic: Metrics, budget: int) -> SolveResult | None:
    """Search from the givens: the final result if the puzzle is not uniquely solvable (or
    the search gives up), None when it has exactly one solution (the path may stand)."""
    run = Search(node_budget=budget)
    run.run(Board.from_grid(grid).masks())
    if run.gave_up:
        return _unrated(text, "gave_up", None, logic)
    if not run.solutions:
        return _unrated(text, "unsolvable", "no solution: every branch of the search fails", logic)
    for found in run.solutions:
        _verify(grid, found)
    if len(run.solutions) > 1:
        return _unrated(text, "multiple", None, logic)
    return None


def _searched(
    grid: Grid,
    text: str,
    board: Board,
    logic: Metrics,
    path: list[Step],
    stall: list[int] | None,
    budget: int,
) -> SolveResult:
    """The outcome when the ladder stalls: search from the ladder's pencil marks (``stall``:
    where the exact ladder stalled, before the chains)."""
    masks = board.masks()
    run = Search(node_budget=budget)
    run.run(masks)
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
    stall = stall or masks
    reuse = run.guesses if stall == masks else None
    beyond = rating.stalled_score(stall, budget, reuse)
    return _solved(grid, text, run.solutions[0], metrics, path, beyond, True)


def _verify(grid: Grid, solution: Sequence[int]) -> None:
    """Raise SolverBug unless ``solution`` passes the independent check."""
    if not is_solution(grid, solution):
        raise SolverBug(f"solver produced a wrong solution for {to_text(grid)}")


def _solved(
    grid: Grid,
    text: str,
    solution: Sequence[int],
    metrics: Metrics,
    path: list[Step],
    beyond: float | None,
    searched: bool,
) -> SolveResult:
    """A verified ``solved`` result, rated from its path and the estimate beyond the ladder."""
    _verify(grid, solution)
    score, ep, ed = rating.rate(path, beyond)
    name = rating.label(score, searched)
    return SolveResult(text, "solved", to_text(solution), None, metrics, score, name, ep, ed)


def _unrated(text: str, status: Status, reason: str | None, metrics: Metrics) -> SolveResult:
    """A result without solution or rating (invalid, unsolvable, multiple, gave_up)."""
    return SolveResult(text, status, None, reason, metrics, None, None)
