"""What the solver returns: frozen dataclasses of plain values, with ``to_dict`` for JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

Status = Literal["solved", "multiple", "unsolvable", "invalid", "gave_up"]
STATUSES: tuple[Status, ...] = ("solved", "multiple", "unsolvable", "invalid", "gave_up")
SOLVED: Status = STATUSES[0]  # the one status with a solution (unique: proved by the search)


@dataclass(frozen=True)
class Metrics:
    """How the puzzle was solved: techniques used and search effort.

    ``technique_counts`` lists only the techniques that fired, in ladder order.
    ``recursion_depth``, ``guesses``, ``backtracks`` and ``nodes`` are 0 without search.
    ``work`` is the units of work SE's chains took (``solver.work``; all of the budget when it
    ran out).
    """

    solved_by_elimination: bool = False
    hardest_technique: str | None = None
    technique_counts: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    recursion_depth: int = 0
    guesses: int = 0
    backtracks: int = 0
    givens: int = 0
    nodes: int = 0
    work: int = 0

    def __post_init__(self) -> None:
        counts = MappingProxyType(dict(self.technique_counts))
        object.__setattr__(self, "technique_counts", counts)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values."""
        return {
            "solved_by_elimination": self.solved_by_elimination,
            "hardest_technique": self.hardest_technique,
            "technique_counts": dict(self.technique_counts),
            "recursion_depth": self.recursion_depth,
            "guesses": self.guesses,
            "backtracks": self.backtracks,
            "givens": self.givens,
            "nodes": self.nodes,
            "work": self.work,
        }


@dataclass(frozen=True)
class SolveResult:
    """The outcome for one puzzle (see docs/architecture.md, section ``solver``).

    ``ep`` and ``ed`` are Sudoku Explainer's companions of the score (docs/rating/score.md): ED
    the value of the first step, EP the hardest step up to the first placement; None
    whenever ``difficulty_score`` is. ``rating_exact`` says whether the three are Sudoku
    Explainer's own (every step of the path a rung rated by its SE value) or an estimate
    (the puzzle needed a rung rated by estimate, or search); None when unrated.
    ``over_budget`` says that the estimate is there because the work budget ran out before SE's
    chains could rate the puzzle (``solver.work``): a larger budget may make it exact.
    """

    puzzle: str
    status: Status
    solution: str | None
    reason: str | None
    metrics: Metrics
    difficulty_score: float | None
    difficulty: str | None
    ep: float | None = None
    ed: float | None = None
    rating_exact: bool | None = None
    over_budget: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values; ``metrics`` as a nested dict."""
        return {
            "puzzle": self.puzzle,
            "status": self.status,
            "solution": self.solution,
            "reason": self.reason,
            "metrics": self.metrics.to_dict(),
            "difficulty_score": self.difficulty_score,
            "difficulty": self.difficulty,
            "ep": self.ep,
            "ed": self.ed,
            "rating_exact": self.rating_exact,
            "over_budget": self.over_budget,
        }
