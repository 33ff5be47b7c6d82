"""The `sudoku-batch` command line: one click group, one module per group of commands, and
what a person sees in a terminal or a browser (`progress`, `tables`, `grids`, `report`,
`browser`).

A command's module is imported only when that command runs or shows its own help, so
`sudoku-batch --help` loads neither SQLAlchemy, Alembic nor Celery. Errors end a command in
one place (`worker.cli.failure`): one line, the documented exit code (`worker.exits`).
"""

from __future__ import annotations

import logging
from importlib import import_module

import click

from worker.cli.failure import Commands

# Each command: where it is defined, and its line in `sudoku-batch --help`.
COMMANDS = {
    "run": ("worker.cli.pipeline:run", "Import FILES and solve them here (no servers)."),
    "import": ("worker.cli.pipeline:import_", "Import FILES and queue them for the workers."),
    "rerate": ("worker.cli.rerate:rerate", "Rate stored puzzles again with today's settings."),
    "worker": ("worker.cli.worker:worker", "Start a Celery worker (celery worker options)."),
    "queue": ("worker.cli.queue:queue", "Show (or purge) the batches waiting in the queues."),
    "status": ("worker.cli.results:status", "Progress and difficulties per collection."),
    "query": ("worker.cli.results:query", "Find results by difficulty, status, effort."),
    "export": ("worker.cli.results:export", "Write a collection's results as CSV/JSON/Parquet."),
    "report": ("worker.cli.results:report", "Draw a collection's difficulty figure (PNG)."),
    "browse": ("worker.cli.browse:browse", "Browse the results in a web browser (Datasette)."),
    "solve": ("worker.cli.solve:solve", "Solve and rate one puzzle."),
    "explain": ("worker.cli.explain:explain", "Show the steps that solve one puzzle."),
    "result": ("worker.cli.lookup:result", "Show stored results by puzzle or receipt id."),
    "delete": ("worker.cli.delete:delete", "Delete a collection (asks first)."),
    "db": ("worker.cli.db:db", "Create and migrate the database schema."),
}


class Main(Commands):
    """The group: lists the commands from `COMMANDS`, imports one when it is invoked."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, _, name = COMMANDS[cmd_name][0].partition(":")
        command: click.Command = getattr(import_module(module), name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in COMMANDS.items()])


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`--version`: the package's version and the solver's, each said for what it is."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from solver import SOLVER_VERSION

    click.echo(
        f"sudoku-batch {version('sudoku-batch')} (the package: commands, storage, workers)\n"
        f"solver {SOLVER_VERSION} (how puzzles are solved and rated: stored with each result "
        "as solver_version; `sudoku-batch rerate --because version` rates again those of "
        "another)"
    )
    ctx.exit()


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", is_flag=True, help="Log at INFO level (URLs are masked).")
@click.option(
    "--version",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_version,
    help="Show the package's version and the solver's, and exit.",
)
def main(verbose: bool) -> None:
    """Solve and rate Sudoku puzzles in bulk; store and query the results in SQL."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
