"""Rating tiers: how a puzzle's rating is made, and how it stands (no SQLAlchemy here).

Ratings are Sudoku Explainer's own by default: SE's chains are tried within a work budget
(``solver.work``). The bulk path gives every puzzle ``RatingPlan.bulk`` units, and a batch
``RatingPlan.batch`` in all, so that no batch nears its time limits; a puzzle that needs more
is stored at once with an interim estimate, its state ``pending``, and rated again alone within
``RatingPlan.deep`` (a ``deep`` batch). With ``exact`` off (``SUDOKU_RATING=fast``) SE's chains
are never tried: ratings past aligned pair exclusion (6.2) are estimates, and final.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import DEFAULT_PROFILE, SolveResult, work

# What a batch does: rate the lines of an import; rate puzzles again with today's settings
# (`sudoku-batch rerate`); rate the puzzles the bulk path left pending, within the deep budget.
BATCH_KINDS = ("import", "rerate", "deep")
IMPORT, RERATE, DEEP_BATCH = BATCH_KINDS
# How a solved puzzle's rating stands: Sudoku Explainer's own; an interim estimate waiting for
# the deep tier; or an estimate that stays (SE's chains off, beyond the deep budget, or beyond
# the rungs the profile has).
RATING_STATES = ("exact", "pending", "estimated")
EXACT, PENDING, ESTIMATED = RATING_STATES
# The work budget that made a result: SE's chains off, the bulk path's, or the deep tier's.
RATING_TIERS = ("fast", "bulk", "deep")
FAST, BULK, DEEP = RATING_TIERS
# SUDOKU_RATING: exact (SE's chains within the budgets), or fast (never tried).
RATING_MODES = ("exact", "fast")


@dataclass(frozen=True)
class RatingPlan:
    """How puzzles are rated: on ``profile``, exactly (SE's chains within ``bulk`` units a
    puzzle and ``batch`` a batch, then ``deep`` for what that leaves pending) or not at all."""

    profile: str = DEFAULT_PROFILE
    exact: bool = True
    bulk: int = work.BULK
    batch: int = work.BATCH
    deep: int = work.DEEP

    def tier(self, kind: str) -> str:
        """The tier a batch of ``kind`` is rated in."""
        if not self.exact:
            return FAST
        return DEEP if kind == DEEP_BATCH else BULK

    def budgets(self, kind: str) -> tuple[int, int | None]:
        """(work budget a puzzle, work budget the batch) for a batch of ``kind``."""
        tier = self.tier(kind)
        if tier == FAST:
            return 0, None
        if tier == DEEP:
            return self.deep, None  # a deep batch holds one puzzle: its own budget bounds it
        return self.bulk, self.batch


def rating_state(result: SolveResult, tier: str) -> str | None:
    """How the rating of ``result``, made in ``tier``, stands (None when it has none): pending
    when the bulk path's budget ran out, as the deep tier may then make it exact."""
    if result.rating_exact is None:
        return None
    if result.rating_exact:
        return EXACT
    return PENDING if result.over_budget and tier == BULK else ESTIMATED


DEFAULT_PLAN = RatingPlan()  # exact, on the default profile, with the default budgets
