"""The work budget: how much of Sudoku Explainer's chains one puzzle's rating may do.

SE's cycles, forcing chains and nested forcing chains cost from microseconds to minutes a step,
so a count of steps bounds nothing. Work does: it is counted in *units*, charged for what the
chains do, the same in the reference and in the compiled core, so that the same puzzle with the
same budget always gets the same answer, whatever the machine or its load:

* ``RUN``: a run of implications from one assumption (``solver.forcing.implications``, and the
  runs of every chain nested in it);
* ``STALL``: the rules a chain "(+)" or a nested chain applies where its run stalls
  (``solver.nested.eliminations``);
* ``CYCLES``: the search of SE's cycles and forcing chains of one assumption on a position
  (charged by the first of their five rungs, which the others share);
* ``EVERY_CYCLE``: every hint of those, for a nested chain of level 2 or 3
  (``solver.cycles.every_hint``);
* ``TRIPLET``: aligned triplet exclusion on a position.

The charges are in proportion to what each costs the compiled core, so a unit is worth about the
same time whatever it counts: ``benchmarks/work.py`` measures it (``UNIT_SECONDS``: about a
microsecond on the machine the defaults were chosen on; docs/rating/exact.md).
A charge is made before the work it pays for: a climb whose budget runs out abandons the step it
was looking for, tries none of SE's chains again and ends on the estimate (``Budget.spent``);
a larger budget may then rate it exactly.

The budgets (``BULK``, ``BATCH``, ``DEEP``) are the settings' defaults (``worker.settings``):
the bulk path rates every puzzle within ``BULK`` and a batch within ``BATCH`` in all, so no batch
nears its time limits; a puzzle that needs more is rated again, alone, within ``DEEP``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from functools import lru_cache, wraps
from typing import TypeVar

RUN = 2
STALL = 20
CYCLES = 110
EVERY_CYCLE = 50
TRIPLET = 10
# The charges in the order the compiled core takes them (its table "work_charges").
CHARGES = (RUN, STALL, CYCLES, EVERY_CYCLE, TRIPLET)

UNIT_SECONDS = 1e-6  # about what a unit costs the compiled core (benchmarks/work.py)
BULK = 250_000  # a puzzle on the bulk path: about 0.25 s
BATCH = 30_000_000  # a batch on the bulk path, all its puzzles together: about 30 s
DEEP = 60_000_000  # a puzzle rated again, alone: about 60 s
DEFAULT = DEEP  # a puzzle rated alone (solver.solve, sudoku-batch solve and explain)
MAX_BUDGET = 1 << 40  # no puzzle could spend it: the settings' bound


class WorkSpent(Exception):
    """The budget of the climb under way ran out (raised by ``charge``)."""


class Budget:
    """The work one climb may do: ``units`` (0: SE's chains are never tried), or less when a
    batch has less ``left`` in all; what is ``left`` of it, and whether it ran out (``spent``).
    A ``gate``, asked once before the first chain rung is tried, may turn SE's chains off for
    the climb (``solver.engine``: a puzzle proved not to have one solution, whose rating they
    could never make)."""

    __slots__ = ("gate", "left", "on", "spent", "start")

    def __init__(self, units: int, batch_left: int | None = None) -> None:
        check_budget(units)
        self.on = units > 0
        self.start = self.left = units if batch_left is None else max(0, min(units, batch_left))
        self.spent = False
        self.gate: Callable[[], bool] | None = None

    @property
    def used(self) -> int:
        """The units charged so far (all of them once it is spent)."""
        return self.start - self.left


def check_budget(units: int, name: str = "work_budget") -> int:
    """The work budget, if it is within 0..MAX_BUDGET; ValueError naming it otherwise."""
    if not 0 <= units <= MAX_BUDGET:
        raise ValueError(f"{name} must be between 0 and {MAX_BUDGET}")
    return units


_UNLIMITED = Budget(MAX_BUDGET)
_current = _UNLIMITED  # the budget charges go to (one climb at a time: the solver is not threaded)


def charge(units: int) -> None:
    """Charge the budget under way; WorkSpent when it runs out."""
    budget = _current
    budget.left -= units
    if budget.left < 0:
        budget.left, budget.spent = 0, True
        raise WorkSpent


def current() -> Budget:
    """The budget charges go to now."""
    return _current


@contextmanager
def charging(budget: Budget) -> Iterator[Budget]:
    """Charges go to ``budget`` inside the block."""
    global _current
    outer, _current = _current, budget
    try:
        yield budget
    finally:
        _current = outer


K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


def charged_cache(maxsize: int) -> Callable[[Callable[[K], R]], Callable[[K], R]]:
    """``functools.lru_cache`` for work that charges, of one hashable argument: a call answered
    from the cache charges what computing it charged, so a cache never changes what a budget
    buys."""

    def decorate(compute: Callable[[K], R]) -> Callable[[K], R]:
        @lru_cache(maxsize=maxsize)
        def costed(key: K) -> tuple[R, int]:
            with charging(Budget(MAX_BUDGET)) as budget:
                out = compute(key)
            return out, budget.used

        @wraps(compute)
        def call(key: K) -> R:
            out, cost = costed(key)
            charge(cost)
            return out

        return call

    return decorate
