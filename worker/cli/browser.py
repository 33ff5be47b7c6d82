"""The results browser (`sudoku-batch browse`): Datasette serving the embedded SQLite database.

What the browser shows is derived, never written twice: a table's and a column's description
is its comment in the schema (`db.models`; the view's columns take the comments of the model
columns they show, `db.views.SHOWN`); the facets are the columns people filter by; the canned
queries are the documented ones, written once here (`QUERIES`); and a cell holding a grid (a
column of 81 characters) is drawn as `sudoku-batch solve` draws one. The file is opened only
to read (SQLite's read-only mode, and `query_only` on any connection Datasette would write
with), so browsing never holds a write lock a `run` waits for, and a `run` going on shows up
page by page. Datasette is imported only when the browser starts: it is the extra `browse`.
"""

from __future__ import annotations

import contextlib
import re
import socket
import types
import webbrowser
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Column, String

from db.models import Base, Result
from db.views import VIEW_NAME, puzzle_results
from worker.cli.grids import boxed
from worker.errors import MissingExtra

TITLE = "sudoku-batch results"
FACETS = ("difficulty", "status", "hardest_technique", "rating_profile", "rating_state")
FACETED = (VIEW_NAME, Result.__tablename__)
HIDDEN = ("alembic_version",)  # Alembic's bookkeeping: one row, no results
PLUGIN = "sudoku_batch_browse"
GRID = re.compile(r"[0-9.]{81}")
EXAMPLE = {"collection": "my_collection"}


@dataclass(frozen=True)
class Query:
    """A documented query: SQL that runs on both databases unless `postgresql` differs, with
    `:name` parameters; written out in the docs with the `example` values in their place."""

    name: str
    title: str
    sql: str
    postgresql: str | None = None
    example: Mapping[str, str] = field(default_factory=lambda: EXAMPLE)

    def for_dialect(self, dialect: str) -> str:
        """The SQL for `sqlite` or `postgresql`, with its parameters."""
        return self.postgresql if dialect == "postgresql" and self.postgresql else self.sql

    def as_written(self, dialect: str) -> str:
        """The SQL as the docs print it: each parameter replaced by its quoted example."""
        names = "|".join(map(re.escape, self.example))
        return re.sub(
            rf"(?<!:):({names})\b", lambda m: f"'{self.example[m[1]]}'", self.for_dialect(dialect)
        )


QUERIES = (
    Query(
        "hardest",
        "The hardest puzzles of a collection",
        """SELECT line, puzzle, difficulty, difficulty_score, hardest_technique, recursion_depth
FROM puzzle_results
WHERE collection = :collection AND status = 'solved' AND NOT is_duplicate
ORDER BY difficulty_score DESC, line
LIMIT 10""",
    ),
    Query(
        "elimination_share",
        "Share of puzzles solved by elimination alone, per collection",
        """SELECT collection,
       COUNT(*) AS solved,
       ROUND(100.0 * SUM(CASE WHEN solved_by_elimination THEN 1 ELSE 0 END) / COUNT(*), 1)
           AS pct_by_elimination
FROM puzzle_results
WHERE status = 'solved' AND NOT is_duplicate
GROUP BY collection
ORDER BY collection""",
    ),
    Query(
        "difficulty_distribution",
        "Distribution of difficulty, per collection",
        """SELECT collection, difficulty, COUNT(*) AS puzzles
FROM puzzle_results
WHERE difficulty IS NOT NULL AND NOT is_duplicate
GROUP BY collection, difficulty
ORDER BY collection, MIN(difficulty_score)""",
    ),
    Query(
        "x_wing",
        "Puzzles that needed an X-Wing",
        """SELECT line, puzzle, json_extract(technique_counts, '$.x_wing') AS x_wings
FROM puzzle_results
WHERE collection = :collection AND NOT is_duplicate
  AND json_extract(technique_counts, '$.x_wing') > 0
ORDER BY line""",
        postgresql="""SELECT line, puzzle, (technique_counts ->> 'x_wing')::int AS x_wings
FROM puzzle_results
WHERE collection = :collection AND NOT is_duplicate
  AND technique_counts ? 'x_wing'
ORDER BY line""",
    ),
    Query(
        "multiple_solutions",
        "Puzzles with more than one solution",
        """SELECT collection, line, puzzle
FROM puzzle_results
WHERE status = 'multiple' AND NOT is_duplicate
ORDER BY collection, line""",
    ),
    Query(
        "isomorphs",
        "Puzzles of one collection that are isomorphs of puzzles in another",
        """SELECT a.line, a.puzzle, b.line AS line_in_b, b.puzzle AS puzzle_in_b
FROM puzzle_results AS a
JOIN puzzle_results AS b
  ON b.canonical_key = a.canonical_key AND b.canonical = a.canonical
WHERE a.collection = :collection_a AND b.collection = :collection_b
  AND NOT a.is_duplicate AND NOT b.is_duplicate
ORDER BY a.line, b.line""",
        example={"collection_a": "collection_a", "collection_b": "collection_b"},
    ),
)


