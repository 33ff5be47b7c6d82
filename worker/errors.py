"""The errors the worker side raises on purpose, all under the project's root.

`sudoku-batch` turns each into one line and its exit code (`worker.cli.exits`); a program
using the packages catches `solver.SudokuBatchError` for all of them, or one subclass.
"""

from __future__ import annotations

from solver.errors import SudokuBatchError


class SettingsError(SudokuBatchError, ValueError):
    """A SUDOKU_* environment variable holds a value that cannot be used."""

