"""`sudoku-batch db ...` through click's CliRunner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from db import migrate
from worker.cli import main
from worker.cli.db import db

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample.txt"


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
    result = runner.invoke(db, ["downgrade", "base", "--yes"], env=env)
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
    result = CliRunner().invoke(main, ["db", "downgrade", "nonsense", "--yes"], env=env)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["error: Can't locate revision identified by 'nonsense'"]


def downgrade_to_base(url: str, *args: str, answer: str | None = None) -> Result:
    """`db downgrade base ARGS` on a database at head; `answer`: typed at a terminal."""
    migrate.upgrade(url)
    return CliRunner().invoke(
        main, ["db", "downgrade", "base", *args], env={"SUDOKU_DATABASE_URL": url}, input=answer
    )


@pytest.fixture
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command believes a person types its input."""
    monkeypatch.setattr("worker.cli.db.at_a_terminal", lambda: True)


def test_db_downgrade_without_yes_off_a_terminal_refuses_and_changes_nothing(
    sqlite_url: str,
) -> None:
    """A script or pipe cannot confirm: exit 2, one line asking for --yes, the schema kept."""
    result = downgrade_to_base(sqlite_url)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: db downgrade drops tables and the data in them: confirm at a terminal,"
        " or pass --yes"
    ]
    assert migrate.current(sqlite_url) == migrate.head()


@pytest.mark.usefixtures("at_a_terminal")
def test_db_downgrade_asks_first_and_a_no_changes_nothing(sqlite_url: str) -> None:
    """At a terminal the user is asked, the database and the revisions named; 'n' keeps all."""
    result = downgrade_to_base(sqlite_url, answer="n\n")
    assert f"Downgrade {sqlite_url} from {migrate.head()} to base" in result.output
    assert "drops" in result.output
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "error: not confirmed: nothing was changed"
    assert migrate.current(sqlite_url) == migrate.head()


@pytest.mark.usefixtures("at_a_terminal")
def test_db_downgrade_goes_ahead_when_the_user_says_yes(sqlite_url: str) -> None:
    """'y' at the prompt: the downgrade runs."""
    result = downgrade_to_base(sqlite_url, answer="y\n")
    assert result.exit_code == 0, result.output
    assert migrate.current(sqlite_url) is None


def test_db_prune_after_delete_removes_what_no_collection_holds_on_both_databases(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`run --paths`, `delete --yes`, then `db prune --yes`: the deleted collection's puzzles,
    results and solving paths go (foreign keys and all, on SQLite and PostgreSQL); another
    collection's stay."""
    migrate.upgrade(database_url)
    monkeypatch.setenv("SUDOKU_DATABASE_URL", database_url)
    monkeypatch.setenv("SUDOKU_RATING", "fast")
    lines = [line for line in SAMPLE.read_text().splitlines() if len(line) == 81]
    (tmp_path / "q.txt").write_text("\n".join(lines[:6]) + "\n")
    (tmp_path / "kept.txt").write_text("\n".join(lines[4:8]) + "\n")
    runner = CliRunner()
    for name in ("q", "kept"):
        assert runner.invoke(main, ["run", "--paths", str(tmp_path / f"{name}.txt")]).exit_code == 0
    assert runner.invoke(main, ["delete", "q", "--yes"]).exit_code == 0
    pruned = runner.invoke(main, ["db", "prune", "--yes"])
    assert pruned.exit_code == 0, pruned.output
    assert "removed 4 puzzles no collection holds, with 4 results and 4 solving paths" in (
        pruned.output
    )
    left = runner.invoke(main, ["query", "--format", "json", "--limit", "50"])
    assert len(left.output.splitlines()) == 4


def test_db_prune_without_yes_off_a_terminal_refuses(sqlite_url: str) -> None:
    """A script cannot confirm a prune: exit 2, one line asking for --yes."""
    migrate.upgrade(sqlite_url)
    result = CliRunner().invoke(db, ["prune"], env={"SUDOKU_DATABASE_URL": sqlite_url})
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: db prune deletes results: confirm at a terminal, or pass --yes"
    ]
