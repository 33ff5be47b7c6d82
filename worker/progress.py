"""What long work shows a person: a live bar (done/total, rate, ETA) and a closing summary."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table


class Advance(Protocol):
    def __call__(
        self, n: int = 1, *, total: int | None = None, note: str | None = None
    ) -> None: ...


@contextmanager
def bar(console: Console, description: str, total: int | None, unit: str) -> Iterator[Advance]:
    """A live progress bar; yields `advance(n, total=..., note=...)` (a note, such as a
    warning, is shown at the end of the line until replaced; "" clears it). Quiet when not
    on a terminal."""
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[note]}", style="yellow", markup=False),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(description, total=total, rate="", note="")

        def advance(n: int = 1, *, total: int | None = None, note: str | None = None) -> None:
            if total is not None:
                progress.update(task, total=total)
            if note is not None:
                progress.update(task, note=note)
            progress.advance(task, n)
            speed = progress.tasks[task].speed
            progress.update(task, rate=f"{speed:,.0f} {unit}/s" if speed else "")

        yield advance


def table(title: str, columns: list[str], rows: list[list[Any]]) -> Table:
    """A plain summary table."""
    out = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        numeric = any(isinstance(row[index], int | float) for row in rows)
        out.add_column(column, justify="right" if numeric else "left")
    for row in rows:
        out.add_row(*(_cell(value) for value in row))
    return out


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