def _is_grid(column: Column[Any]) -> bool:
    return isinstance(column.type, String) and column.type.length == 81


# Columns that hold a grid, in the tables and in the view: drawn as grids.
GRID_COLUMNS = frozenset(
    column.name
    for table in (*Base.metadata.tables.values(), puzzle_results)
    for column in table.columns
    if _is_grid(column)
)


def _described(description: str | None, columns: Mapping[str, str | None]) -> dict[str, Any]:
    shown = {name: comment for name, comment in columns.items() if comment}
    return {"description": description or "", "columns": shown}


def metadata(database: str) -> dict[str, Any]:
    """Datasette's metadata for the sudoku-batch database served as `database`."""
    tables = {
        table.name: _described(table.comment, {c.name: c.comment for c in table.columns})
        for table in (*Base.metadata.sorted_tables, puzzle_results)
    }
    for name in FACETED:
        tables[name]["facets"] = list(FACETS)
    tables.update({name: {"hidden": True} for name in HIDDEN})
    queries = {q.name: {"title": q.title, "sql": q.for_dialect("sqlite")} for q in QUERIES}
    return {"title": TITLE, "databases": {database: {"tables": tables, "queries": queries}}}


def render_cell(value: object, column: str) -> Any:
    """Datasette's `render_cell` hook: a grid column's 81 characters drawn as the 9x9 grid
    `sudoku-batch solve` prints (the characters kept as its tooltip); None for any other
    cell, which Datasette then shows as usual."""
    if column not in GRID_COLUMNS or not isinstance(value, str) or not GRID.fullmatch(value):
        return None
    from markupsafe import Markup

    grid = "\n".join(boxed(value))
    return Markup(
        '<pre class="sudoku-grid" title="{}" style="margin:0;line-height:1.2">{}</pre>'
    ).format(value, grid)


def prepare_connection(conn: Any, database: str, datasette: Any) -> None:
    """Datasette's `prepare_connection` hook: every connection to a served file refuses
    writes, the one Datasette keeps for writing included (its own in-memory database,
    `_internal`, has no file and stays writable)."""
    if datasette.get_database(database).path is not None:
        conn.execute("PRAGMA query_only = ON")


def _datasette() -> None:
    """Import Datasette (MissingExtra without the extra) and bend it, once, as the browser
    needs: this module's hooks registered as a plugin, error pages not printed to the console."""
    try:
        from datasette import hookimpl
        from datasette.plugins import pm
    except ImportError:
        raise MissingExtra("the results browser", "datasette", "browse") from None
    from datasette import handle_exception  # after datasette.plugins, which registers it

    # Datasette prints every error page's traceback, with its locals, when rich is installed
    # (a dependency of ours): each mistyped query would fill the console. Checked on 0.65.5.
    handle_exception.rich = None
    if pm.get_plugin(PLUGIN) is None:
        plugin = types.ModuleType(PLUGIN, "sudoku-batch: grids drawn, served files read-only")
        for hook in (render_cell, prepare_connection):
            vars(plugin)[hook.__name__] = hookimpl(hook)
        pm.register(plugin, name=PLUGIN)


def browser(path: Path) -> Any:
    """A Datasette instance serving the SQLite file at `path` (named for its stem), read-only,
    with the metadata, facets, canned queries and grids above."""
    _datasette()
    from datasette.app import Datasette

    return Datasette([str(path)], metadata=metadata(path.stem))  # mutable: opened mode=ro


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host`:`port` (port 0: any free one); OSError when it cannot be."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)


def serve(ds: Any, sock: socket.socket, url: str, open_browser: bool) -> None:
    """Serve `ds` on `sock` until interrupted, opening `url` in a web browser if asked."""
    import uvicorn

    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(ds.app(), log_level="warning", lifespan="on")
    # uvicorn stops on Ctrl-C, then raises it again: here it is the way to stop, not an error
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
