"""The unit of work: solve a batch of puzzles and turn each result into a `results` row.

Pure: no Celery, no SQL. The Celery task and the embedded runner both call `solve_batch`,
so the two paths store exactly the same rows.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

import solver
from db.results import ResultRow

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
    solved_at = datetime.now(UTC)
    return [
        result_row(puzzle_id, result, seconds * 1000.0, solved_at, profile)
        for (puzzle_id, _), (result, seconds) in zip(puzzles, timed, strict=True)
    ]


def result_row(
    puzzle_id: int,
    result: solver.SolveResult,
    solve_ms: float,
    solved_at: datetime,
    profile: str = solver.DEFAULT_PROFILE,
) -> ResultRow:
    """The `results` row of one solved puzzle."""
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
        solver.SOLVER_VERSION,
        round(solve_ms, 3),
        HOST,
        solved_at,
    )


def technique_json(counts: Mapping[str, int]) -> str:
    """The counts as a JSON object, written directly (a third of `json.dumps`'s time): the keys
    are the solver's snake_case technique names and the values ints, so nothing needs escaping."""
    return "{" + ",".join([f'"{name}":{times:d}' for name, times in counts.items()]) + "}"
