"""`sudoku-batch db ...` through click's CliRunner."""

from __future__ import annotations

from click.testing import CliRunner

from db import migrate
from worker.cli import main
from worker.cli.db import db


def test_db_upgrade_migrates_the_database_of_the_environment(database_url: str) -> None:
    """`db upgrade` takes SUDOKU_DATABASE_URL and brings it to head; `db current` agrees."""
    runner = CliRunner()
    env = {"SUDOKU_DATABASE_URL": database_url}
    result = runner.invoke(db, ["upgrade"], env=env)
    assert result.exit_code == 0, result.output
    assert migrate.current(database_url) == migrate.head()
    current = runner.invoke(db, ["current"], env=env)
    assert "up to date" in current.output


def test_db_downgrade_to_base_empties_the_schema(sqlite_url: str) -> None:
    """`db downgrade base` undoes every revision."""
    runner = CliRunner()
    env = {"SUDOKU_DATABASE_URL": sqlite_url}
    assert runner.invoke(db, ["upgrade"], env=env).exit_code == 0
    result = runner.invoke(db, ["downgrade", "base"], env=env)
    assert result.exit_code == 0, result.output
    assert migrate.current(sqlite_url) is None


def test_db_upgrade_reports_an_unreachable_database_without_its_password() -> None:
    """A database that cannot be reached gives a one-line error with the URL masked."""
    url = "postgresql://sudoku:s3cret@127.0.0.1:1/nowhere"
    result = CliRunner().invoke(main, ["db", "upgrade"], env={"SUDOKU_DATABASE_URL": url})
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: cannot reach postgresql://sudoku:***@127.0.0.1:1/nowhere: ")
    assert "s3cret" not in result.output


def test_db_downgrade_to_an_unknown_revision_is_one_line(sqlite_url: str) -> None:
    """A revision Alembic does not know is named in one error line, exit 1, no traceback."""
    env = {"SUDOKU_DATABASE_URL": sqlite_url}
    result = CliRunner().invoke(main, ["db", "downgrade", "nonsense"], env=env)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["error: Can't locate revision identified by 'nonsense'"]
