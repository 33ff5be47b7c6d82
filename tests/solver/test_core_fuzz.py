"""Malformed input thrown at the compiled core: it answers or raises a clean error, never
crashes, and behind the API it fails exactly when the reference does, with the same words.

Raw (``solver._core.solve_many(texts, node_budget)``): any argument gives a list with, per
text, ``(SolveResult, seconds)`` or None ("not the plain form"), or raises TypeError,
ValueError or OverflowError; a result it gives is the reference's for that text. Behind
``solver.native.solve_many``: the outcome (result, or error type, message and column) equals
``solver.engine.solve``'s for any item.
"""

from __future__ import annotations

import gc
import os
import sys
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.errors import PuzzleFormatError
from solver.grid import EMPTY_CHARS, parse
from solver.result import SolveResult
from tests.conftest import UNDER_CI
from tests.solver import grids
from tests.solver.parity import fields, native_outcome, reference_outcome, report

RAW_ERRORS = (TypeError, ValueError, OverflowError)
# Hypothesis examples per property: CI digs deeper; SUDOKU_TEST_EXAMPLES overrides both.
EXAMPLES = int(os.environ.get("SUDOKU_TEST_EXAMPLES", 500 if UNDER_CI else 100))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
VALID = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ODD_CHARS = ("\x00", "\x7f", "\x80", "\xff", "\u0100", "\ufeff", "\u200b", "\uffff", "\U0010ffff")

puzzle_texts = grids.holed(17).flatmap(grids.as_text)
budgets = st.one_of(
    st.sampled_from([*grids.BUDGETS, *grids.EDGE_BUDGETS]),
    st.integers(-(2**63), 2**63 - 1),
)
counts = budgets.filter(lambda b: b >= 0)
huge_budgets = st.sampled_from([2**63, 2**64, 2**64 + 1, -(2**63) - 1, 10**30, -(10**30)])


@st.composite
def padded(draw: st.DrawFn) -> str:
    """A valid puzzle with whitespace, Unicode whitespace or odd characters around it."""
    around = st.text(st.sampled_from(grids.WHITESPACE + ODD_CHARS), max_size=4)
    return draw(around) + draw(puzzle_texts) + draw(around)


@st.composite
def one_char_changed(draw: st.DrawFn) -> str:
    """A valid puzzle with one cell replaced by any character at all (high code points too)."""
    text = draw(puzzle_texts).strip()
    at = draw(st.integers(0, len(text) - 1))
    char = draw(st.one_of(st.characters(), st.sampled_from(ODD_CHARS)))
    return text[:at] + char + text[at + 1 :]


