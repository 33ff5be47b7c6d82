"""What long work shows a person: a live bar (done/total, rate, ETA) and a closing summary.

One rate, measured one way: a bar's `Meter` counts what was finished since the bar started and
divides by the seconds since then (a mean, not a recent window). The bar shows it while the
work goes on, the ETA assumes it, and the summary prints the same meter's figures.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
)
from rich.table import Column
from rich.text import Text


class Advance(Protocol):
    def __call__(
        self, n: int = 1, *, total: int | None = None, note: str | None = None
    ) -> None: ...


class Meter:
    """Units finished since a start time: how many, in how long, at what mean rate."""

    def __init__(self, noun: str) -> None:
        self.noun = noun
        self.count = 0
        self.started = time.monotonic()
        self.stopped: float | None = None

    @property
    def seconds(self) -> float:
        return (self.stopped or time.monotonic()) - self.started

    @property
    def rate(self) -> float | None:
        """Units per second since the start (None before the first one)."""
        seconds = self.seconds
        return self.count / seconds if self.count and seconds > 0 else None

    def stop(self) -> None:
        self.stopped = time.monotonic()

    def describe(self, verb: str) -> str:
        """`290 puzzles finished in 0.10 s, 3,011 puzzles/s`."""
        rate = f", {self.shown_rate()}" if self.rate else ""
        return f"{counted(self.count, self.noun)} {verb} in {duration(self.seconds)}{rate}"

    def shown_rate(self) -> str:
        """`3,011 puzzles/s`, `0.4 puzzles/s` (empty before the first one)."""
        rate = self.rate
        if rate is None:
            return ""
        return f"{rate:,.0f} {self.noun}s/s" if rate >= 10 else f"{rate:.1f} {self.noun}s/s"


class Bar:
    """`bar(n, total=..., note=...)` advances a live bar by n (and sets its total, and a note
    shown at the end of the line, such as a warning, until replaced; "" clears it); `meter`
    measures."""

    def __init__(self, progress: Progress, task: Any, meter: Meter) -> None:
        self._progress, self._task, self.meter = progress, task, meter

    def __call__(self, n: int = 1, *, total: int | None = None, note: str | None = None) -> None:
        self.meter.count += n
        self._progress.update(self._task, advance=n, total=total)
        if note is not None:
            self._progress.update(self._task, note=note)


@contextmanager
def bar(
    console: Console, description: str, total: int | None, noun: str, done: int = 0
) -> Iterator[Bar]:
    """A live progress bar starting at `done` of `total` (not counted in its rate); yields a
    `Bar`. Off a terminal only its last state is printed. A bar that never had anything to
    count (an empty file, a refused one) leaves no line behind."""
    meter = Meter(noun)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        _MeterColumn(meter),
        TextColumn("{task.fields[note]}", style="yellow", markup=False),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(description, total=total, completed=done, note="")
        try:
            yield Bar(progress, task, meter)
        finally:
            meter.stop()  # before the last frame is drawn, so it shows the final figures
            if not (done or meter.count or progress.tasks[0].total):
                progress.update(task, visible=False)
                progress.live.transient = True


class _MeterColumn(ProgressColumn):
    """`3,011 puzzles/s elapsed 0:01:02 eta 0:00:10`: the meter's rate, and the time left at
    that rate."""

    def __init__(self, meter: Meter) -> None:
        super().__init__(table_column=Column(no_wrap=True))
        self.meter = meter

    def render(self, task: Task) -> Text:
        rate = self.meter.rate
        left = "-:--:--"
        if task.finished:
            left = clock(0)
        elif rate and task.total is not None:
            left = clock((task.total - task.completed) / rate)
        shown = f"{self.meter.shown_rate()} " if rate else ""
        return Text(f"{shown}elapsed {clock(self.meter.seconds)} eta {left}")


def clock(secs: float) -> str:
    """H:MM:SS."""
    minutes, whole = divmod(int(secs), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{whole:02d}"


def duration(secs: float) -> str:
    """`0.10 s`, `12.3 s`, `1,234.5 s`."""
    return f"{secs:.2f} s" if secs < 10 else f"{secs:,.1f} s"


def plural(n: int, noun: str, many: str | None = None) -> str:
    """The noun for n of them: `puzzle` for 1, `puzzles` (or `many`) for any other n."""
    return noun if n == 1 else many or noun + "s"


def counted(n: int, noun: str, many: str | None = None) -> str:
    """`1 puzzle`, `2 puzzles`, `1,000 batches`: a count with its noun in the right number."""
    return f"{n:,} {plural(n, noun, many)}"
