"""``sudoku-batch explain PUZZLE``: the ladder's steps on one puzzle, as Sudoku Explainer's
``hints`` prints them, or as JSON."""

from __future__ import annotations

import json
from typing import Any

import click

import solver
from solver.grid import cell_name
from solver.result import SOLVED
from worker import settings
from worker.cli.failure import fail
from worker.cli.solve import (
    FAST,
    NODE_BUDGET,
    PROFILE,
    WORK_BUDGET,
    budget_of,
    failure,
    rating_line,
    read_puzzle,
)
from worker.exits import EXIT_FAILED

# What `--json` adds to the path from `solve`'s result: the outcome and the rating.
RESULT_FIELDS = (
    "status",
    "reason",
    "solution",
    "difficulty_score",
    "difficulty",
    "ep",
    "ed",
    "rating_exact",
    "over_budget",
)


def hint(step: solver.PathStep) -> str:
    """One step as SE's hints: value, technique (marked when its rung is rated by estimate),
    then ``rNcM=D`` placed, ``rNcM<>D`` removed."""
    placed = [f"{cell_name(i)}={d}" for i, d in step.placed]
    removed = [f"{cell_name(i)}<>{d}" for i, d in step.removed]
    technique = f"{step.technique} (estimated)" if step.estimated else step.technique
    return f"{step.value:.1f}, {technique}: {', '.join(placed + removed)}"


def hints(path: solver.SolvingPath, result: solver.SolveResult) -> list[str]:
    """One line per step; then, if the ladder stopped early, why (and the solution, when the
    puzzle has exactly one); last, the rating as `solve` reports it."""
    lines = [hint(step) for step in path.steps]
    if path.contradiction is not None:
        lines.append(f"contradiction: {path.contradiction}")
    elif path.stalled:
        cells = ", ".join(cell_name(i) for i in path.stalled)
        why = " (SE's chains spent their work budget)" if path.over_budget else ""
        lines.append(f"stalled: the ladder leaves {len(path.stalled)} empty cells{why}: {cells}")
        if result.solution:
            lines.append(f"solution (by search): {result.solution}")
    elif path.over_budget:
        lines.append("SE's chains spent their work budget: the steps after that are estimated")
    rated = result.difficulty_score is not None
    lines.append(rating_line(result, path.work_budget) if rated else "not rated")
    return lines


def document(path: solver.SolvingPath, result: solver.SolveResult) -> dict[str, Any]:
    """The JSON document: the puzzle, profile and work budget, `solve`'s outcome and rating,
    where the ladder stopped, and the steps."""
    shown = path.to_dict()
    steps = shown.pop("steps")
    rated = result.to_dict()
    return {**shown, **{name: rated[name] for name in RESULT_FIELDS}, "steps": steps}


@click.command()
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="Print the path and rating as JSON.")
@NODE_BUDGET
@PROFILE
@FAST
@WORK_BUDGET
def explain(
    puzzle: str, as_json: bool, node_budget: int, profile: str, fast: bool, work_budget: int
) -> None:
    """Show the steps that solve PUZZLE, easiest technique first, one line each as Sudoku
    Explainer's hints (value, technique, rNcM=D placed, rNcM<>D removed), then the rating.
    PUZZLE is read as `solve` reads it ('-': standard input).

    Exit status: as `solve`'s (0 solved, 1 invalid/unsolvable/multiple/gave_up, 2 malformed).
    """
    settings.use_solver_backend()
    text = read_puzzle(puzzle)
    budget = budget_of(fast, work_budget)
    # or PuzzleFormatError
    result = solver.solve(text, node_budget=node_budget, profile=profile, work_budget=budget)
    path = solver.solving_path(text, profile=profile, work_budget=budget)
    if as_json:
        click.echo(json.dumps(document(path, result), indent=2))
    else:
        click.echo("\n".join(hints(path, result)))
    if result.status != SOLVED:
        fail(failure(result), EXIT_FAILED)
