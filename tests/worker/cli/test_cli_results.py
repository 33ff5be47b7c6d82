"""`query`, `status`, `export` and the run summary as a person reads them (issue 12)."""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import re
import struct
import subprocess
import sys
from datetime import datetime
from fcntl import ioctl
from pathlib import Path
from termios import TIOCSWINSZ

import pytest
from click.testing import CliRunner, Result

from db.tiers import RATING_STATES
from db.views import puzzle_results
from solver import LABELS, SOLVER_VERSION, STATUSES
from tests.worker.conftest import ROOT, puzzle_lines
from worker.cli import main
from worker.cli.results import TABLE_COLUMNS
from worker.cli.tables import cell
from worker.exits import EXIT_FAILED, EXIT_USAGE

README_QUERY = ["query", "--limit", "5"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def json_rows(*args: str) -> list[dict[str, object]]:
    """The rows `query ARGS --format json` gives."""
    output = invoke(*args, "--format", "json").output
    return [json.loads(line) for line in output.splitlines()]


def table_body(output: str, first_column: str) -> list[list[str]]:
    """The cells of each table row that starts with `first_column`, split on the gaps."""
    lines = [line for line in output.splitlines() if line.startswith(first_column + " ")]
    return [re.split(r" {2,}", line.strip()) for line in lines]


def expected_cells(rows: list[dict[str, object]], columns: tuple[str, ...]) -> list[list[str]]:
    return [[cell(row[name]) for name in columns] for row in rows]


def run_in_terminal(args: list[str], columns: int, env: dict[str, str]) -> str:
    """What the command shows in a pseudo-terminal `columns` wide, escape codes removed."""
    leader, follower = pty.openpty()
    ioctl(follower, TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environ.update(env, TERM="xterm-256color", PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [sys.executable, "-m", "worker", *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=environ,
        cwd=ROOT,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal closed with the process
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=60) == 0
    return ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")


def test_query_in_a_200_column_terminal_shows_every_cell_whole(
    env: dict[str, str], solved: str
) -> None:
    """The README's first query, in a real 200-column terminal: the default columns, each
    cell in full on one line, nothing cut to `…`."""
    shown = run_in_terminal(README_QUERY, 200, env)
    assert "…" not in shown
    assert all(len(line) <= 200 for line in shown.splitlines())
    header = next(line for line in shown.splitlines() if line.startswith("collection"))
    assert header.split() == list(TABLE_COLUMNS)
    expected = expected_cells(json_rows(*README_QUERY), TABLE_COLUMNS)
    assert len(expected) == 5
    assert table_body(shown, solved) == expected


def test_query_fits_an_80_column_terminal_without_cutting_a_cell(
    env: dict[str, str], solved: str
) -> None:
    """COLUMNS=80: long headers wrap at their underscores, every value stays whole."""
    shown = invoke(*README_QUERY, env={"COLUMNS": "80"}).output
    assert "…" not in shown
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert "difficulty_" in shown.splitlines()[1]
    assert table_body(shown, solved) == expected_cells(json_rows(*README_QUERY), TABLE_COLUMNS)


def test_a_piped_table_is_as_wide_as_its_widest_row(env: dict[str, str], solved: str) -> None:
    """Piped without COLUMNS, even the 81-character puzzle stays whole on its line."""
    args = ["query", "--columns", "collection,line,puzzle", "-n", "3"]
    shown = invoke(*args).output
    rows = json_rows(*args)
    assert table_body(shown, solved) == expected_cells(rows, ("collection", "line", "puzzle"))


def test_query_columns_chooses_the_columns_and_shows_json_as_json(
    env: dict[str, str], solved: str
) -> None:
    """--columns a,b,c: those columns in that order; technique_counts as JSON, not a repr."""
    args = ["query", "--columns", "line,puzzle,technique_counts", "--order-by", "line", "-n", "4"]
    shown = invoke(*args).output
    header = next(line for line in shown.splitlines() if line.startswith("line"))
    assert header.split() == ["line", "puzzle", "technique_counts"]
    rows = json_rows(*args)
    for row in rows:
        line = next(x for x in shown.splitlines() if str(row["puzzle"]) in x)
        counts = json.loads(line.split(str(row["puzzle"]))[1])
        assert counts == row["technique_counts"]
        assert list(counts) == list(row["technique_counts"])  # ladder order, easiest first


def test_query_all_columns_shows_every_column_of_the_view(env: dict[str, str], solved: str) -> None:
    """--all-columns: the table's header names every column of puzzle_results."""
    shown = invoke("query", "--all-columns", "-n", "1").output
    header = next(line for line in shown.splitlines() if line.startswith("collection_id"))
    assert header.split() == [column.name for column in puzzle_results.c]


def test_a_table_too_wide_for_the_terminal_shows_each_row_as_a_record(
    env: dict[str, str], solved: str
) -> None:
    """--all-columns in 100 columns: one `column  value` line per column and row, every value
    whole (an 81-character puzzle wraps onto a second line, never cut)."""
    args = ["query", "--all-columns", "--order-by", "line", "-n", "2"]
    shown = invoke(*args, env={"COLUMNS": "100"}).output
    assert "…" not in shown
    assert max(len(line) for line in shown.splitlines()) <= 100
    blocks = shown.split("Results, row ")[1:]
    assert [block.split("\n", 1)[0] for block in blocks] == ["1 of 2", "2 of 2"]
    for block, row in zip(blocks, json_rows(*args), strict=True):
        squeezed = "".join(block.split())
        for name, value in row.items():
            assert name + "".join(cell(value).split()) in squeezed, name


def test_query_refuses_an_unknown_column_and_lists_the_columns(env: dict[str, str]) -> None:
    """A misspelt column is a usage error (exit 2) that lists the columns there are."""
    result = invoke("query", "--columns", "line,score")
    assert result.exit_code == EXIT_USAGE
    message = " ".join(result.output.split())
    assert "unknown column 'score'" in message
    assert "the columns are: collection_id, collection, line," in message


@pytest.mark.parametrize(
    "args",
    [
        ["status", "missing"],
        ["query", "-c", "missing"],
        ["export", "missing"],
        ["report", "missing", "--out", "missing.png"],
    ],
)
def test_an_unknown_collection_is_the_same_error_for_every_command(
    env: dict[str, str], args: list[str]
) -> None:
    """status, query, export and report: `error: no collection named ...`, exit 1."""
    result = invoke(*args)
    assert result.exit_code == EXIT_FAILED
    assert result.stderr.strip() == "error: no collection named 'missing'"


def test_a_csv_query_without_rows_prints_its_header(env: dict[str, str], solved: str) -> None:
    """No matching row: the CSV is still a header, so a script reads an empty table."""
    output = invoke("query", "--status", "invalid", "--format", "csv").output
    assert output.splitlines() == [",".join(column.name for column in puzzle_results.c)]


def test_export_writes_the_rejected_lines_in_line_order_by_default(
    env: dict[str, str], solved: str
) -> None:
    """Every line of the file, the bad one included with its reason and text, in line order;
    --no-rejected leaves it out."""
    rows = list(csv.DictReader(io.StringIO(invoke("export", solved).output)))
    assert [int(r["line"]) for r in rows] == list(range(1, 123))
    bad = rows[20]
    assert (bad["rejected"], bad["raw_text"], bad["status"]) == ("true", "12345", "")
    assert bad["reason"] == "expected 81 cells, got 5"
    assert {r["rejected"] for r in rows[:20]} == {"false"}
    without = list(csv.DictReader(io.StringIO(invoke("export", solved, "--no-rejected").output)))
    assert [r["line"] for r in without] == [r["line"] for r in rows if r["rejected"] == "false"]


def test_csv_writes_booleans_as_true_and_false(env: dict[str, str], solved: str) -> None:
    """CSV booleans are lowercase, as JSON and SQL write them."""
    rows = list(csv.DictReader(io.StringIO(invoke("export", solved).output)))
    for column in ("is_duplicate", "is_minimal", "rejected"):
        assert {r[column] for r in rows} - {""} == {"true", "false"}, column


def test_status_and_the_summary_break_the_results_down_by_status(
    env: dict[str, str], multiple_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """15 puzzles, 10 with several solutions: solved 5 and multiple 10, never 'solved 15';
    the difficulty counts and the rating states add up to the solved ones, and what made the
    ratings is named; status and the summary agree (ratings exact, as by default)."""
    monkeypatch.delenv("SUDOKU_RATING")
    summary = invoke("run", str(multiple_file)).stdout
    status = invoke("status").stdout
    by_status = dict(zip(STATUSES, (0, 10, 0, 0, 0), strict=True)) | {"solved": 5}
    for output in (summary, status):
        counts, statuses, labels, ratings = table_body(output, "mixed")
        assert counts[5] == "15"  # done: every result, whatever its status
        assert statuses[1:] == [str(by_status[s]) for s in STATUSES]
        assert sum(int(n) for n in labels[1:]) == 5
        assert len(labels) == 1 + len(LABELS)
        assert sum(int(n) for n in ratings[1 : 1 + len(RATING_STATES)]) == 5
        assert ratings[-1].startswith(f"classic, solver {SOLVER_VERSION}: bulk 15")
    assert summary.split("\n", 1)[1] == status.split("\n", 1)[1]  # below the titles


def test_the_summary_rate_is_the_rate_the_bar_showed(env: dict[str, str]) -> None:
    """Run's closing rate and its progress bar's last rate are one figure, measured once."""
    result = invoke("run", str(ROOT / "samples" / "sample.txt"))
    bar = re.search(r"290/290 .* ([\d,]+) puzzles/s", result.stderr)
    summary = re.search(
        r"Summary: 290 puzzles finished in [\d.]+ s, ([\d,]+) puzzles/s", result.output
    )
    assert bar, result.stderr
    assert summary, result.output
    assert bar.group(1) == summary.group(1)


def test_one_of_anything_is_singular(env: dict[str, str], tmp_path: Path) -> None:
    """A file of one puzzle: `1 puzzle finished`, never `1 puzzles`."""
    path = tmp_path / "one.txt"
    path.write_text(puzzle_lines(1)[0] + "\n12345\n")
    output = invoke("run", str(path)).output
    assert "Summary: 1 puzzle finished in" in output
    assert "1 rejected line in one" in output
    assert not re.search(r"(?<![\d,.])1 (puzzles|lines|batches)\b", output)


def test_every_export_format_writes_solved_at_with_its_time_zone(
    env: dict[str, str], solved: str, tmp_path: Path
) -> None:
    """CSV, JSON lines and Parquet give the same instant, each with its time zone (UTC), as
    `Client` results do, though SQLite keeps the time without one."""
    import pyarrow.parquet as pq

    rows = list(csv.DictReader(io.StringIO(invoke("export", solved, "--no-rejected").output)))
    lines = invoke("export", solved, "--format", "json", "--no-rejected").output.splitlines()
    out = tmp_path / "small.parquet"
    invoke("export", solved, "--format", "parquet", "--out", str(out), "--no-rejected")
    stamps = pq.read_table(out).column("solved_at").to_pylist()
    as_csv = datetime.fromisoformat(rows[0]["solved_at"])
    as_json = datetime.fromisoformat(json.loads(lines[0])["solved_at"])
    assert as_csv.tzinfo is not None
    assert as_json.tzinfo is not None
    assert as_csv == as_json == stamps[0]


def test_a_run_of_puzzles_solved_before_says_so_rather_than_none_finished(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A second file holding only puzzles another collection solved: the summary says how many
    were solved before, beside the 0 this run solved, as `done` shows them."""
    lines = puzzle_lines(5)
    (tmp_path / "first.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "again.txt").write_text("\n".join(reversed(lines)) + "\n")
    invoke("run", str(tmp_path / "first.txt"))
    summary = invoke("run", str(tmp_path / "again.txt")).output
    heading = next(line for line in summary.splitlines() if line.startswith("Summary:"))
    assert heading.startswith("Summary: 0 puzzles finished in ")
    assert heading.endswith("(5 more solved before: by an earlier run, or in another collection)")
    counts = table_body(summary, "again")[0]
    assert counts[5] == "5"  # done
