"""``sudoku-batch result PUZZLE...``: the stored result of puzzles, by string or receipt id."""

from __future__ import annotations

import sys
from typing import Any

import click

from db.submissions import SHOWN, Wanted, parse_receipt_id, references, results_of
from worker.cli.common import open_database, show
from worker.cli.failure import fail
from worker.cli.progress import counted
from worker.cli.tables import table
from worker.exits import EXIT_FAILED, EXIT_USAGE
from worker.files.export import write_json_lines
from worker.files.sources import pushed_puzzle

# What a table shows of each result (json shows every field of db.submissions.SHOWN).
TABLE_COLUMNS = (
    "puzzle",
    "status",
    "difficulty",
    "difficulty_score",
    "hardest_technique",
    "guesses",
    "reason",
)


def _wanted(text: str, number: int) -> Wanted:
    found = parse_receipt_id(text) or pushed_puzzle(text)
    if found is None:
        fail(
            f"argument {number} is neither a puzzle (81 cells) nor a receipt id "
            f"(TASK_ID:POSITION): {text[:90]!r}",
            EXIT_USAGE,
        )
    return found


@click.command("result")
@click.argument("items", nargs=-1, metavar="PUZZLE|RECEIPT_ID...")
@click.option(
    "--reference", help="Every string pushed with this reference (task sudoku.solve), in order."
)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table")
def result(items: tuple[str, ...], reference: str | None, fmt: str) -> None:
    """Show the stored result of each PUZZLE (its 81 cells) or RECEIPT_ID (a pushed string's
    TASK_ID:POSITION, as `Client.submit` returns), or of the strings pushed with --reference.
    Exit 1 when one has no result yet."""
    if not items and reference is None:
        raise click.UsageError("give puzzles, receipt ids or --reference")
    wanted = [_wanted(text, k) for k, text in enumerate(items, 1)]
    sessions = open_database()
    with sessions() as session:
        found: list[dict[str, Any] | None] = results_of(session, wanted)
        if reference is not None:
            found.extend(references(session, reference))
    rows = [{name: row.get(name) for name in SHOWN} for row in found if row is not None]
    if fmt == "json":
        write_json_lines(rows, SHOWN, sys.stdout)
    elif rows:
        show(table("Results", TABLE_COLUMNS, [[row.get(c) for c in TABLE_COLUMNS] for row in rows]))
    if not found:
        fail(f"nothing was pushed with reference {reference!r}", EXIT_FAILED)
    missing = len(found) - len(rows)
    if missing:
        fail(f"{counted(missing, 'item')} of {len(found):,} without a result (yet)", EXIT_FAILED)
