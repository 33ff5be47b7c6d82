"""Exit codes (docs/guide/commands.md), and the one place where errors become them.

`0` everything was solved; `1` a file could not be read, batches failed, or another runtime
problem (the database unreachable or not migrated, an optional package missing); `2` a usage
error (a bad option or argument, or a bad SUDOKU_* setting); `3` everything ran but some
lines were rejected; `4` a file held no puzzle line (empty, or only blank lines and comments:
nothing imported from it); `130` interrupted (what was stored is kept).

The command line ends with them (`worker.cli.failure`), and so does a worker that refuses to
start (`worker.startup`): the codes are the program's, not one layer's.
"""

from __future__ import annotations

from solver.errors import PuzzleFormatError, SudokuBatchError
from worker.errors import SettingsError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2  # click's own code for a bad option or argument
EXIT_REJECTED = 3
EXIT_EMPTY = 4  # a file held no puzzle line: nothing imported from it
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C

# The project's errors by exit code: the first class an error is an instance of decides.
EXIT_CODES: tuple[tuple[type[SudokuBatchError], int], ...] = (
    (SettingsError, EXIT_USAGE),
    (PuzzleFormatError, EXIT_USAGE),  # the PUZZLE argument of `solve`
    (SudokuBatchError, EXIT_FAILED),
)


def exit_code_of(error: SudokuBatchError) -> int:
    """The documented exit code of one of the project's errors."""
    return next(code for kind, code in EXIT_CODES if isinstance(error, kind))
