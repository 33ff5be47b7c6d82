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
from solver.result import SOLVED

HOST = socket.gethostname()


def solve_batch(
    collection_id: int,
    puzzles: Sequence[tuple[int, str]],
    *,
    node_budget: int | None = None,
    profile: str = solver.DEFAULT_PROFILE,
    chain_budget: int = 0,
) -> list[ResultRow]:
    """Solve every `(puzzle_id, givens)` of one batch of `collection_id`, rated on `profile`
    with up to `chain_budget` steps of SE's chains a puzzle; one row per puzzle, in order. The
    solver is entered once for the whole batch; the rows share one `solved_at`."""
    budget = {} if node_budget is None else {"node_budget": node_budget}
    givens = [text for _, text in puzzles]
    timed = solver.solve_many_timed(givens, profile=profile, chain_budget=chain_budget, **budget)
    return result_rows(puzzles, timed, profile)


class Solved(NamedTuple):
    """A batch solved: its `results` rows and, when its collection keeps them, the solving
    paths of its solved puzzles."""

    rows: list[ResultRow]
    paths: list[PathRow]


def solve_work(
    work: BatchWork,
    *,
    node_budget: int | None = None,
    profile: str = solver.DEFAULT_PROFILE,
    chain_budget: int = 0,
) -> Solved:
    """`solve_batch` for one batch of work, with its paths when `work.keep_paths`."""
    rows = solve_batch(
        work.collection_id,
        work.puzzles,
        node_budget=node_budget,
        profile=profile,
        chain_budget=chain_budget,
    )
    if not work.keep_paths:
        return Solved(rows, [])
    solved = [
        (pid, givens)
        for (pid, givens), row in zip(work.puzzles, rows, strict=True)
        if row.status == SOLVED
    ]
    return Solved(rows, path_rows(solved, profile, chain_budget))


def path_rows(puzzles: Sequence[tuple[int, str]], profile: str, chain_budget: int) -> list[PathRow]:
    """The `solving_paths` rows of these `(puzzle_id, givens)`, climbed as they were rated."""
    rows = []
    for puzzle_id, givens in puzzles:
        path = solver.solving_path(givens, profile=profile, chain_budget=chain_budget)
        steps = json.dumps([step.to_dict() for step in path.steps], separators=(",", ":"))
        rows.append(PathRow(puzzle_id, steps, not path.solved, profile))
    return rows


def result_rows(
    puzzles: Sequence[tuple[int, str]],
    timed: Sequence[tuple[solver.SolveResult, float]],
    profile: str = solver.DEFAULT_PROFILE,
) -> list[ResultRow]:
    """The rows of these `(puzzle_id, givens)` and their solver results, in order, sharing one
    `solved_at`; each solved puzzle's minimality is decided here, in one call for them all."""
    solved_at = datetime.now(UTC)
    solved = [k for k, (result, _) in enumerate(timed) if result.status == SOLVED]
    givens = [puzzles[k][1] for k in solved]
    known = [timed[k][0].solution for k in solved]  # the solve proved each one unique
    minimal = dict(zip(solved, solver.minimal_many(givens, known), strict=True))
    return [
        result_row(puzzle_id, result, seconds * 1000.0, solved_at, profile, minimal.get(k))
        for k, ((puzzle_id, _), (result, seconds)) in enumerate(zip(puzzles, timed, strict=True))
    ]


def result_row(
    puzzle_id: int,
    result: solver.SolveResult,
    solve_ms: float,
    solved_at: datetime,
    profile: str = solver.DEFAULT_PROFILE,
    is_minimal: bool | None = None,
) -> ResultRow:
    """The `results` row of one puzzle (``is_minimal``: None unless it was solved)."""
    metrics = result.metrics
    return ResultRow(
        puzzle_id,
        result.status,
        result.solution,
        result.reason,
        metrics.solved_by_elimination,
        metrics.hardest_technique,
        technique_json(metrics.technique_counts),
        metrics.recursion_depth,
        metrics.guesses,
        metrics.backtracks,
        metrics.nodes,
        result.difficulty,
        result.difficulty_score,
        result.ep,
        result.ed,
        result.rating_exact,
        profile,
        is_minimal,
        solver.SOLVER_VERSION,
        round(solve_ms, 3),
        HOST,
        solved_at,
    )


def technique_json(counts: Mapping[str, int]) -> str:
    """The counts as a JSON object, written directly (a third of `json.dumps`'s time): the keys
    are the solver's snake_case technique names and the values ints, so nothing needs escaping."""
    return "{" + ",".join([f'"{name}":{times:d}' for name, times in counts.items()]) + "}"
