"""The unit of work: solve a batch of puzzles and turn each result into a `results` row.

Pure: no Celery, no SQL. The Celery task and the embedded runner both call `solve_batch`,
so the two paths store exactly the same rows.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import NamedTuple

import solver
from db.imports import BatchWork
from db.paths import PathRow
from db.results import ResultRow
from db.tiers import DEFAULT_PLAN, IMPORT, RatingPlan, rating_state
from solver.result import SOLVED

HOST = socket.gethostname()


def solve_batch(
    collection_id: int,
    puzzles: Sequence[tuple[int, str]],
    *,
    node_budget: int | None = None,
    plan: RatingPlan = DEFAULT_PLAN,
    kind: str = IMPORT,
) -> list[ResultRow]:
    """Solve every `(puzzle_id, givens)` of one batch of `collection_id` (a batch of `kind`),
    rated as `plan` rates that kind; one row per puzzle, in order. The solver is entered once
    for the whole batch; the rows share one `solved_at`."""
    return result_rows(puzzles, solve_timed(puzzles, node_budget, plan, kind), plan, kind)


def solve_timed(
    puzzles: Sequence[tuple[int, str]],
    node_budget: int | None,
    plan: RatingPlan,
    kind: str = IMPORT,
) -> list[tuple[solver.SolveResult, float]]:
    """The solver's results for these `(puzzle_id, givens)`, within the budgets of `plan` for a
    batch of `kind`, with the seconds each took."""
    budget = {} if node_budget is None else {"node_budget": node_budget}
    work_budget, batch_budget = plan.budgets(kind)
    return solver.solve_many_timed(
        [text for _, text in puzzles],
        profile=plan.profile,
        work_budget=work_budget,
        batch_budget=batch_budget,
        **budget,
    )


class Solved(NamedTuple):
    """A batch solved: its `results` rows and, when its collection keeps them, the solving
    paths of its solved puzzles."""

    rows: list[ResultRow]
    paths: list[PathRow]


def solve_work(
    work: BatchWork,
    *,
    node_budget: int | None = None,
    plan: RatingPlan = DEFAULT_PLAN,
) -> Solved:
    """`solve_batch` for one batch of work, with its paths when `work.keep_paths`."""
    timed = solve_timed(work.puzzles, node_budget, plan, work.kind)
    rows = result_rows(work.puzzles, timed, plan, work.kind)
    if not work.keep_paths:
        return Solved(rows, [])
    work_budget, _ = plan.budgets(work.kind)
    solved = [
        # climbed within what the puzzle was given: a batch's budget may have given it less
        (pid, givens, result.metrics.work if result.over_budget else work_budget)
        for (pid, givens), (result, _) in zip(work.puzzles, timed, strict=True)
        if result.status == SOLVED
    ]
    return Solved(rows, path_rows(solved, plan.profile))


def path_rows(puzzles: Sequence[tuple[int, str, int]], profile: str) -> list[PathRow]:
    """The `solving_paths` rows of these `(puzzle_id, givens, work budget)`, climbed as they
    were rated."""
    rows = []
    for puzzle_id, givens, work_budget in puzzles:
        path = solver.solving_path(givens, profile=profile, work_budget=work_budget)
        steps = json.dumps([step.to_dict() for step in path.steps], separators=(",", ":"))
        rows.append(PathRow(puzzle_id, steps, not path.solved, profile))
    return rows


def result_rows(
    puzzles: Sequence[tuple[int, str]],
    timed: Sequence[tuple[solver.SolveResult, float]],
    plan: RatingPlan = DEFAULT_PLAN,
    kind: str = IMPORT,
) -> list[ResultRow]:
    """The rows of these `(puzzle_id, givens)` and their solver results (rated as `plan` rates a
    batch of `kind`), in order, sharing one `solved_at`; each solved puzzle's minimality is
    decided here, in one call for them all."""
    tier = plan.tier(kind)
    solved_at = datetime.now(UTC)
    solved = [k for k, (result, _) in enumerate(timed) if result.status == SOLVED]
    givens = [puzzles[k][1] for k in solved]
    known = [timed[k][0].solution for k in solved]  # the solve proved each one unique
    minimal = dict(zip(solved, solver.minimal_many(givens, known), strict=True))
    rated = (plan.profile, tier)
    return [
        result_row(puzzle_id, result, seconds * 1000.0, solved_at, rated, minimal.get(k))
        for k, ((puzzle_id, _), (result, seconds)) in enumerate(zip(puzzles, timed, strict=True))
    ]


def result_row(
    puzzle_id: int,
    result: solver.SolveResult,
    solve_ms: float,
    solved_at: datetime,
    rated: tuple[str, str],
    is_minimal: bool | None = None,
) -> ResultRow:
    """The `results` row of one puzzle, `rated` on (profile, tier) (``is_minimal``: None unless
    it was solved)."""
    profile, tier = rated
    metrics = result.metrics
    return ResultRow(
        puzzle_id=puzzle_id,
        status=result.status,
        solution=result.solution,
        reason=result.reason,
        solved_by_elimination=metrics.solved_by_elimination,
        hardest_technique=metrics.hardest_technique,
        technique_counts=technique_json(metrics.technique_counts),
        recursion_depth=metrics.recursion_depth,
        guesses=metrics.guesses,
        backtracks=metrics.backtracks,
        nodes=metrics.nodes,
        difficulty=result.difficulty,
        difficulty_score=result.difficulty_score,
        ep=result.ep,
        ed=result.ed,
        rating_state=rating_state(result, tier),
        rating_tier=tier,
        rating_profile=profile,
        is_minimal=is_minimal,
        solver_version=solver.SOLVER_VERSION,
        solve_ms=round(solve_ms, 3),
        worker_host=HOST,
        solved_at=solved_at,
    )


def technique_json(counts: Mapping[str, int]) -> str:
    """The counts as a JSON object, written directly (a third of `json.dumps`'s time): the keys
    are the solver's snake_case technique names and the values ints, so nothing needs escaping."""
    return "{" + ",".join([f'"{name}":{times:d}' for name, times in counts.items()]) + "}"
