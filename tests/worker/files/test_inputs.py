"""Inputs that are not plain files: standard input, pipes, process substitutions, FIFOs.

Each is read once, whatever it is; its collection gets a name a user recognises, and
`source_file` says where it came from. Real pipes need real processes: those tests run the
command line in a subprocess (bash for `<(...)`), each with a timeout, so a hang fails.
"""

from __future__ import annotations

import io
import lzma
import os
import shlex
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, inspect, text

from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.files.inputs import Input, collection_name, readable

TIMEOUT = 60  # seconds: far more than any of these needs; a blocked read fails, never hangs
COMMAND = f"{shlex.quote(sys.executable)} -m worker"


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def shell(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`script` run by bash, `sudoku-batch` spelt $SB, with the test's environment."""
    return subprocess.run(
        ["bash", "-c", f"SB='{COMMAND}'; {script}"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def collections(url: str) -> list[tuple[Any, ...]]:
    """(name, source_file, lines_read, accepted) of every collection, by name (none before
    the database is made)."""
    engine = create_engine(url)
    with engine.connect() as conn:
        if not inspect(conn).has_table("collections"):
            return []
        sql = "SELECT name, source_file, lines_read, accepted FROM collections ORDER BY name"
        rows = [tuple(row) for row in conn.execute(text(sql))]
    engine.dispose()
    return rows


@pytest.fixture
def five(tmp_path: Path) -> Path:
    """A file of five puzzles."""
    path = tmp_path / "five.txt"
    path.write_text("\n".join(puzzle_lines(5)) + "\n")
    return path


def test_a_pipe_into_dev_stdin_imports_every_line(
    env: dict[str, str], five: Path, tmp_path: Path
) -> None:
    """`head -2 f | sudoku-batch run /dev/stdin` stores both lines as collection `stdin`."""
    done = shell(f"head -n 2 {five} | $SB run /dev/stdin", tmp_path)
    assert done.returncode == 0, done.stderr
    assert collections(env["SUDOKU_DATABASE_URL"]) == [("stdin", "stdin", 2, 2)]


def test_a_dash_imports_standard_input(env: dict[str, str], five: Path) -> None:
    """`import -` reads standard input to its end; the collection is `stdin`."""
    result = invoke("import", "-", stdin=five.read_text())
    assert result.exit_code == 0, result.output
    assert collections(env["SUDOKU_DATABASE_URL"]) == [("stdin", "stdin", 5, 5)]


def test_a_dash_with_a_collection_name_uses_that_name(env: dict[str, str], five: Path) -> None:
    """`run - --collection NAME` names the collection; source_file still says stdin."""
    result = invoke("run", "-", "--collection", "piped", stdin=five.read_bytes())
    assert result.exit_code == 0, result.output
    assert collections(env["SUDOKU_DATABASE_URL"]) == [("piped", "stdin", 5, 5)]


def test_standard_input_given_twice_is_a_usage_error(env: dict[str, str], five: Path) -> None:
    """Standard input can be read once: `run - /dev/stdin` exits 2 and reads nothing."""
    result = CliRunner().invoke(main, ["run", "-", "/dev/stdin"], input=five.read_text())
    assert result.exit_code == 2
    assert "standard input can be read only once" in result.output
    assert collections(env["SUDOKU_DATABASE_URL"]) == []


def test_a_process_substitution_needs_a_collection_name(
    env: dict[str, str], five: Path, tmp_path: Path
) -> None:
    """`run <(...)` is a nameless pipe: exit 2 asking for --collection; with it, all lines."""
    unnamed = shell(f"$SB run <(head -n 4 {five})", tmp_path)
    assert unnamed.returncode == 2, unnamed.stderr
    assert "give one with --collection NAME" in unnamed.stderr
    named = shell(f"$SB run --collection four <(head -n 4 {five})", tmp_path)
    assert named.returncode == 0, named.stderr
    [(name, source, lines, accepted)] = collections(env["SUDOKU_DATABASE_URL"])
    assert (name, lines, accepted) == ("four", 4, 4)
    assert source.startswith("/dev/fd/") or source.startswith("/proc/")


def test_a_named_fifo_is_read_once_and_imported_whole(
    env: dict[str, str], five: Path, tmp_path: Path
) -> None:
    """A FIFO is named after its file and read to its end, once: no second read that waits
    forever for a writer that is gone."""
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as stream:  # blocks until the command opens the FIFO
            stream.write(five.read_bytes())

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        done = shell(f"$SB run {fifo}", tmp_path)
    finally:
        if writer.is_alive():  # the command never opened it: let the writer go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(5)
    assert done.returncode == 0, done.stderr
    assert collections(env["SUDOKU_DATABASE_URL"]) == [("fifo", str(fifo), 5, 5)]


def test_source_file_is_the_absolute_path_of_the_file(
    env: dict[str, str], five: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative path is recorded made absolute, so the file can be found again."""
    monkeypatch.chdir(five.parent)
    assert invoke("run", "five.txt").exit_code == 0
    assert collections(env["SUDOKU_DATABASE_URL"]) == [("five", str(five), 5, 5)]


def test_an_xz_file_is_named_without_its_suffixes(env: dict[str, str], tmp_path: Path) -> None:
    """`puzzles.txt.xz` makes the collection `puzzles`, as .gz and .bz2 files do."""
    path = tmp_path / "puzzles.txt.xz"
    path.write_bytes(lzma.compress(("\n".join(puzzle_lines(3)) + "\n").encode()))
    assert invoke("run", str(path)).exit_code == 0
    assert collections(env["SUDOKU_DATABASE_URL"]) == [("puzzles", str(path), 3, 3)]


@pytest.mark.parametrize(
    ("file", "name"),
    [
        ("top1465.txt", "top1465"),
        ("kaggle.csv.gz", "kaggle"),
        ("graded.tsv.bz2", "graded"),
        ("SET.SDK.XZ", "SET"),
        ("book.ss", "book"),
        ("notes.md.gz", "notes.md"),
        ("data.xz.txt", "data.xz"),
        (".txt", ".txt"),
    ],
)
def test_a_collection_is_named_after_its_file_without_compression_and_format_suffixes(
    file: str, name: str
) -> None:
    """One compression suffix, then one format suffix, any case, are left out of the name."""
    assert collection_name(Path("/some/dir") / file) == name


@pytest.mark.parametrize(
    ("given", "name"),
    [("-", "stdin"), ("/dev/stdin", "stdin"), ("/dev/fd/63", None), ("/proc/12/fd/5", None)],
)
def test_standard_input_is_named_stdin_and_other_descriptors_have_no_name(
    given: str, name: str | None
) -> None:
    """`-` and /dev/stdin default to `stdin`; another descriptor's number is not a name."""
    assert Input(given).default_name == name


def test_a_pipe_is_copied_to_disk_not_held_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight megabytes of standard input cost far less than that in memory, and the copy is
    deleted once the import is done with it."""
    data = ("\n".join(puzzle_lines(100)) + "\n").encode() * 1_000
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    tracemalloc.start()
    with readable(Input("-")) as source:
        peak = tracemalloc.get_traced_memory()[1]
        copy = source.path
        assert copy.read_bytes() == data
    tracemalloc.stop()
    assert len(data) > 8_000_000
    assert peak < 3_000_000
    assert not copy.exists()