@st.composite
def long_texts(draw: st.DrawFn) -> str:
    """A very long line: one character repeated, or a puzzle repeated, up to 200,000."""
    size = draw(st.integers(82, 200_000))
    unit = draw(st.one_of(st.sampled_from(["1", ".", " ", "\x00", "\U0010ffff"]), puzzle_texts))
    return (unit * (size // len(unit) + 1))[:size]


texts = st.one_of(
    st.text(),
    st.text(st.sampled_from("123456789" + EMPTY_CHARS + " \t\n"), min_size=75, max_size=90),
    st.text(st.characters(min_codepoint=0x80), max_size=90),
    puzzle_texts,
    padded(),
    one_char_changed(),
    long_texts(),
    st.sampled_from([c * 81 for c in EMPTY_CHARS + "\x00"]),
)


class Text(str):
    """A str subclass: still text to the core."""


@st.composite
def cell_lists(draw: st.DrawFn) -> list[Any]:
    """Lists of cells that are not a grid: wrong length, or holding 10, -1, True, floats."""
    length = draw(st.sampled_from([0, 1, 80, 81, 81, 81, 82]))
    cells: list[Any] = list(draw(grids.holed(17)))[:length]
    cells += [0] * (length - len(cells))
    for _ in range(draw(st.integers(0, 3))):
        if cells:
            bad = draw(st.sampled_from([10, -1, True, False, 1.0, 2.5, None, "1", 2**70]))
            cells[draw(st.integers(0, len(cells) - 1))] = bad
    return cells


items = st.one_of(
    texts,
    texts.map(Text),
    st.none(),
    st.integers(),
    st.floats(),
    puzzle_texts.map(str.encode),
    st.binary(max_size=100),
    puzzle_texts.map(lambda t: bytearray(t.encode())),
    cell_lists(),
    cell_lists().map(tuple),
    st.just(object()),
)
not_lists = st.one_of(
    st.none(),
    st.integers(),
    st.just(VALID),
    st.just(VALID.encode()),
    st.just((VALID, VALID)),
    st.just({VALID: 1}),
    st.just({VALID}),
    st.just(iter([VALID])),
    st.builds(lambda: (t for t in [VALID])),
)


def raw_call(core: ModuleType, *args: Any) -> list[Any] | None:
    """``core.solve_many(*args)``; None when it raises one of the clean errors."""
    try:
        out = core.solve_many(*args)
    except RAW_ERRORS:
        return None
    assert isinstance(out, list), f"solve_many returned {type(out).__name__}"
    return out


def check_raw_results(puzzles: list[Any], out: list[Any], budget: int) -> None:
    """One entry per item; None, or (SolveResult, seconds) with the reference's result for
    that text (an invalid puzzle's reason aside: the API words it, in Python)."""
    assert len(out) == len(puzzles)
    for k, (puzzle, raw) in enumerate(zip(puzzles, out, strict=True)):
        if raw is None:
            continue
        assert isinstance(puzzle, str), f"item {k}: a result for a {type(puzzle).__name__}"
        assert isinstance(raw, tuple), f"item {k}: {type(raw).__name__}"
        result, seconds = raw
        assert isinstance(result, SolveResult), f"item {k}: {type(result).__name__}"
        assert isinstance(seconds, float), f"item {k}: seconds {seconds!r}"
        assert seconds >= 0, f"item {k}: seconds {seconds!r}"
        parse(puzzle)  # the core reads only what the reference parser accepts
        got, expected = fields(result), reference_outcome(puzzle, budget)
        if got["status"] == "invalid":
            got["reason"] = expected.get("reason")
        found = report(f"raw item {k}, node_budget={budget}", puzzle, got, expected)
        if found:
            pytest.fail(found)


@FUZZ
@given(st.lists(texts, max_size=6), st.one_of(counts, huge_budgets.filter(lambda b: b > 0)))
def test_the_raw_core_answers_any_texts_with_results_or_none(
    core: ModuleType, puzzles: list[str], budget: int
) -> None:
    """Any strings, any budget from 0 up: a list with a result (the reference's) or None
    for each."""
    out = raw_call(core, puzzles, budget)
    assert out is not None, "the core refused a list of str with a budget from 0 up"
    check_raw_results(puzzles, out, budget)


@FUZZ
@given(st.lists(texts, max_size=3), st.one_of(budgets, huge_budgets).filter(lambda b: b < 0))
def test_the_raw_core_refuses_a_negative_budget_with_a_value_error(
    core: ModuleType, puzzles: list[str], budget: int
) -> None:
    """A negative node budget, however large: ValueError, as the reference raises."""
    with pytest.raises(ValueError, match="node_budget must not be negative"):
        core.solve_many(puzzles, budget)


@FUZZ
@given(st.lists(items, max_size=6), st.one_of(budgets, huge_budgets, st.floats(), st.none()))
def test_the_raw_core_answers_anything_or_raises_a_clean_error(
    core: ModuleType, puzzles: list[Any], budget: Any
) -> None:
    """Items of any type and budgets of any size or type: an answer or a clean error."""
    out = raw_call(core, puzzles, budget)
    if out is not None:
        check_raw_results(puzzles, out, budget)


@FUZZ
@given(not_lists, st.one_of(budgets, huge_budgets))
def test_the_raw_core_refuses_or_answers_arguments_that_are_not_lists(
    core: ModuleType, argument: Any, budget: int
) -> None:
    """Tuples, generators, strings, dicts, None as the batch: a clean error or a list."""
    raw_call(core, argument, budget)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((), {}),
        (([VALID],), {}),
        (([VALID], 10, 0, 0, -1, 0), {}),
        (([VALID], 10, "classic"), {}),
        (([VALID], 10), {"extra": 1}),
    ],
    ids=["no arguments", "no budget", "six arguments", "profile by name", "unknown keyword"],
)
def test_the_raw_core_refuses_wrong_arity_with_a_type_error(
    core: ModuleType, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """Too few, too many or keyword arguments: TypeError, never a crash."""
    with pytest.raises(TypeError):
        core.solve_many(*args, **kwargs)


@pytest.mark.parametrize("profile", [-1, 2, 1 << 40])
def test_the_raw_core_refuses_a_profile_it_was_not_given(core: ModuleType, profile: int) -> None:
    """A profile index outside the configured ones: a clean error, never a wild read."""
    with pytest.raises((ValueError, OverflowError)):
        core.solve_many([VALID], 10, profile)


@pytest.mark.parametrize(
    "budgets",
    [(-1,), (1 << 70,), (0, 1 << 70), (1000, -(1 << 70))],
    ids=["-1", "2**70", "batch 2**70", "batch -2**70"],
)
def test_the_raw_core_refuses_a_negative_or_huge_work_budget(
    core: ModuleType, budgets: tuple[int, ...]
) -> None:
    """A work budget below zero or beyond 64 bits, or a batch budget beyond 64 bits: a clean
    error, never a wild climb."""
    with pytest.raises((ValueError, OverflowError)):
        core.solve_many([VALID], 10, 0, *budgets)


@pytest.mark.parametrize("work_left", [-1, 1 << 70])
def test_the_raw_core_refuses_to_apply_a_technique_with_negative_or_huge_work_left(
    core: ModuleType, work_left: int
) -> None:
    """One technique given work below zero or beyond 64 bits: a clean error."""
    board = parse(VALID)
    with pytest.raises((ValueError, OverflowError)):
        core.apply_technique("forcing_x_chain", list(board), [0] * 81, work_left)


def test_the_raw_core_keeps_the_reference_counts_of_what_it_is_given(core: ModuleType) -> None:
    """Neither a leaked nor a stolen reference to the batch, its texts or the results."""
    fresh = "".join(VALID)  # objects nothing else refers to
    batch = [fresh, "\u2003" + fresh, "".join(["x"] * 81), "".join(["b", "ad"])]
    core.solve_many(batch, 1000)
    gc.collect()
    before = [sys.getrefcount(x) for x in (batch, *batch)]
    for _ in range(50):
        out = core.solve_many(batch, 1000)
        assert len(out) == len(batch)
        del out
    gc.collect()
    assert [sys.getrefcount(x) for x in (batch, *batch)] == before


@FUZZ
@given(st.lists(items, min_size=1, max_size=4), budgets.filter(lambda b: b <= 10**6))
def test_the_api_fails_exactly_when_the_reference_does_with_the_same_words(
    native: ModuleType, puzzles: list[Any], budget: int
) -> None:
    """solver.native.solve_many on each item alone: the reference's result, or its error
    (type, message and column)."""
    for k, puzzle in enumerate(puzzles):
        got, expected = native_outcome(native, puzzle, budget), reference_outcome(puzzle, budget)
        found = report(f"item {k}, node_budget={budget}", puzzle, got, expected)
        if found:
            pytest.fail(found)


@FUZZ
@given(st.lists(st.one_of(puzzle_texts, padded(), one_char_changed()), min_size=1, max_size=6))
def test_a_batch_raises_the_first_bad_items_error_prefixed_with_its_index(
    native: ModuleType, puzzles: list[str]
) -> None:
    """A malformed item in a batch: PuzzleFormatError ``puzzle K: <the reference's words>``
    for the first one, with its column; otherwise a result for each."""
    first = None
    for k, puzzle in enumerate(puzzles):
        try:
            parse(puzzle)
        except PuzzleFormatError as exc:
            first = (f"puzzle {k}: {exc}", exc.column)
            break
    if first is None:
        assert len(native.solve_many(puzzles, node_budget=1000, work_budget=0)) == len(puzzles)
        return
    with pytest.raises(PuzzleFormatError) as raised:
        native.solve_many(puzzles, node_budget=1000, work_budget=0)
    assert (str(raised.value), raised.value.column) == first
