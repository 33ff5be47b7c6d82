"""`query`, `status`, `export` and the run summary as a person reads them (issue 12)."""

from __future__ import annotations

import csv
import io

from click.testing import CliRunner, Result

from db.views import puzzle_results
from worker.cli import main


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


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
    for column in ("is_duplicate", "solved_by_elimination", "rejected"):
        assert {r[column] for r in rows} - {""} == {"true", "false"}, column
