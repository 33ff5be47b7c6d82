"""A database that is misconfigured, away or not migrated: every command that uses it says
so in one line naming the database (password masked), with the documented exit code, fast."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.conftest import POSTGRES_ADMIN_URL, missing
from tests.integration.services import free_port
from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.exits import EXIT_FAILED, EXIT_USAGE

SERVER = POSTGRES_ADMIN_URL.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0]
FAST = 10  # seconds: an error a user waits for longer than this is a hang to them

# Every command that opens the database ({file}: a small puzzle file).
COMMANDS = [
    ["run", "{file}"],
    ["import", "{file}"],
    ["import", "--wait", "{file}"],
    ["status"],
    ["query"],
    ["export", "few"],
    ["report", "few"],
    ["db", "current"],
    ["db", "upgrade"],
    ["db", "downgrade", "base", "--yes"],
]
COMMAND_IDS = [" ".join(arg for arg in args if arg != "{file}") for args in COMMANDS]


def invoke(args: list[str], file: Path, url: str) -> tuple[Result, float]:
    """Run one command on the database at `url`; the result and the seconds it took."""
    args = [str(file) if arg == "{file}" else arg for arg in args]
    started = time.monotonic()
    result = CliRunner().invoke(main, args, env={"SUDOKU_DATABASE_URL": url})
    return result, time.monotonic() - started


def error_line(result: Result, took: float) -> str:
    """The one line on stderr, `error: ...`, written within FAST seconds, no traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), lines[0]
    assert took < FAST, f"took {took:.1f} s"
    return lines[0]


@pytest.fixture
def file(tmp_path: Path) -> Path:
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(5)) + "\n")
    return path


@pytest.fixture
def postgres_server() -> str:
    """The local PostgreSQL server's URL without a database (skip/fail when it is down)."""
    import psycopg

    try:
        psycopg.connect(f"{SERVER}/postgres", connect_timeout=3).close()
    except psycopg.OperationalError as exc:
        missing(f"PostgreSQL is not reachable at {SERVER}: {exc}")
    return SERVER


@pytest.mark.parametrize("args", COMMANDS, ids=COMMAND_IDS)
def test_a_postgresql_port_where_nothing_listens_is_named(
    env: dict[str, str], file: Path, args: list[str]
) -> None:
    """A wrong port: exit 1, the URL with its password masked, the driver's reason."""
    url = f"postgresql://sudoku:s3cret@127.0.0.1:{free_port()}/sudoku"
    result, took = invoke(args, file, url)
    line = error_line(result, took)
    assert result.exit_code == EXIT_FAILED
    assert f"cannot reach {url.replace('s3cret', '***')}: " in line
    assert "Connection refused" in line
    assert "s3cret" not in result.output


@pytest.mark.parametrize("args", COMMANDS, ids=COMMAND_IDS)
def test_a_postgresql_host_that_does_not_resolve_is_named(
    env: dict[str, str], file: Path, args: list[str]
) -> None:
    """A bad host name: exit 1, the URL and the resolver's complaint."""
    url = "postgresql://sudoku@nosuchhost.invalid:5432/sudoku"
    result, took = invoke(args, file, url)
    line = error_line(result, took)
    assert result.exit_code == EXIT_FAILED
    assert f"cannot reach {url}: " in line
    assert "nosuchhost.invalid" in line


@pytest.mark.parametrize("args", COMMANDS, ids=COMMAND_IDS)
def test_a_postgresql_database_that_does_not_exist_is_named_with_what_to_do(
    env: dict[str, str], postgres_server: str, file: Path, args: list[str]
) -> None:
    """A database never created: exit 1, its name, and that it must be created first."""
    name = f"sudoku_missing_{uuid.uuid4().hex[:8]}"
    url = f"{postgres_server}/{name}"
    result, took = invoke(args, file, url)
    line = error_line(result, took)
    assert result.exit_code == EXIT_FAILED
    assert f"cannot reach {url}: " in line
    assert f'database "{name}" does not exist' in line
    assert f'create it (CREATE DATABASE "{name}")' in line


@pytest.mark.parametrize(
    "args", [args for args in COMMANDS if args[0] != "db"], ids=COMMAND_IDS[:-3]
)
def test_a_postgresql_database_never_migrated_asks_for_db_upgrade(
    env: dict[str, str], postgres_url: str, file: Path, args: list[str]
) -> None:
    """The first mistake on PostgreSQL, no `db upgrade`: exit 1 and the command to run."""
    result, took = invoke(args, file, postgres_url)
    line = error_line(result, took)
    assert result.exit_code == EXIT_FAILED
    shown = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    assert f"error: the database {shown} is not migrated" in line
    assert "run `sudoku-batch db upgrade`" in line


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("notaurl", "not a database URL"),
        ("mysql://sudoku:***@127.0.0.1/sudoku", "mysql:// is not supported"),
    ],
)
@pytest.mark.parametrize("args", COMMANDS, ids=COMMAND_IDS)
def test_a_url_that_is_no_database_of_ours_is_a_usage_error(
    env: dict[str, str], file: Path, args: list[str], url: str, problem: str
) -> None:
    """Not a URL, or MySQL: exit 2, the variable named, the two forms it takes."""
    result, took = invoke(args, file, url.replace("***", "s3cret"))
    line = error_line(result, took)
    assert result.exit_code == EXIT_USAGE
    assert line.startswith(f"error: SUDOKU_DATABASE_URL='{url}': {problem}: expected sqlite:///")


@pytest.mark.parametrize("args", COMMANDS, ids=COMMAND_IDS)
def test_a_sqlite_file_in_a_missing_folder_names_the_folder(
    env: dict[str, str], file: Path, tmp_path: Path, args: list[str]
) -> None:
    """sqlite:///no/such/dir/x.db: exit 1 and which folder is missing."""
    folder = tmp_path / "no" / "such"
    result, took = invoke(args, file, f"sqlite:///{folder}/x.db")
    line = error_line(result, took)
    assert result.exit_code == EXIT_FAILED
    assert line == f"error: cannot open sqlite:///{folder}/x.db: the folder {folder} does not exist"


@pytest.mark.parametrize("args", COMMANDS, ids=COMMAND_IDS)
def test_a_sqlite_url_naming_a_file_that_is_no_database_says_so(
    env: dict[str, str], file: Path, args: list[str]
) -> None:
    """SUDOKU_DATABASE_URL pointing at the puzzle file itself: exit 1, not a traceback."""
    result, took = invoke(args, file, f"sqlite:///{file}")
    line = error_line(result, took)
    assert result.exit_code == EXIT_FAILED
    assert line == f"error: cannot open sqlite:///{file}: {file} is not a SQLite database"
