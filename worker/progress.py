"""What long work shows a person: a live bar (done/total, rate, ETA), counts in words."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

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


class Advance(Protocol):
    def __call__(self, n: int = 1, *, total: int | None = None) -> None: ...


@contextmanager
def bar(console: Console, description: str, total: int | None, unit: str) -> Iterator[Advance]:
    """A live progress bar; yields `advance(n, total=...)`. Quiet when not on a terminal."""
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
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(description, total=total, rate="")

        def advance(n: int = 1, *, total: int | None = None) -> None:
            if total is not None:
                progress.update(task, total=total)
            progress.advance(task, n)
            speed = progress.tasks[task].speed
            progress.update(task, rate=f"{speed:,.0f} {unit}/s" if speed else "")

        yield advance


def plural(n: int, noun: str, many: str | None = None) -> str:
    """The noun for n of them: `puzzle` for 1, `puzzles` (or `many`) for any other n."""
    return noun if n == 1 else many or noun + "s"


def counted(n: int, noun: str, many: str | None = None) -> str:
    """`1 puzzle`, `2 puzzles`, `1,000 batches`: a count with its noun in the right number."""
    return f"{n:,} {plural(n, noun, many)}"
