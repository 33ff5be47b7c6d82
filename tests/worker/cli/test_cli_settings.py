"""Each command reads the settings it uses, and only those: a bad value of another one never
stops it, a bad value of its own is named in one line (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.errors import SettingsError
from worker.exits import EXIT_USAGE
from worker.setting import Setting
from worker.settings import SETTINGS, VARIABLES

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"

GARBAGE = "garbage"  # not a number, a choice or a URL: every setting but a free name refuses it


def refuses(setting: Setting[Any], value: str) -> bool:
    """Whether the setting's reader refuses the value."""
    try:
        setting.parse(setting.variable, value)
    except SettingsError:
        return True
    return False


# The settings whose value is checked (that refuse garbage), from their declarations.
CHECKED = {setting.variable for setting in SETTINGS if refuses(setting, GARBAGE)}
DATABASE = {"SUDOKU_DATABASE_URL"}
# What each command reads: its arguments ({file}: a small puzzle file) and its settings.
COMMANDS: list[tuple[list[str], set[str]]] = [
    (
        ["solve", EASY],
        {
            "SUDOKU_SOLVER_BACKEND",
            "SUDOKU_NODE_BUDGET",
            "SUDOKU_RATING_PROFILE",
            "SUDOKU_RATING",
            "SUDOKU_DEEP_WORK_BUDGET",
        },
    ),
    (
        ["run", "{file}"],
        {
            *DATABASE,
            "SUDOKU_BATCH_SIZE",
            "SUDOKU_NODE_BUDGET",
            "SUDOKU_RATING_PROFILE",
            "SUDOKU_RATING",
            "SUDOKU_WORK_BUDGET",
            "SUDOKU_BATCH_WORK_BUDGET",
            "SUDOKU_DEEP_WORK_BUDGET",
            "SUDOKU_SOLVER_BACKEND",
        },
    ),
    (["import", "{file}"], {*DATABASE, "SUDOKU_BATCH_SIZE", "SUDOKU_BROKER_URL", "SUDOKU_QUEUE"}),
    (["status"], DATABASE),
    (["query"], DATABASE),
    (["export", "nothing"], DATABASE),
    (["report", "nothing"], DATABASE),
    (["db", "current"], DATABASE),
    (["db", "upgrade"], DATABASE),
    (["db", "downgrade", "base", "--yes"], DATABASE),
    (["result", EASY], DATABASE),
]


def invoke(args: list[str], file: Path, **env: str) -> Result:
    args = [str(file) if arg == "{file}" else arg for arg in args]
    return CliRunner().invoke(main, args, env=env, catch_exceptions=False)


@pytest.fixture
def small_file(tmp_path: Path) -> Path:
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(5)) + "\n")
    return path


def test_every_setting_but_the_queue_refuses_garbage() -> None:
    """Each SUDOKU_* variable the settings module reads checks its value, but SUDOKU_QUEUE
    (any name is a queue's), so the tests below cover each of them."""
    assert set(VARIABLES) - CHECKED == {"SUDOKU_QUEUE"}


@pytest.mark.parametrize(("args", "uses"), COMMANDS, ids=lambda v: " ".join(v)[:20])
def test_a_command_ignores_bad_values_of_settings_it_does_not_use(
    env: dict[str, str], small_file: Path, args: list[str], uses: set[str]
) -> None:
    """Every other SUDOKU_* variable holds garbage, and the command still does its work."""
    others = dict.fromkeys(CHECKED - uses, GARBAGE)
    result = invoke(args, small_file, **others)
    assert result.exit_code != EXIT_USAGE, result.output
    assert "SUDOKU_" not in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("args", "name"),
    [(args, name) for args, uses in COMMANDS for name in sorted(uses & CHECKED)],
    ids=lambda v: v if isinstance(v, str) else " ".join(v)[:20],
)
def test_a_command_names_a_bad_value_of_a_setting_it_uses(
    env: dict[str, str], small_file: Path, args: list[str], name: str
) -> None:
    """A setting the command uses, set to garbage: exit 2 and one line naming the variable."""
    result = invoke(args, small_file, **{name: GARBAGE})
    assert result.exit_code == EXIT_USAGE, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: {name}="), line


def test_a_batch_size_over_the_limit_is_blamed_on_the_variable_not_the_option(
    env: dict[str, str], small_file: Path
) -> None:
    """SUDOKU_BATCH_SIZE=20000 names the variable and the limit, not a --batch-size never given."""
    result = invoke(["run", "{file}"], small_file, SUDOKU_BATCH_SIZE="20000")
    assert result.exit_code == EXIT_USAGE
    assert result.stderr.splitlines() == [
        "error: SUDOKU_BATCH_SIZE='20000' is out of range: expected 1 to 10000"
    ]


def test_solve_takes_its_node_budget_from_the_setting(env: dict[str, str]) -> None:
    """Without --node-budget, `solve` stops where SUDOKU_NODE_BUDGET says (SE's chains off, so
    that the puzzle needs search)."""
    result = invoke(["solve", HARD, "--fast"], Path(), SUDOKU_NODE_BUDGET="3")
    assert result.exit_code == 1
    assert "gave_up: node budget exhausted after 3 nodes" in result.stderr


def test_the_solve_option_overrides_the_node_budget_setting(env: dict[str, str]) -> None:
    """--node-budget given on the command line wins over SUDOKU_NODE_BUDGET."""
    result = invoke(["solve", HARD, "--node-budget", "200000"], Path(), SUDOKU_NODE_BUDGET="3")
    assert result.exit_code == 0, result.output
