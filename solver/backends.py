"""Which solver runs: the compiled core (``solver._core``, built from ``solver/core/*.c``) when
it was built, else the pure-Python reference (``solver.engine``). Both give identical results.

``backend()`` names the one in use. ``solve`` and ``solve_many`` dispatch to it; the batch
entry point crosses into the compiled core once per batch, not once per puzzle.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence

from solver import canon, engine, minimal, path, work
from solver.errors import PuzzleFormatError
from solver.ladder import DEFAULT_PROFILE, apply_rung, check_profile
from solver.result import SolveResult
from solver.search import DEFAULT_NODE_BUDGET

Puzzle = str | Sequence[int]

log = logging.getLogger("solver")

try:
    from solver import native
except ImportError as exc:  # no C compiler at install time, or a broken build
    native = None  # type: ignore[assignment]
    _WHY = (
        "solver._core was not built (no C compiler at install time?)"
        if isinstance(exc, ModuleNotFoundError)
        else f"solver._core does not load: {exc}"
    )
else:
    _WHY = ""


def backend() -> str:
    """``"native"`` when the compiled core is in use, ``"python"`` for the reference solver."""
    return _active


def available() -> tuple[str, ...]:
    """The backends this installation has: ``("native", "python")`` or ``("python",)``."""
    return ("python",) if native is None else ("native", "python")


def unavailable_reason() -> str:
    """Why the compiled core is not available ('' when it is)."""
    return _WHY


def use_backend(name: str) -> None:
    """Select ``"native"``, ``"python"`` or ``"auto"`` (native when built) for this process."""
    global _active
    if name == "auto":
        name = available()[0]
    if name not in available():
        why = f" ({_WHY})" if name == "native" else ""
        raise ValueError(f"solver backend {name!r} is not available{why}; have {available()}")
    _active = name


def solve(
    puzzle: Puzzle,
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    profile: str = DEFAULT_PROFILE,
    work_budget: int = work.DEFAULT,
) -> SolveResult:
    """Solve, prove uniqueness and rate one puzzle (see ``solver.engine.solve``)."""
    if _active == "python":
        return engine.solve(
            puzzle, node_budget=node_budget, profile=profile, work_budget=work_budget
        )
    return native.solve_many(
        [puzzle],
        node_budget=node_budget,
        profile=profile,
        work_budget=work_budget,
        name_index=False,
    )[0][0]


def solve_many(
    puzzles: Sequence[Puzzle],
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    profile: str = DEFAULT_PROFILE,
    work_budget: int = work.DEFAULT,
    batch_budget: int | None = None,
) -> list[SolveResult]:
    """``solve`` for every puzzle of a batch, in order (PuzzleFormatError on a malformed one,
    naming its index)."""
    timed = solve_many_timed(
        puzzles,
        node_budget=node_budget,
        profile=profile,
        work_budget=work_budget,
        batch_budget=batch_budget,
    )
    return [result for result, _ in timed]


def solve_many_timed(
    puzzles: Sequence[Puzzle],
    *,
    node_budget: int = DEFAULT_NODE_BUDGET,
    profile: str = DEFAULT_PROFILE,
    work_budget: int = work.DEFAULT,
    batch_budget: int | None = None,
) -> list[tuple[SolveResult, float]]:
    """``solve_many`` with the seconds each puzzle took. Each puzzle's rating may do
    ``work_budget`` units of work, and all of them together ``batch_budget`` (None: no bound),
    each taking what it used from it in order: a puzzle left with less than its own budget ends
    ``over_budget`` sooner (with none left, SE's chains are still on for it, spent at once:
    ``engine.solve_within``)."""
    check_profile(profile)
    work.check_budget(work_budget)
    if batch_budget is not None:
        work.check_budget(batch_budget, "batch_budget")
    if _active == "native":
        return native.solve_many(
            puzzles,
            node_budget=node_budget,
            profile=profile,
            work_budget=work_budget,
            batch_budget=batch_budget,
        )
    timed = []
    left = batch_budget
    for k, puzzle in enumerate(puzzles):
        started = time.perf_counter()
        chains = work.Budget(work_budget, left)
        try:
            result = engine.solve_within(puzzle, chains, node_budget=node_budget, profile=profile)
        except PuzzleFormatError as exc:
            raise PuzzleFormatError(f"puzzle {k}: {exc}", exc.column) from exc
        timed.append((result, time.perf_counter() - started))
        if left is not None:
            left -= chains.used
    return timed


def canonical_many(puzzles: Sequence[Puzzle]) -> list[str]:
    """The canonical (minlex) form of each puzzle (``solver.canon``), in order
    (PuzzleFormatError on a malformed one, naming its index)."""
    if _active == "native":
        return native.canonical_many(puzzles)
    forms = []
    for k, puzzle in enumerate(puzzles):
        try:
            forms.append(canon.canonical(puzzle))
        except PuzzleFormatError as exc:
            raise PuzzleFormatError(f"puzzle {k}: {exc}", exc.column) from exc
    return forms


def canonical_forms(puzzles: Iterable[str]) -> dict[str, str]:
    """Each distinct puzzle's canonical form, by its text (``canonical_many`` once for each:
    a repeat costs nothing)."""
    distinct = list(dict.fromkeys(puzzles))
    return dict(zip(distinct, canonical_many(distinct), strict=True))


def keyed_forms(puzzles: Iterable[str]) -> dict[str, tuple[str, int]]:
    """Each distinct puzzle's canonical form and that form's key (``canon.canonical_key``),
    by its text."""
    return {p: (form, canon.canonical_key(form)) for p, form in canonical_forms(puzzles).items()}


def canonical(puzzle: Puzzle) -> str:
    """The canonical (minlex) form of one puzzle: equal for two puzzles exactly when one is
    the other under a symmetry and a relabelling of the digits (``solver.canon``)."""
    if _active == "native":
        return native.canonical_many([puzzle])[0]
    return canon.canonical(puzzle)


def solving_path(
    puzzle: Puzzle, *, profile: str = DEFAULT_PROFILE, work_budget: int = work.DEFAULT
) -> path.SolvingPath:
    """The steps of the ladder's climb on one puzzle (see ``solver.path.solving_path``), each
    rung applied by the backend in use."""
    step = apply_rung if _active == "python" else native.apply_rung
    return path.solving_path(puzzle, profile=profile, work_budget=work_budget, step=step)


def minimal_many(
    puzzles: Sequence[Puzzle], solutions: Sequence[str | None] | None = None
) -> list[bool | None]:
    """Whether each puzzle is minimal (``solver.minimal``), in order (PuzzleFormatError on a
    malformed one, naming its index). ``solutions``: each puzzle's one solution when a solve
    proved it (status solved), or None; the uniqueness search is then not run again."""
    if _active == "native":
        return native.minimal_many(puzzles, solutions)
    known = [None] * len(puzzles) if solutions is None else list(solutions)
    if len(known) != len(puzzles):
        raise ValueError("give one solution (or None) per puzzle")
    answers = []
    for k, puzzle in enumerate(puzzles):
        try:
            answers.append(minimal.is_minimal(puzzle, known[k]))
        except PuzzleFormatError as exc:
            raise PuzzleFormatError(f"puzzle {k}: {exc}", exc.column) from exc
    return answers


def is_minimal(puzzle: Puzzle) -> bool | None:
    """Whether every given of the puzzle is needed for its uniqueness; None when it does not
    have exactly one solution (``solver.minimal``)."""
    if _active == "native":
        return native.minimal_many([puzzle])[0]
    return minimal.is_minimal(puzzle)


_active = available()[0]
if native is None:
    # The one line that says so; a forked pool process inherits the module and stays quiet.
    log.warning(
        "solver: compiled core not available (%s); using the pure-Python solver "
        "(same results, much slower: see docs/guide/compiled-core.md)",
        _WHY,
    )
