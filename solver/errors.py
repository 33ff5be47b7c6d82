"""The project's error root, and the solver's own errors.

Every error sudoku-batch raises on purpose derives from ``SudokuBatchError``, so a program
using it (or the command line) can catch them all in one place; each layer adds the
subclasses its callers catch (``db.errors``, ``worker.errors``). The root lives in the solver
because the solver is the one package every other one may import.
"""

from __future__ import annotations


class SudokuBatchError(Exception):
    """Base of every error sudoku-batch raises on purpose."""


class PuzzleFormatError(SudokuBatchError, ValueError):
    """A puzzle that is not 81 cells of digits and empty markers.

    ``column`` is the 1-based position of the offending character in the text as given, or
    None when the problem is the length.
    """

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.column = column


class SolverBug(SudokuBatchError, AssertionError):
    """The solver produced a grid that fails the independent check: never returned."""
