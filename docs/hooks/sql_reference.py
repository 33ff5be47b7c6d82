"""MkDocs hook: the SQL reference's tables and view, generated from the schema's comments.

`docs/sql/tables.md` holds a marker line; the build replaces it with a section for every
table of `db.models.Base.metadata` (dependency order): the table's comment, then each column
with its PostgreSQL type, constraints and comment. `docs/sql/index.md` holds another, where
the columns of the view `puzzle_results` go (`db.views`: each shows a model column, with its
comment). The comments are the single source; this module only lays them out. A page that
has lost its marker fails the build.
"""

from __future__ import annotations

import html
from typing import Any

from mkdocs.exceptions import PluginError
from sqlalchemy import Column, Table, UniqueConstraint
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects.postgresql import ExcludeConstraint

from db.models import REFERS_TO, Base
from db.views import puzzle_results

TABLES_MARKER = (
    "<!-- sql-reference: the tables of db/models.py, generated here by "
    "docs/hooks/sql_reference.py -->"
)
VIEW_MARKER = (
    "<!-- sql-reference: the columns of the view, from db/views.py, generated here by "
    "docs/hooks/sql_reference.py -->"
)
# Characters Markdown or its extensions may read as syntax inside a table cell, written as
# numeric references so a comment shows exactly as it is stored.
_LITERAL = str.maketrans({c: f"&#{ord(c)};" for c in "\\`*_[]{}|#"})


def literal(text: str) -> str:
    """`text` as it must show, whatever Markdown would make of it."""
    return html.escape(text, quote=False).translate(_LITERAL)


def column_type(column: Column[Any]) -> str:
    """The column's type as PostgreSQL names it, with its constraints."""
    words = [str(column.type.compile(dialect=postgresql.dialect())).lower()]
    words += ["not null"] * (not column.nullable) + _unique(column) + _indexed(column)
    keys = ["PK"] * column.primary_key + [f"→ {fk.target_fullname}" for fk in column.foreign_keys]
    if REFERS_TO in column.info:
        keys.append(f"→ {column.info[REFERS_TO]}, kept by the code")
    return ", ".join(words) + (f" ({', '.join(keys)})" if keys else "")


def _unique(column: Column[Any]) -> list[str]:
    """["unique"] when no two rows hold the same value ("unique (hash)" where PostgreSQL holds
    that by an exclusion constraint on a hash index); [] otherwise."""
    for constraint in column.table.constraints:
        if isinstance(constraint, ExcludeConstraint) and list(constraint.columns) == [column]:
            return [f"unique ({constraint.using})"]
    single = (c for c in column.table.constraints if isinstance(c, UniqueConstraint))
    return ["unique"] if column.unique or any(list(c.columns) == [column] for c in single) else []


def _indexed(column: Column[Any]) -> list[str]:
    """["indexed"] (with its kind where PostgreSQL's is not a B-tree) when an index of its own
    holds every row's value of the column; [] otherwise."""
    for index in column.table.indexes:
        options = index.dialect_options["postgresql"]
        if list(index.columns) == [column] and options["where"] is None:
            return [f"indexed ({options['using']})" if options["using"] else "indexed"]
    return []


def columns_table(table: Table) -> list[str]:
    """A table's (or the view's) columns as the lines of a Markdown table."""
    rows = [f"| `{c.name}` | {column_type(c)} | {literal(c.comment or '')} |" for c in table.c]
    return ["| column | type | meaning |", "|---|---|---|", *rows]


def table_section(table: Table) -> str:
    """A table's heading, comment, columns and composite indexes, as Markdown."""
    together = [
        ", ".join(f"`{c.name}`" for c in index.columns)
        for index in sorted(table.indexes, key=lambda index: str(index.name))
        if len(index.columns) > 1
    ]
    extra = [f"Indexed together: {'; '.join(together)}.", ""] if together else []
    return "\n".join(
        [
            f"## `{table.name}` {{#{table.name}}}",
            "",
            literal(table.comment or ""),
            "",
            *columns_table(table),
            "",
            *extra,
        ]
    )


def tables_markdown() -> str:
    """Every table of the schema, in dependency order."""
    return "\n".join(table_section(table) for table in Base.metadata.sorted_tables)


def view_markdown() -> str:
    """The view's columns."""
    return "\n".join(columns_table(puzzle_results))


# Each generated page: its marker line, and what takes the marker's place.
GENERATED = {
    "sql/tables.md": (TABLES_MARKER, tables_markdown),
    "sql/index.md": (VIEW_MARKER, view_markdown),
}


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the generated tables where a page's marker stands."""
    if page.file.src_uri not in GENERATED:
        return markdown
    marker, generate = GENERATED[page.file.src_uri]
    if marker not in markdown:
        raise PluginError(f"{page.file.src_uri} has lost its marker line: {marker}")
    return markdown.replace(marker, generate())
