"""Tables a person reads: fitted to the width they are drawn at, never cut.

A table wider than the screen first wraps the headers that are wider than their values at
their underscores (`difficulty_` over `score`, so a header still reads as the column's name).
Still too wide, it shows each row as a record, one `column  value` line per column (psql's
expanded display), where only a value wider than the screen wraps. No cell is ever shortened
to `…`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.table import Table

from worker.files.export import text

UNLIMITED = 1_000_000  # columns: the width a table would take if it could


class FittedTable:
    """A titled table of values (numbers right-aligned, None as `-`), laid out when drawn."""

    def __init__(self, title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]):
        self.title = title
        self.columns = list(columns)
        self.numeric = [any(_is_number(row[i]) for row in rows) for i in self._indices]
        self.cells = [[cell(value) for value in row] for row in rows]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        widths = [max((cell_len(row[i]) for row in self.cells), default=1) for i in self._indices]
        wrapped = [wrap_name(c, w) for c, w in zip(self.columns, widths, strict=True)]
        unlimited = options.update_width(UNLIMITED)
        for headers in (self.columns, wrapped):
            table = self._table(headers)
            if Measurement.get(console, unlimited, table).maximum <= options.max_width:
                yield table
                return
        for number, row in enumerate(self.cells, 1):
            yield self._record(f"{self.title}, row {number} of {len(self.cells)}", row)

    @property
    def _indices(self) -> range:
        return range(len(self.columns))

    def _table(self, headers: Sequence[str]) -> Table:
        out = Table(
            title=self.title,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            collapse_padding=True,
        )
        for header, numeric in zip(headers, self.numeric, strict=True):
            out.add_column(header, justify="right" if numeric else "left", overflow="fold")
        for row in self.cells:
            out.add_row(*row)
        return out

    def _record(self, title: str, row: Sequence[str]) -> Table:
        out = Table(title=title, title_justify="left", box=None, show_header=False, pad_edge=False)
        out.add_column(no_wrap=True, style="bold")
        out.add_column(overflow="fold")
        for name, value in zip(self.columns, row, strict=True):
            out.add_row(name, value)
        return out


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> FittedTable:
    """A table of `rows` (one value per column) under `title`."""
    return FittedTable(title, columns, rows)


def wrap_name(name: str, width: int) -> str:
    """A column name over as few lines as fit in `width` (or its longest part), broken after
    underscores: `difficulty_score` in 10 columns is `difficulty_` over `score`."""
    parts = [part + "_" for part in name.split("_")]
    parts[-1] = parts[-1][:-1]
    width = max(width, *(len(part) for part in parts))
    lines = [""]
    for part in parts:
        if lines[-1] and len(lines[-1]) + len(part) > width:
            lines.append("")
        lines[-1] += part
    return "\n".join(lines)


def cell(value: Any) -> str:
    """A value as a table shows it: None as `-`, numbers with thousands separators, floats to
    two decimals, the rest as the exports write it (true/false, JSON objects as JSON)."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if _is_number(value):
        return f"{value:,}"
    return text(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
