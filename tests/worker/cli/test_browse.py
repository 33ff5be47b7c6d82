"""`sudoku-batch browse`: Datasette on the database a `run` made, over HTTP and in a browser."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from markupsafe import escape

from db.models import Base
from db.views import VIEW_NAME
from tests.conftest import missing
from tests.db.test_queries import example_queries
from tests.worker.cli.test_cli_help import top_level_modules_after
from tests.worker.conftest import SAMPLE
from worker.cli import main
from worker.cli.browser import FACETED, FACETS, QUERIES, browser, render_cell
from worker.cli.grids import boxed

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
# Each documented query's parameters, on the two collections the fixture runs.
PARAMETERS = {"collection": "sample", "collection_a": "sample", "collection_b": "mixed"}
Get = Callable[..., httpx.Response]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def one_error_line(result: Result) -> str:
    (line,) = result.stderr.splitlines()
    return line


def database_file(env: dict[str, str]) -> Path:
    return Path(env["SUDOKU_DATABASE_URL"].removeprefix("sqlite:///"))


def counts(path: Path, sql: str) -> dict[Any, int]:
    with closing(sqlite3.connect(path)) as connection:
        return dict(connection.execute(sql).fetchall())


def first_puzzle(path: Path) -> tuple[int, str, str]:
    """The line, puzzle and solution of the sample's first puzzle (comments come before it)."""
    with closing(sqlite3.connect(path)) as connection:
        found = connection.execute(
            "SELECT line, puzzle, solution FROM puzzle_results WHERE collection = 'sample' "
            "ORDER BY line LIMIT 1"
        ).fetchone()
    return (found[0], found[1], found[2])


@pytest.fixture
def database(env: dict[str, str], multiple_file: Path) -> Path:
    """The SQLite file after `run samples/sample.txt` (collection `sample`, 290 puzzles) and
    `run` of `mixed` (its first 5 puzzles the sample's, then 10 with several solutions)."""
    for source in (SAMPLE, multiple_file):
        result = invoke("run", str(source))
        assert result.exit_code == 0, result.output
    return database_file(env)


@pytest.fixture
def browsed(database: Path) -> Iterator[Any]:
    """The Datasette instance `browse` serves for that file."""
    ds = browser(database)
    yield ds
    for db in ds.databases.values():
        db.close()


@pytest.fixture
def get(browsed: Any) -> Get:
    """`get(path, **params)`: a request to the browser through Datasette's own client."""

    def request(path: str, **params: str) -> httpx.Response:
        return asyncio.run(browsed.client.get(path, params=params))

    return request


def test_every_table_and_column_is_described_by_its_schema_comment(get: Get) -> None:
    """Each table's page shows the table's comment and every commented column's."""
    for table in Base.metadata.sorted_tables:
        page = get(f"/sudoku/{table.name}").text
        assert escape(table.comment or "") in page, table.name
        for column in table.columns:
            shown = f"<dt>{column.name}</dt><dd>{escape(column.comment or '')}</dd>"
            assert shown in page, f"{table.name}.{column.name}"


def test_the_views_columns_are_described_by_the_model_columns_they_show(get: Get) -> None:
    """The puzzle_results page describes `puzzle` as puzzles.givens and `difficulty` as
    results.difficulty are described."""
    page = get(f"/sudoku/{VIEW_NAME}").text
    tables = Base.metadata.tables
    for name, comment in (
        ("puzzle", tables["puzzles"].c.givens.comment),
        ("difficulty", tables["results"].c.difficulty.comment),
    ):
        assert f"<dt>{name}</dt><dd>{escape(comment or '')}</dd>" in page


@pytest.mark.parametrize("table", FACETED)
def test_the_results_are_faceted_with_the_counts_sql_gives(
    get: Get, database: Path, table: str
) -> None:
    """Difficulty, status, hardest technique, rating profile and rating state are facets of
    the view and of `results`, each value counted as a GROUP BY counts it."""
    facets = get(f"/sudoku/{table}.json").json()["facet_results"]
    assert list(facets) == list(FACETS)
    for column in FACETS:
        shown = {row["value"]: row["count"] for row in facets[column]["results"]}
        expected = counts(
            database,
            f"SELECT {column}, COUNT(*) FROM {table} WHERE {column} IS NOT NULL GROUP BY 1",  # noqa: S608 (names of ours)
        )
        assert shown == expected, column


