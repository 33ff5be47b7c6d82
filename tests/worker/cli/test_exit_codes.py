"""Every documented exit code, and errors ending a command as one line on stderr."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.cli.failure import INTERRUPTED
from worker.exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_REJECTED, EXIT_USAGE


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def one_error_line(result: Result) -> str:
    """The only line the command wrote to stderr, which must start with `error: `."""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: "), line
    return line


def write(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_run_with_every_line_good_exits_0(env: dict[str, str], tmp_path: Path) -> None:
    """0: everything was solved."""
    result = invoke("run", write(tmp_path / "good.txt", puzzle_lines(20)))
    assert result.exit_code == EXIT_OK == 0, result.output


def test_a_file_that_cannot_be_read_exits_1(env: dict[str, str], tmp_path: Path) -> None:
    """1: a CSV whose header names no puzzle column cannot be read as a whole."""
    result = invoke("run", write(tmp_path / "odd.csv", ["id,rating", "1,2.0"]))
    assert result.exit_code == EXIT_FAILED == 1, result.output
    assert "odd.csv:1: CSV header has no puzzle column" in " ".join(result.output.split())


def test_a_bad_setting_exits_2_with_one_line(env: dict[str, str]) -> None:
    """2: a SUDOKU_* value that cannot be used is a usage error, named in one line."""
    result = invoke("solve", "." * 81, env={"SUDOKU_NODE_BUDGET": "lots"})
    assert result.exit_code == EXIT_USAGE == 2
    assert one_error_line(result) == "error: SUDOKU_NODE_BUDGET='lots' is not an integer"


def test_a_bad_option_exits_2(env: dict[str, str]) -> None:
    """2: click's own usage errors keep the same code."""
    assert invoke("query", "--limit", "0").exit_code == EXIT_USAGE


def test_rejected_lines_exit_3(env: dict[str, str], tmp_path: Path) -> None:
    """3: everything ran, but a line was rejected."""
    result = invoke("run", write(tmp_path / "some-bad.txt", [*puzzle_lines(5), "12345"]))
    assert result.exit_code == EXIT_REJECTED == 3, result.output


def test_an_interrupt_exits_130_with_one_line(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """130: Ctrl-C inside a command says what was kept, without a traceback."""

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("worker.cli.results.collection_status", interrupted)
    result = invoke("status")
    assert result.exit_code == EXIT_INTERRUPTED == 130
    assert result.stderr.strip() == INTERRUPTED


def test_status_on_a_sqlite_file_without_the_schema_is_one_line_and_exit_1(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A non-empty SQLite file that was never migrated: SchemaNotReady as one line, not a
    traceback, telling the user what to run."""
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
    connection.close()
    result = invoke("status", env={"SUDOKU_DATABASE_URL": f"sqlite:///{path}"})
    assert result.exit_code == EXIT_FAILED
    line = one_error_line(result)
    assert "is not migrated (no alembic_version)" in line
    assert "run `sudoku-batch db upgrade`" in line


def test_an_unreachable_database_is_one_line_and_exit_1(env: dict[str, str]) -> None:
    """A database that does not answer is named (password masked) in one line."""
    url = "postgresql://sudoku:s3cret@127.0.0.1:1/nowhere"
    result = invoke("status", env={"SUDOKU_DATABASE_URL": url})
    assert result.exit_code == EXIT_FAILED
    line = one_error_line(result)
    assert line.startswith("error: cannot reach postgresql")
    assert "sudoku:***@127.0.0.1:1/nowhere" in line


def test_a_missing_optional_package_names_the_extra_to_install(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without matplotlib, `report` says which extra brings it, in one line, exit 1: the
    command that works in a clone (an editable install) and the one for a package index."""
    assert invoke("run", write(tmp_path / "few.txt", puzzle_lines(5))).exit_code == EXIT_OK
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    result = invoke("report", "few", "--out", str(tmp_path / "few.png"))
    assert result.exit_code == EXIT_FAILED
    assert one_error_line(result) == (
        "error: the report needs matplotlib: pip install -e '.[report]' in a clone of the "
        "repository, or pip install 'sudoku-batch[report]'"
    )


def test_an_unknown_collection_is_one_line_and_exit_1(env: dict[str, str]) -> None:
    """Asking for a collection that was never imported names it."""
    result = invoke("export", "nope")
    assert result.exit_code == EXIT_FAILED
    assert one_error_line(result) == "error: no collection named 'nope'"


@pytest.mark.parametrize(
    "args",
    [
        ["report", "few", "--out"],
        ["export", "few", "--out"],
        ["export", "few", "--format", "json", "--out"],
        ["export", "few", "--format", "parquet", "--out"],
    ],
    ids=["report", "export csv", "export json", "export parquet"],
)
def test_an_output_file_in_a_missing_folder_is_one_line_and_exit_1(
    env: dict[str, str], tmp_path: Path, args: list[str]
) -> None:
    """--out /missing/dir/x: the folder is named in one line, exit 1, nothing half-done."""
    assert invoke("run", write(tmp_path / "few.txt", puzzle_lines(5))).exit_code == EXIT_OK
    target = tmp_path / "missing" / "dir" / "x.out"
    result = invoke(*args, str(target))
    assert result.exit_code == EXIT_FAILED
    assert one_error_line(result) == (
        f"error: cannot write {target}: the folder {target.parent} does not exist"
    )


@pytest.mark.parametrize(
    ("given", "problem"),
    [("sampel.txt", "no such file"), ("folder", "a folder, not a file of puzzles")],
)
def test_a_file_argument_that_is_no_file_is_one_error_line_and_exit_1(
    env: dict[str, str], tmp_path: Path, given: str, problem: str
) -> None:
    """A misspelt file or a folder given to `run` or `import`: `error: PATH: ...` in one line,
    exit 1, nothing imported (not click's three-line usage error)."""
    (tmp_path / "folder").mkdir()
    for command in ("run", "import"):
        result = invoke(command, str(tmp_path / given))
        assert result.exit_code == EXIT_FAILED, result.output
        assert one_error_line(result).startswith(f"error: {tmp_path / given}: {problem}")
    assert "no collection" in invoke("status").output


def test_a_binary_file_is_refused_as_a_whole_naming_it(env: dict[str, str], tmp_path: Path) -> None:
    """A program given as a puzzle file: one line saying it is not text, exit 1, no collection
    of thousands of bad lines made of it; a text file with a few bad lines is still read."""
    binary = tmp_path / "program.bin"
    binary.write_bytes(bytes(range(256)) * 40)
    result = invoke("run", str(binary))
    assert result.exit_code == EXIT_FAILED, result.output
    assert f"error: {binary}: not a text file of puzzles" in result.output
    assert "no collection" in invoke("status").output
    text = write(tmp_path / "mostly.txt", [*puzzle_lines(3), "\x01\x02 junk"])
    assert invoke("run", text).exit_code == EXIT_REJECTED
