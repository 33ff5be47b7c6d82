"""A collection's name through its life: failed and empty imports, `--replace`, `delete`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, inspect, text

from tests.worker.conftest import puzzle_lines
from worker.cli import main
from worker.exits import EXIT_EMPTY


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    """The query's rows; none before the database is made."""
    engine = create_engine(url)
    with engine.connect() as conn:
        made = inspect(conn).has_table("collections")
        found = [tuple(row) for row in conn.execute(text(sql))] if made else []
    engine.dispose()
    return found


def names(url: str) -> list[str]:
    return [name for (name,) in rows(url, "SELECT name FROM collections ORDER BY name")]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines))
    return path


def test_a_failed_import_leaves_no_collection_and_the_fixed_file_takes_the_name(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A CSV without a puzzle column fails (exit 1) and keeps no collection; once its header
    is fixed, the same command imports it under the same name."""
    path = write(
        tmp_path / "rated.csv",
        ["id,grid_text", *(f"{n},{p}" for n, p in enumerate(puzzle_lines(3)))],
    )
    failed = invoke("run", str(path))
    assert failed.exit_code == 1
    assert "CSV header has no puzzle column" in " ".join(failed.output.split())
    assert names(env["SUDOKU_DATABASE_URL"]) == []
    path.write_text(path.read_text().replace("grid_text", "puzzle", 1))
    fixed = invoke("run", str(path))
    assert fixed.exit_code == 0, fixed.output
    lines = "SELECT name, lines_read, done FROM collections"
    assert rows(env["SUDOKU_DATABASE_URL"], lines) == [("rated", 3, 3)]


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n\n  # and another\n"])
def test_an_empty_or_comments_only_file_is_reported_with_exit_code_4(
    env: dict[str, str], tmp_path: Path, content: str
) -> None:
    """Nothing to import is not a silent success: a warning naming the file, exit code 4,
    and no collection left holding the name; the other files are imported."""
    empty = tmp_path / "empty.txt"
    empty.write_text(content)
    good = write(tmp_path / "good.txt", puzzle_lines(3))
    result = invoke("run", str(good), str(empty))
    assert result.exit_code == EXIT_EMPTY == 4
    assert f"warning: {empty}: no puzzle line in it (it is empty" in result.output
    assert names(env["SUDOKU_DATABASE_URL"]) == ["good"]


def test_an_empty_file_alone_leaves_no_empty_progress_bar(
    env: dict[str, str], tmp_path: Path
) -> None:
    """With nothing to solve, no bar stuck at 0/0 is left above the warning and the summary."""
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = invoke("run", str(empty))
    assert result.exit_code == EXIT_EMPTY
    assert "nothing was stored" in result.output
    assert "solving" not in result.output


def test_an_empty_standard_input_is_reported_too(env: dict[str, str]) -> None:
    """`import -` with nothing on standard input warns and exits 4."""
    result = invoke("import", "-", stdin="")
    assert result.exit_code == 4
    assert "warning: stdin: no puzzle line in it" in " ".join(result.output.split())


def test_a_changed_file_is_refused_then_replaced_with_replace(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Running a changed file again is refused, pointing at --replace; with it, the collection
    holds exactly the new lines, and puzzles both versions share are not solved again."""
    url = env["SUDOKU_DATABASE_URL"]
    puzzles = puzzle_lines(8)
    path = write(tmp_path / "book.txt", [*puzzles[:6], "12345"])
    assert invoke("run", str(path)).exit_code == 3
    solved_at = "SELECT p.givens, r.solved_at FROM results r JOIN puzzles p ON p.id = r.puzzle_id"
    before = dict(rows(url, solved_at))

    write(path, puzzles[3:8])
    refused = invoke("run", str(path))
    assert refused.exit_code == 1
    assert "or replace the collection (--replace)" in " ".join(refused.output.split())

    replaced = invoke("run", str(path), "--replace")
    assert replaced.exit_code == 0, replaced.output
    view = "SELECT line, puzzle, status FROM puzzle_results WHERE collection = 'book' ORDER BY line"
    assert rows(url, view) == [(n, p, "solved") for n, p in enumerate(puzzles[3:8], 1)]
    counters = "SELECT lines_read, accepted, rejected, total, done FROM collections"
    assert rows(url, counters) == [(5, 5, 0, 5, 5)]
    assert rows(url, "SELECT count(*) FROM rejected_lines") == [(0,)]
    after = dict(rows(url, solved_at))
    assert all(after[p] == before[p] for p in puzzles[3:6])  # shared: kept, not solved again


def test_delete_asks_first_and_keeps_the_collection_when_told_no(
    env: dict[str, str], puzzle_file: Path
) -> None:
    """Answering no deletes nothing and exits 1 saying so."""
    invoke("run", str(puzzle_file))
    result = invoke("delete", "small", stdin="n\n")
    assert result.exit_code == 1
    assert "Delete collection 'small' (122 lines from" in result.output
    assert "not deleted" in result.output
    assert names(env["SUDOKU_DATABASE_URL"]) == ["small"]


def test_delete_removes_the_collection_and_what_it_owns_but_keeps_puzzles_and_results(
    env: dict[str, str], puzzle_file: Path
) -> None:
    """After `delete small` (answered yes): no collection, line, rejected line or batch of
    it; every puzzle and result is still there, and importing the file again solves nothing."""
    url = env["SUDOKU_DATABASE_URL"]
    invoke("run", str(puzzle_file))
    ((batches,),) = rows(url, "SELECT count(*) FROM batches")  # the deep tier's too
    result = invoke("delete", "small", stdin="y\n")
    assert result.exit_code == 0, result.output
    deleted = f"deleted collection 'small' (lines: 121, rejected lines: 1, batches: {batches})"
    assert deleted in result.output
    for table in ("collections", "collection_puzzles", "rejected_lines", "batches"):
        assert rows(url, f"SELECT count(*) FROM {table}") == [(0,)], table  # noqa: S608
    assert rows(url, "SELECT count(*) FROM results") == [(120,)]
    again = invoke("run", str(puzzle_file))
    assert again.exit_code == 3
    assert rows(url, "SELECT count(*) FROM batches") == [(0,)]  # all 120 were solved before


def test_delete_yes_does_not_ask(env: dict[str, str], puzzle_file: Path) -> None:
    """--yes deletes without reading standard input."""
    invoke("run", str(puzzle_file))
    result = invoke("delete", "--yes", "small")
    assert result.exit_code == 0, result.output
    assert "Delete collection" not in result.output
    assert names(env["SUDOKU_DATABASE_URL"]) == []


def test_deleting_an_unknown_collection_exits_1_in_one_line(env: dict[str, str]) -> None:
    """No such collection: one `error:` line naming it, exit 1."""
    result = CliRunner().invoke(main, ["delete", "--yes", "nope"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["error: no collection named 'nope'"]
