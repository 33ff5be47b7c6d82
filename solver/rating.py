"""Difficulty on the Sudoku Explainer (SE) scale, and its Sudoku Exchange label.

* Solved by the exact ladder (every rung up to SE's cycles and forcing chains and aligned
  triplet exclusion, tried within the chain budget): the SE value of the hardest step on the
  easiest-first path (``SCALE_BOTTOM`` when the puzzle has no empty cell).
* Beyond it (the puzzle needs our forcing chains, SE's beyond the budget, or search): an
  estimate from the position where the exact ladder stalled, ``ESTIMATE_BASE +
  ESTIMATE_SLOPE * (effort + CANDIDATE_WEIGHT * candidates)``, where ``effort`` is the mean
  of log2(1 + guesses) of a search from that position and of a few symmetric copies of it
  (``solver.effort``, uniqueness proof included) and ``candidates`` the number of candidates
  left there. Clamped to the floor of the ladder the climb could use (``search_floor``: 0.1
  above its top exact rung; ``SEARCH_FLOOR``, 0.1 above ``LADDER_CEILING``, when SE's chains
  are within the chain budget, 6.3, 0.1 above aligned pair exclusion, when they are not) and
  ``SCALE_TOP``, never below the hardest exact step taken, and monotone in both inputs.
  Constants fitted by least squares on the tuning part of se_rated_6k (benchmarks/rating.py
  holds the rest out).
* EP and ED, as SE computes them (``Solver.getDifficulty``): ED is the value of the first
  step; EP the hardest step up to and including the first step that places a digit (steps
  rated by estimate count at the puzzle's score).
* Labels: Sudoku Exchange's buckets of the score (``BUCKETS``, then ``TOP_BUCKET``), and
  ``SEARCH_LABEL`` for every puzzle that needs search, whatever its score.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.effort import mean_log_guesses
from solver.grid import POPCOUNT, Mask
from solver.ladder import (
    DEFAULT_PROFILE,
    ESTIMATED,
    EXACT_LADDER,
    EXACT_LADDERS,
    PROFILES,
    Step,
)

LADDER_CEILING = max(rung.value for rung in EXACT_LADDER)
SEARCH_FLOOR = round(LADDER_CEILING + 0.1, 1)


def search_floor(work_budget: int, profile: str = DEFAULT_PROFILE) -> float:
    """The estimate's floor: 0.1 above the top exact rung the climb could use (the profile's
    exact ladder, without SE's chains when the work budget is 0)."""
    rungs = [r for r in EXACT_LADDERS[profile] if work_budget > 0 or not r.se_chain]
    return round(max(rung.value for rung in rungs) + 0.1, 1)


# The floors the compiled core is handed: per profile (PROFILES' order), without and with chains.
SEARCH_FLOORS = tuple((search_floor(0, p), search_floor(1, p)) for p in PROFILES)
ESTIMATE_BASE = 4.05
ESTIMATE_SLOPE = 0.5
CANDIDATE_WEIGHT = 0.03
SCALE_TOP = 11.9
SCALE_BOTTOM = 1.0
BUCKETS = ((1.5, "easy"), (2.5, "medium"), (5.0, "hard"))  # (upper bound, label)
TOP_BUCKET = "diabolical"
SEARCH_LABEL = "extreme"
LABELS = (*(name for _, name in BUCKETS), TOP_BUCKET, SEARCH_LABEL)  # easiest first


def estimate(effort: float, candidates: int = 0, floor: float = SEARCH_FLOOR) -> float:
    """The score above the exact ladder: monotone in both inputs, within the scale (from
    ``floor``, the ladder's ``search_floor``)."""
    raw = ESTIMATE_BASE + ESTIMATE_SLOPE * (effort + CANDIDATE_WEIGHT * candidates)
    return round(min(SCALE_TOP, max(floor, raw)), 2)


def stalled_score(
    masks: list[Mask], budget: int, first: int | None = None, floor: float = SEARCH_FLOOR
) -> float:
    """The estimate for the position where the exact ladder stalled (``first``: the guesses
    of a search from that very position, when one was already made)."""
    candidates = sum(POPCOUNT[m] for m in masks if m & (m - 1))
    return estimate(mean_log_guesses(masks, budget, first), candidates, floor)


def rate(path: Sequence[Step], beyond: float | None) -> tuple[float, float, float]:
    """(score, EP, ED) of a solved puzzle from its path, and the estimate when the exact
    ladder stalled (None when it solved the puzzle)."""
    values = [
        beyond if beyond is not None and step.name in ESTIMATED else step.value for step in path
    ]
    top = max(values, default=SCALE_BOTTOM)
    score = top if beyond is None else max(top, beyond)
    ed = values[0] if values else score
    first = next((k for k, step in enumerate(path) if step.placed), None)
    ep = score if first is None else max(values[: first + 1])
    return score, ep, ed


def label(score: float, searched: bool) -> str:
    """The Sudoku Exchange bucket of a score, or ``extreme`` when search was needed."""
    if searched:
        return SEARCH_LABEL
    return next((name for limit, name in BUCKETS if score < limit), TOP_BUCKET)
