"""The unit of work: solve a batch of puzzles and turn each result into a `results` row.

Pure: no Celery, no SQL. The Celery task and the embedded runner both call `solve_batch`,
so the two paths store exactly the same rows.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import solver

Row = dict[str, Any]
HOST = socket.gethostname()


def solve_batch(
    collection_id: int, puzzles: Sequence[tuple[int, str]], *, node_budget: int | None = None
) -> list[Row]:
    """Solve every `(puzzle_id, givens)` of one batch of `collection_id`; one row per puzzle."""
    budget = {} if node_budget is None else {"node_budget": node_budget}
    rows = []
    for puzzle_id, givens in puzzles:
        started = time.perf_counter()
        result = solver.solve(givens, **budget)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        rows.append(result_row(puzzle_id, result, elapsed_ms))
    return rows


def result_row(puzzle_id: int, result: solver.SolveResult, solve_ms: float) -> Row:
    """The `results` row of one solved puzzle (keys are the table's columns)."""
    metrics = result.metrics
    return {
        "puzzle_id": puzzle_id,
        "status": result.status,
        "solution": result.solution,
        "reason": result.reason,
        "solved_by_elimination": metrics.solved_by_elimination,
        "hardest_technique": metrics.hardest_technique,
        "technique_counts": dict(metrics.technique_counts),
        "recursion_depth": metrics.recursion_depth,
        "guesses": metrics.guesses,
        "backtracks": metrics.backtracks,
        "nodes": metrics.nodes,
        "difficulty": result.difficulty,
        "difficulty_score": result.difficulty_score,
        "ep": result.ep,
        "ed": result.ed,
        "solver_version": solver.SOLVER_VERSION,
        "solve_ms": round(solve_ms, 3),
        "worker_host": HOST,
        "solved_at": datetime.now(UTC),
    }
