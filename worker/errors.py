"""The errors the worker side raises on purpose, all under the project's root.

`sudoku-batch` turns each into one line (`worker.cli.failure`) and its exit code
(`worker.exits`); a program using the packages catches `solver.SudokuBatchError` for all of
them, or one subclass.
"""

from __future__ import annotations

from pathlib import Path

from solver.errors import SudokuBatchError


class SettingsError(SudokuBatchError, ValueError):
    """A SUDOKU_* environment variable holds a value that cannot be used."""


class SourceError(SudokuBatchError, ValueError):
    """The file as a whole cannot be read: it is missing, a folder, not text, or a CSV whose
    header has no puzzle column. Worded `PATH:LINE: message` (`PATH: message` without a
    line), as compilers word theirs, so that editors and terminals jump to it."""

    def __init__(self, path: Path, line: int | None, message: str) -> None:
        super().__init__(f"{where(path, line)}: {message}")
        self.path = path
        self.line = line
        self.message = message

    def __reduce__(self) -> tuple[type[SourceError], tuple[Path, int | None, str]]:
        """Rebuilt whole in the parent (raised in the process reading a file, reported there)."""
        return SourceError, (self.path, self.line, self.message)


def where(path: Path | str, line: int | None = None, column: int | None = None) -> str:
    """`PATH:LINE:COLUMN` (as much of it as is known): a place in a file, as editors take it."""
    return ":".join(str(part) for part in (path, line, column) if part is not None)


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
    """An optional dependency is not installed; the message names the extra that brings it, as
    installed from a clone (an editable install of the repository) and from a package index."""

    def __init__(self, what: str, module: str, extra: str) -> None:
        super().__init__(
            f"{what} needs {module}: pip install -e '.[{extra}]' in a clone of the repository, "
            f"or pip install 'sudoku-batch[{extra}]'"
        )
        self.extra = extra
