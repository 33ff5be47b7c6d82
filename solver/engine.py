"""``solve``: check the givens, climb the ladder, search if it stalls, verify, rate.

Uniqueness is always proven, never assumed: a ladder path that used a technique assuming a
unique solution (unique rectangles and loops, BUG) is rated only after a search from the
givens has shown the solution is unique; otherwise the puzzle is reported ``multiple``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from solver import rating, work
from solver.board import Board
from solver.errors import SolverBug
from solver.grid import Grid, Mask, check_grid, find_conflict, is_solution, parse, to_text
from solver.ladder import (
    ASSUMES_UNIQUENESS,
    DEFAULT_PROFILE,
    Step,
    check_profile,
    climb_profile,
    hardest,
)
from solver.result import Metrics, SolveResult, Status
from solver.search import DEFAULT_NODE_BUDGET, Search

NO_SOLUTION = "no solution: every branch of the search fails"


def solve(
    puzzle: str | Sequence[int],
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    profile: str = DEFAULT_PROFILE,
    work_budget: int = work.DEFAULT,
) -> SolveResult:
    """Solve, prove uniqueness and rate one puzzle (text, or 81 ints with 0 for empty) on the
    ladder of the rating `profile` (solver.ladder.PROFILES), SE's chains (solver.ladder.SE_CHAINS)
    doing at most `work_budget` units of work (solver.work; 0: never tried). Beyond them the
    rating is an estimate, `over_budget` when it was the budget that ran out.

    Raises PuzzleFormatError for malformed input; every other outcome is a status.
    """
    return solve_within(puzzle, work.Budget(work_budget), node_budget=node_budget, profile=profile)


def solve_within(
    puzzle: str | Sequence[int],
    chains: work.Budget,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    profile: str = DEFAULT_PROFILE,
) -> SolveResult:
    """``solve`` with SE's chains doing what is left of ``chains`` (a batch's share of its
    budget: ``solver.backends.solve_many_timed``)."""
    if node_budget < 0:
        raise ValueError("node_budget must not be negative")
    check_profile(profile)
    floor = rating.search_floor(int(chains.on), profile)
    grid = parse(puzzle) if isinstance(puzzle, str) else check_grid(puzzle)
    text = to_text(grid)
    givens = 81 - grid.count(0)
    conflict = find_conflict(grid)
    if conflict:
        return _unrated(text, "invalid", conflict, Metrics(givens=givens))
    board = Board.from_grid(grid)
    path: list[Step] = []
    proof = Proof(grid, node_budget)
    chains.gate = proof.unique_or_unknown
    counts, stall, contradiction = climb_profile(board, profile, chains, path)
    logic = Metrics(
        solved_by_elimination=board.solved() and contradiction is None,
        hardest_technique=hardest(counts),
        technique_counts=counts,
        givens=givens,
        work=chains.used,
    )
    assumed = ASSUMES_UNIQUENESS.intersection(counts)
    if assumed and (unrated := verdict(grid, text, proof.search(), logic)) is not None:
        return unrated
    if contradiction is not None:
        return _unrated(text, "unsolvable", str(contradiction), logic)
    if board.solved():
        beyond = None if stall is None else rating.stalled_score(stall, node_budget, None, floor)
        solved = _solved(grid, text, tuple(board.values), logic, path, beyond, False)
    else:
        solved = _searched(grid, text, board, logic, path, stall, node_budget, floor)
    if chains.spent and solved.rating_exact is False:  # only a rating waits for more work
        return replace(solved, over_budget=True)
    return solved


class Proof:
    """The search that proves, from the givens, how many solutions a puzzle has (to two), made
    at most once: when a path used a rung that assumes uniqueness, and before SE's chains are
    first tried, since a puzzle without exactly one solution gets no rating they could make
    (the chains would only try every assumption in vain, seconds a puzzle)."""

    def __init__(self, grid: Grid, node_budget: int) -> None:
        self.grid, self.node_budget = grid, node_budget
        self.run: Search | None = None

    def search(self) -> Search:
        if self.run is None:
            self.run = Search(node_budget=self.node_budget)
            self.run.run(Board.from_grid(self.grid).masks())
        return self.run

    def unique_or_unknown(self) -> bool:
        """False only when the puzzle is proved to have no solution or several."""
        run = self.search()
        return run.gave_up or len(run.solutions) == 1


def verdict(grid: Grid, text: str, run: Search, metrics: Metrics) -> SolveResult | None:
    """What a finished search says: the result when the puzzle is not uniquely solvable (or
    the search gave up), None when it has exactly one solution. Every solution found has
    passed the independent check."""
    if run.gave_up:
        return _unrated(text, "gave_up", None, metrics)
    for found in run.solutions:
        _verify(grid, found)
    if not run.solutions:
        return _unrated(text, "unsolvable", NO_SOLUTION, metrics)
    if len(run.solutions) > 1:
        return _unrated(text, "multiple", None, metrics)
    return None


def _searched(
    grid: Grid,
    text: str,
    board: Board,
    logic: Metrics,
    path: list[Step],
    stall: list[Mask] | None,
    budget: int,
    floor: float,
) -> SolveResult:
    """The outcome when the ladder stalls: search from the ladder's pencil marks (``stall``:
    where the exact ladder stalled, before the chains)."""
    masks = board.masks()
    run = Search(node_budget=budget)
    run.run(masks)
    metrics = replace(
        logic,
        solved_by_elimination=False,
        recursion_depth=run.depth,
        guesses=run.guesses,
        backtracks=run.backtracks,
        nodes=run.nodes,
    )
    if (unrated := verdict(grid, text, run, metrics)) is not None:
        return unrated
    stall = stall or masks
    reuse = run.guesses if stall == masks else None
    beyond = rating.stalled_score(stall, budget, reuse, floor)
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
    exact = beyond is None
    return SolveResult(text, "solved", to_text(solution), None, metrics, score, name, ep, ed, exact)


def _unrated(text: str, status: Status, reason: str | None, metrics: Metrics) -> SolveResult:
    """A result without solution or rating (invalid, unsolvable, multiple, gave_up)."""
    return SolveResult(text, status, None, reason, metrics, None, None)