def test_the_canned_queries_are_the_documented_ones() -> None:
    """Each query of the browser, its parameters written as the docs' examples, is the query
    the docs print (and tests/db runs), for SQLite and for PostgreSQL."""

    def plain(sql: str) -> str:
        lines = [line for line in sql.strip().splitlines() if not line.startswith("-- ")]
        return "\n".join(lines).rstrip(";")

    for dialect in ("sqlite", "postgresql"):
        documented = example_queries(dialect)
        for query in QUERIES:
            assert query.as_written(dialect) == plain(documented[query.name]), query.name


@pytest.mark.parametrize("query", [q.name for q in QUERIES])
def test_each_canned_query_runs_in_the_browser_and_finds_rows(get: Get, query: str) -> None:
    """The documented query, run from the browser on the two collections, returns rows."""
    response = get(f"/sudoku/{query}.json", _shape="array", **PARAMETERS)
    assert response.status_code == 200, response.text
    assert response.json(), query


def test_a_puzzle_and_its_solution_are_drawn_as_the_grids_solve_prints(
    get: Get, database: Path
) -> None:
    """A row of the view shows its puzzle and its solution as 9x9 grids, the 81 characters
    kept as the grid's tooltip."""
    line, puzzle, solution = first_puzzle(database)
    page = get(f"/sudoku/{VIEW_NAME}", collection="sample", line=str(line)).text
    for grid in (puzzle, solution):
        assert f'title="{grid}"' in page
        assert escape("\n".join(boxed(grid))) in page


@pytest.mark.parametrize(
    ("value", "column"),
    [
        ("1" * 81, "collection"),  # not a grid column
        ("1" * 80, "puzzle"),  # not 81 characters
        ("x" * 81, "solution"),  # not a grid's characters
        (None, "solution"),  # no solution
    ],
)
def test_only_a_grid_in_a_grid_column_is_drawn(value: object, column: str) -> None:
    """Any other cell is left to Datasette (the hook answers None)."""
    assert render_cell(value, column) is None


def test_a_write_query_is_refused(get: Get, database: Path) -> None:
    """SQL that would change the database is refused with 400, and nothing changes."""
    before = counts(database, "SELECT status, COUNT(*) FROM results GROUP BY 1")
    response = get("/sudoku.json", sql="DELETE FROM results")
    assert response.status_code == 400
    assert counts(database, "SELECT status, COUNT(*) FROM results GROUP BY 1") == before


def test_the_file_is_opened_read_only_even_for_datasettes_own_writes(
    browsed: Any, database: Path
) -> None:
    """Datasette's write connection (plugins, write queries) cannot change the file either."""
    db = browsed.get_database("sudoku")
    with pytest.raises(sqlite3.OperationalError, match="readonly database"):
        asyncio.run(db.execute_write("DELETE FROM results"))
    assert sum(counts(database, "SELECT status, COUNT(*) FROM results GROUP BY 1").values())


def test_a_run_stores_results_while_the_browser_is_open(
    get: Get, database: Path, puzzle_file: Path
) -> None:
    """Browsing takes no lock a run waits for, and what the run stores shows up at once."""
    assert get(f"/sudoku/{VIEW_NAME}.json").status_code == 200
    assert invoke("run", str(puzzle_file)).exit_code == 3  # its one bad line
    shown = get(f"/sudoku/{VIEW_NAME}.json", collection="small").json()
    stored = counts(database, "SELECT collection, COUNT(*) FROM puzzle_results GROUP BY 1")
    assert shown["filtered_table_rows_count"] == stored["small"] == 121  # a line repeats


def test_only_the_file_is_served(browsed: Any) -> None:
    """The browser shows the one database, not Datasette's empty in-memory one."""
    assert [name for name in browsed.databases if name != "_internal"] == ["sudoku"]


