"""`sudoku-batch --help` lists every command without importing the heavy libraries."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from tests.conftest import ROOT
from worker.cli import COMMANDS, main

HEAVY = ("sqlalchemy", "alembic", "celery", "kombu", "psycopg", "redis", "rich")
LOADED = """
import sys
from worker.cli import main
try:
    main([*sys.argv[1:]], prog_name="sudoku-batch")
except SystemExit:
    pass
print(*sorted({name.partition(".")[0] for name in sys.modules}), file=sys.stderr)
"""


def top_level_modules_after(*args: str) -> set[str]:
    """The top-level modules a fresh `sudoku-batch ARGS` process has imported when it exits."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(done.stderr.split())


@pytest.mark.parametrize("args", [("--help",), ("--version",), ()])
def test_the_command_list_imports_no_database_broker_or_console_library(
    args: tuple[str, ...],
) -> None:
    """Listing the commands stays fast: SQLAlchemy, Alembic, Celery and rich are not loaded."""
    assert top_level_modules_after(*args).isdisjoint(HEAVY)


def test_the_help_lists_every_command_with_its_summary() -> None:
    """Each command appears in `--help` with its one-line summary, in the listed order."""
    shown = main.get_help(click.Context(main, info_name="sudoku-batch"))
    positions = [shown.index(f"  {name} ") for name in COMMANDS]
    assert positions == sorted(positions)
    for _path, summary in COMMANDS.values():
        assert summary in shown


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_listed_command_is_the_command_of_that_name(name: str) -> None:
    """The table points at a real click command that calls itself by the listed name."""
    command = main.get_command(click.Context(main), name)
    assert isinstance(command, click.Command)
    assert command.name == name


def test_the_version_names_the_package_and_the_solver_each_for_what_it_is() -> None:
    """`--version` gives the package's version and the solver's (the one stored with each
    result), each saying which is which: they differ, and a user must not mistake one for
    the other."""
    from importlib.metadata import version

    import solver

    shown = CliRunner().invoke(main, ["--version"]).output.splitlines()
    assert shown[0].startswith(f"sudoku-batch {version('sudoku-batch')} (the package")
    assert shown[1].startswith(f"solver {solver.SOLVER_VERSION} (")
    assert "solver_version" in shown[1]
