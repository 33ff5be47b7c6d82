"""A setting: one environment variable, declared once with its default, its reader and its help.

`worker.settings` declares every setting of sudoku-batch as a `Setting`, in one ordered table;
the reader functions, the worker's `Settings`, the list of variables and the table of
docs/guide/settings.md all come from those declarations. A value is read when it is used, so a
command reads only the settings it uses. A value that cannot be used raises `SettingsError`
naming the variable; a URL in the message is masked (`db.urls.mask_url`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from db.urls import mask_url
from worker.errors import SettingsError

T = TypeVar("T")


def raw(name: str) -> str | None:
    """The variable's value, None when it is unset or blank (then the default applies)."""
    value = os.environ.get(name, "").strip()
    return value or None


def text(name: str, value: str) -> str:
    """Any text, taken as given (a name)."""
    return value


@dataclass(frozen=True)
class Integer:
    """A whole number from `minimum` to `maximum` (None: no upper bound)."""

    minimum: int
    maximum: int | None = None

    def __call__(self, name: str, value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise SettingsError(f"{name}={value!r} is not an integer") from None
        if number < self.minimum or (self.maximum is not None and number > self.maximum):
            raise SettingsError(f"{name}={value!r} is out of range: expected {self.bounds}")
        return number

    @property
    def bounds(self) -> str:
        """The numbers taken, as the error message says them."""
        if self.maximum is None:
            return f"at least {self.minimum}"
        return f"{self.minimum} to {self.maximum}"


@dataclass(frozen=True)
class OneOf:
    """One of a few names, typed in any case."""

    choices: tuple[str, ...]

    def __call__(self, name: str, value: str) -> str:
        choice = value.lower()
        if choice not in self.choices:
            raise SettingsError(f"{name}={value!r}: expected one of {', '.join(self.choices)}")
        return choice


@dataclass(frozen=True)
class Url:
    """A URL that `problem` (why it cannot be used, None when it can) takes; a refused one is
    shown with its password masked."""

    problem: Callable[[str], str | None]

    def __call__(self, name: str, value: str) -> str:
        if problem := self.problem(value):
            raise SettingsError(f"{name}={mask_url(value)!r}: {problem}")
        return value


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One environment variable: the value used when it is unset or blank, how a value set is
    read and checked (`parse`: the variable's name and value to the value used, or
    SettingsError), and what it means: its row of docs/guide/settings.md, in Markdown (links
    relative to that page)."""

    variable: str
    default: T
    parse: Callable[[str, str], T]
    help: str
    shown: str | None = None  # the default as the docs show it, when not the value itself

    def read(self) -> T:
        """The value in use: the variable's, read and checked, or the default."""
        value = raw(self.variable)
        return self.default if value is None else self.parse(self.variable, value)
