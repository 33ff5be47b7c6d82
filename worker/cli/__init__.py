"""The `sudoku-batch` command line: one click group, one module per group of commands.

Errors end a command in one place (`worker.cli.exits`): one line, the documented exit code.
"""

from __future__ import annotations

import logging

import click

from worker.cli.db import db
from worker.cli.exits import Commands
from worker.cli.pipeline import import_, run, worker
from worker.cli.results import export, query, report, status
from worker.cli.solve import solve


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", is_flag=True, help="Log at INFO level (URLs are masked).")
@click.version_option(package_name="sudoku-batch")
def main(verbose: bool) -> None:
    """Solve and rate Sudoku puzzles in bulk; store and query the results in SQL."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


for command in (solve, run, import_, worker, status, query, export, report, db):
    main.add_command(command)
