"""``sudoku-batch solve PUZZLE``: solve and rate one puzzle, shown as boxed grids or JSON."""

from __future__ import annotations

import json
import sys

import click

import solver
from solver.errors import PuzzleFormatError
from worker import settings
from worker.cli.failure import fail
from worker.cli.grids import boxed, side_by_side
from worker.exits import EXIT_FAILED

STDIN_LIMIT = 1 << 16  # bytes of standard input `solve -` reads: one puzzle, with comments


def rating_line(result: solver.SolveResult, work_budget: int) -> str:
    """ER, EP and ED, and whether they are Sudoku Explainer's values or an estimate, and why
    (SE's chains off, their work budget spent, or beyond the exact ladder)."""
    if result.difficulty_score is None:
        return "-"
    if result.rating_exact:
        how = "SE values of the path"
    elif result.over_budget:
        how = (
            f"estimated: SE's chains spent their work budget ({work_budget:,} units) "
            "before they rated it; a larger --work-budget may make it exact"
        )
    elif work_budget == 0:
        how = "estimated: SE's chains were not tried (--fast)"
    else:
        how = "estimated beyond the exact ladder"
    return f"ER {result.difficulty_score:.1f}, EP {result.ep:.1f}, ED {result.ed:.1f} ({how})"


def describe(result: solver.SolveResult, work_budget: int) -> str:
    """The status, rating and metrics as aligned 'name: value' lines."""
    m = result.metrics
    counts = ", ".join(f"{name} {n}" for name, n in m.technique_counts.items()) or "none"
    score = "-" if result.difficulty_score is None else f"{result.difficulty_score:.2f}"
    rows = [
        ("status", result.status),
        ("difficulty", f"{result.difficulty or '-'} ({score})"),
        ("rating", rating_line(result, work_budget)),
        ("solved by elimination", "yes" if m.solved_by_elimination else "no"),
        ("hardest technique", m.hardest_technique or "-"),
        ("techniques", counts),
        ("givens", str(m.givens)),
        (
            "search",
            f"{m.guesses} guesses, {m.backtracks} backtracks, depth "
            f"{m.recursion_depth}, {m.nodes} nodes",
        ),
        ("work", f"{m.work:,} units of SE's chains"),
    ]
    return "\n".join(f"{name:>22}: {value}" for name, value in rows)


def failure(result: solver.SolveResult) -> str:
    """Why a result is not a unique solution, for the error line."""
    if result.reason:
        return f"{result.status}: {result.reason}"
    if result.status == "multiple":
        return "multiple: the puzzle has more than one solution"
    return f"gave_up: node budget exhausted after {result.metrics.nodes} nodes"


def stdin_puzzle(data: bytes) -> str:
    """The one puzzle of standard input: its only line, or a grid printed on nine rows (`|`,
    spaces and ruling lines such as `---+---+---` ignored). Blank lines and `#` comments are
    skipped; anything else is a `PuzzleFormatError` saying what was found."""
    from worker.files.sources import is_ruling, row_cells

    if len(data) > STDIN_LIMIT:
        raise PuzzleFormatError(
            f"standard input holds over {STDIN_LIMIT:,} bytes: solve takes one puzzle "
            "(`sudoku-batch run -` imports a collection)"
        )
    text = data.decode("utf-8", "replace")
    lines = [line for line in text.splitlines() if line.strip() and line.strip()[0] != "#"]
    if len(lines) <= 1:
        return lines[0] if lines else ""
    rows = [row_cells(line) for line in lines if not is_ruling(line)]
    if len(rows) != 9 or any(len(row) != 9 for row in rows):
        raise PuzzleFormatError(
            f"standard input holds {len(lines)} lines: give one puzzle, on one line or printed "
            "as nine rows of nine cells (`sudoku-batch run -` imports a collection)"
        )
    return "".join(cell for row in rows for cell, _ in row)


# The options `solve` shares with `explain`, defined once.
NODE_BUDGET = click.option(
    "--node-budget",
    default=settings.node_budget,  # read only when the option is not given
    show_default=f"SUDOKU_NODE_BUDGET or {solver.DEFAULT_NODE_BUDGET:,}",
    type=click.IntRange(min=1),
    help="Search nodes allowed before giving up.",
)
PROFILE = click.option(
    "--profile",
    type=click.Choice(solver.PROFILES),
    default=settings.rating_profile,  # read only when the option is not given
    show_default=f"SUDOKU_RATING_PROFILE or {solver.DEFAULT_PROFILE}",
    help="The ladder to rate on: classic (Sudoku Explainer) or sukaku (SukakuExplainer).",
)


def _alone_budget() -> int:
    """The work budget of a puzzle rated alone: the deep tier's (0 with SUDOKU_RATING=fast)."""
    deep = settings.deep_work_budget()
    return deep if settings.rating_mode() == "exact" else 0


WORK_BUDGET = click.option(
    "--work-budget",
    default=_alone_budget,  # read only when the option is not given
    show_default=f"SUDOKU_DEEP_WORK_BUDGET or {solver.work.DEEP:,}; 0 with SUDOKU_RATING=fast",
    type=click.IntRange(0, solver.work.MAX_BUDGET),
    help="Work Sudoku Explainer's chains may do for an exact rating, in units of about a "
    "microsecond (0: never tried; past it the rating is an estimate).",
)
FAST = click.option(
    "--fast",
    is_flag=True,
    help="Rate fast: Sudoku Explainer's chains are never tried, so ratings past 6.2 (aligned "
    "pair exclusion) are estimates (--work-budget 0).",
)


def budget_of(fast: bool, work_budget: int) -> int:
    """The work budget the options ask for (`--fast` is 0)."""
    return 0 if fast else work_budget


def read_puzzle(puzzle: str) -> str:
    """The PUZZLE argument: as given, or for '-' the one puzzle of standard input."""
    if puzzle == "-":
        return stdin_puzzle(sys.stdin.buffer.read(STDIN_LIMIT + 1))
    return puzzle


@click.command()
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@NODE_BUDGET
@PROFILE
@FAST
@WORK_BUDGET
def solve(
    puzzle: str, as_json: bool, node_budget: int, profile: str, fast: bool, work_budget: int
) -> None:
    """Solve and rate PUZZLE (81 cells in one line; '-' reads standard input: one line, or
    a grid printed on nine rows). The rating is Sudoku Explainer's own unless it needs more
    than --work-budget (or --fast).

    Exit status: 0 solved, 1 invalid/unsolvable/multiple/gave_up, 2 malformed puzzle.
    """
    settings.use_solver_backend()
    budget = budget_of(fast, work_budget)
    # or PuzzleFormatError
    result = solver.solve(
        read_puzzle(puzzle), node_budget=node_budget, profile=profile, work_budget=budget
    )
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    elif result.solution:
        click.echo(side_by_side(boxed(result.puzzle), boxed(result.solution)))
        click.echo(describe(result, budget))
    else:  # no solution to show: the givens alone, and why
        click.echo("\n".join(boxed(result.puzzle)))
        click.echo(f"{'solution':>22}: none ({failure(result)})")
        click.echo(describe(result, budget))
    if result.status != "solved":
        fail(failure(result), EXIT_FAILED)