def test_a_postgresql_database_is_refused_in_one_line(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Datasette browses SQLite: a PostgreSQL URL is refused, a SQL client suggested, the
    password masked, exit 2."""
    url = "postgresql://sudoku:s3cret@db.example:5432/sudoku"
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)
    result = invoke("browse")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert line.startswith("error: SUDOKU_DATABASE_URL='postgresql://sudoku:***@db.example")
    assert "Datasette browses SQLite" in line
    assert "SQL client" in line
    assert "s3cret" not in line


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_database_is_refused_in_one_line(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    """An in-memory SQLite database has nothing to browse: exit 2, one line."""
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)
    result = invoke("browse")
    assert result.exit_code == 2
    assert one_error_line(result).endswith("browse needs a database file")


def test_a_missing_database_file_is_named_not_created(env: dict[str, str]) -> None:
    """Browsing a file that does not exist says so in one line and leaves no file behind."""
    result = invoke("browse")
    assert result.exit_code == 1
    assert one_error_line(result).startswith(f"error: no database at {database_file(env)}")
    assert not database_file(env).exists()


def test_a_missing_extra_says_what_to_install(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Datasette, `browse` names the extra, from a clone and from a package index."""
    assert invoke("db", "upgrade").exit_code == 0
    monkeypatch.setitem(sys.modules, "datasette", None)  # import datasette now fails
    result = invoke("browse")
    assert result.exit_code == 1
    assert one_error_line(result) == (
        "error: the results browser needs datasette: pip install -e '.[browse]' in a clone of "
        "the repository, or pip install 'sudoku-batch[browse]'"
    )


def test_a_port_in_use_is_one_line(env: dict[str, str]) -> None:
    """A port another program listens on is named, with the option that changes it."""
    assert invoke("db", "upgrade").exit_code == 0
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = invoke("browse", "--port", str(port))
    assert result.exit_code == 1
    line = one_error_line(result)
    assert line.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
    assert line.endswith("choose another --port")


@pytest.mark.parametrize("args", [("--help",), ("browse", "--help")])
def test_the_help_loads_no_datasette(args: tuple[str, ...]) -> None:
    """Listing the commands, or `browse`'s own help, imports neither Datasette nor uvicorn."""
    assert top_level_modules_after(*args).isdisjoint({"datasette", "uvicorn"})


@pytest.fixture
def served(database: Path, env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`sudoku-batch browse --port 0` running as its own process: the URL it prints, and
    the process (stopped with Ctrl-C's signal after the test, if the test did not)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "worker", "browse", "--port", "0"],
        env=os.environ | env,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    first = process.stderr.readline()
    found = re.search(r" at (http://\S+) ", first)
    assert found, first
    yield found[1], process
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def test_the_command_serves_until_ctrl_c_then_exits_0(
    served: tuple[str, subprocess.Popen[str]], database: Path
) -> None:
    """`browse` prints the database page's URL, serves it, and stops quietly on Ctrl-C."""
    url, process = served
    assert url.endswith("/sudoku")
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 (our own http URL)
        assert VIEW_NAME in response.read().decode()
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=30)
    assert process.returncode == 0
    assert errors == ""


def test_a_real_browser_finds_a_puzzles_row(
    served: tuple[str, subprocess.Popen[str]], database: Path, tmp_path: Path
) -> None:
    """Headless chromium opens the served view and finds the row of the sample's first
    puzzle, its grid drawn."""
    if shutil.which(CHROMIUM) is None:
        missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    url, _process = served
    line, puzzle, _solution = first_puzzle(database)
    page = f"{url}/{VIEW_NAME}?collection=sample&line={line}"
    dumped = subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}", "--dump-dom", page],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    rows = re.findall(r"<tr>.*?</tr>", dumped, re.DOTALL)
    (row,) = [row for row in rows if f'title="{puzzle}"' in row]
    assert f'class="col-line type-int">{line}</td>' in row
    assert escape("\n".join(boxed(puzzle))) in row
