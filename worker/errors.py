"""The errors the worker side raises on purpose, all under the project's root.

`sudoku-batch` turns each into one line and its exit code (`worker.cli.exits`); a program
using the packages catches `solver.SudokuBatchError` for all of them, or one subclass.
"""

from __future__ import annotations

from pathlib import Path

from solver.errors import SudokuBatchError


class SettingsError(SudokuBatchError, ValueError):
    """A SUDOKU_* environment variable holds a value that cannot be used."""


class SourceError(SudokuBatchError, ValueError):
    """The file as a whole cannot be read, say a CSV header without a puzzle column."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}, line {line}: {message}")
        self.path = path
        self.line = line


class BrokerUnavailable(SudokuBatchError):
    """The broker does not answer (the message shows its URL with the password masked)."""


class MessageError(SudokuBatchError, ValueError):
    """A message that does not carry a well-formed batch (never retried)."""


class OutputError(SudokuBatchError):
    """A file cannot be written where the user asked (a missing folder, no permission)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = path


class MissingExtra(SudokuBatchError, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""

    def __init__(self, what: str, module: str, extra: str) -> None:
        super().__init__(f"{what} needs {module}: pip install 'sudoku-batch[{extra}]'")
        self.extra = extra
