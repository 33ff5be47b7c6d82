"""How a command ends on an error: one line on stderr and its documented exit code.

The codes and which error gets which are `worker.exits`, shared with the worker process,
which refuses to start with the same codes; here the command line prints and exits with them.
"""

from __future__ import annotations

from typing import Any, NoReturn

import click

from solver.errors import SudokuBatchError
from worker.exits import EXIT_FAILED, EXIT_INTERRUPTED, exit_code_of

INTERRUPTED = "interrupted: what was stored is kept; run the same command again"


def fail(message: str, code: int = EXIT_FAILED) -> NoReturn:
    """Print `error: <message>` as one line on stderr and exit with `code`."""
    line = " ".join(part.strip() for part in message.splitlines())
    click.echo(f"error: {line}", err=True)
    raise SystemExit(code)


class Commands(click.Group):
    """The `sudoku-batch` group: any of the project's errors ends a command as one line and
    its exit code, an interrupt as one line and 130; anything else is a bug, with its
    traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SudokuBatchError as exc:
            fail(str(exc), exit_code_of(exc))
        except KeyboardInterrupt:
            click.echo(f"\n{INTERRUPTED}", err=True)
            raise SystemExit(EXIT_INTERRUPTED) from None
