"""The canonical (minlex) form: one name for a puzzle under every symmetry and relabelling."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.canon import canonical
from solver.errors import PuzzleFormatError
from tests.conftest import shared_file
from tests.solver.grids import holed, transformed

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample.txt"


def _lines(path: Path) -> list[str]:
    """The puzzles of a file: its lines' first field, comment lines left out."""
    lines = path.read_text().split("\n")
    return [line.split("\t")[0] for line in lines if line.strip() and not line.startswith("#")]


def _sample(name: str, n: int, seed: int = 15) -> list[str]:
    return random.Random(seed).sample(_lines(shared_file(name)), n)


PUZZLES = _lines(SAMPLE)[::29]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_every_transform_of_a_puzzle_has_its_canonical_form(puzzle: str) -> None:
    """Twenty random symmetries and relabellings of a puzzle all give the puzzle's form."""
    rng = random.Random(puzzle)
    form = canonical(puzzle)
    disguises = [transformed(puzzle, rng) for _ in range(20)]
    assert len(set(disguises)) > 1
    assert {canonical(d) for d in disguises} == {form}
    assert set(solver.canonical_many(disguises)) == {form}


@settings(max_examples=60, deadline=None)
@given(holed(min_givens=8, max_givens=40), st.randoms(use_true_random=False))
def test_any_puzzle_and_any_disguise_of_it_share_their_form(
    grid: tuple[int, ...], rng: random.Random
) -> None:
    """For generated puzzles of 8 to 40 givens, a random disguise has the same form, in both
    backends."""
    puzzle = "".join(str(d) if d else "." for d in grid)
    disguise = transformed(puzzle, rng)
    assert canonical(disguise) == canonical(puzzle) == solver.canonical_many([disguise])[0]


def test_the_canonical_form_is_a_puzzle_of_the_same_class_and_its_own_form() -> None:
    """The form keeps the givens' count, solves to one solution like the puzzle, and is
    canonical itself."""
    puzzle = PUZZLES[0]
    form = canonical(puzzle)
    assert sum(ch != "." for ch in form) == sum(ch != "." for ch in puzzle)
    assert solver.solve(form).status == solver.solve(puzzle).status == "solved"
    assert canonical(form) == form
    assert form <= puzzle


def test_puzzles_of_different_classes_have_different_forms() -> None:
    """The bundled sample's puzzles, all different, keep as many forms as puzzles."""
    puzzles = _lines(SAMPLE)
    assert len(set(solver.canonical_many(puzzles))) == len(set(puzzles))


def test_the_form_reads_empty_cells_as_smallest() -> None:
    """A puzzle of one given is eighty empty cells and a 1: every given is pushed last."""
    assert canonical("." * 40 + "7" + "." * 40) == "." * 80 + "1"
    assert canonical("." * 81) == "." * 81


def test_a_malformed_puzzle_is_refused_with_its_column() -> None:
    """A bad character is reported where it is, by both backends."""
    bad = "." * 10 + "a" + "." * 70
    with pytest.raises(PuzzleFormatError) as reference:
        canonical(bad)
    with pytest.raises(PuzzleFormatError) as batch:
        solver.canonical_many([PUZZLES[0], bad])
    assert reference.value.column == 11
    assert "puzzle 1" in str(batch.value)


@pytest.mark.parametrize(
    "name", ["kaggle_10k.txt", "top1465.txt", "forum_hardest_375.txt", "multi_solution_10k.txt"]
)
def test_the_core_and_the_reference_give_the_same_forms(native: ModuleType, name: str) -> None:
    """On a sample of each collection, the compiled core's forms are the reference's."""
    puzzles = _sample(name, 40)
    assert native.canonical_many(puzzles) == [canonical(p) for p in puzzles]


def test_the_search_finds_the_smallest_of_every_symmetry(core: ModuleType) -> None:
    """The row-by-row search gives what trying all 3,359,232 symmetries gives."""
    puzzles = _sample("seventeen_clue_49k.txt", 4) + _sample("top1465.txt", 4)
    assert core.canonical_many(puzzles) == [core.canonical_exhaustive(p) for p in puzzles]


def test_published_minlex_forms_are_kept_or_bettered(core: ModuleType) -> None:
    """Gordon Royle's 17-given list is published in canonical form: most lines are their own
    form, and where ours differs it is smaller, as the exhaustive search confirms."""
    lines = _sample("seventeen_clue_49k.txt", 2000)
    forms = core.canonical_many(lines)
    kept = [line for line, form in zip(lines, forms, strict=True) if line == form]
    assert len(kept) > 0.95 * len(lines)
    bettered = [(line, form) for line, form in zip(lines, forms, strict=True) if line != form]
    for line, form in bettered[:3]:
        assert form < line
        assert core.canonical_exhaustive(line) == form


@pytest.mark.slow
def test_the_seventeen_given_list_is_49158_classes(native: ModuleType) -> None:
    """Every known 17-given puzzle is distinct up to symmetry: 49,158 forms for 49,158 lines."""
    lines = _lines(shared_file("seventeen_clue_49k.txt"))
    assert len(lines) == 49_158
    assert len(set(native.canonical_many(lines))) == 49_158


def test_repeated_lines_of_the_multi_solution_set_share_their_class(native: ModuleType) -> None:
    """multi_solution_10k's six repeated lines give six repeated forms, and no two different
    lines are merged unless they are isomorphs (one maps onto the other's form)."""
    lines = _lines(shared_file("multi_solution_10k.txt"))
    forms = native.canonical_many(lines)
    repeated = [line for line, n in Counter(lines).items() if n > 1]
    assert len(repeated) == 6
    by_line = dict(zip(lines, forms, strict=True))
    for line in repeated:
        assert {f for li, f in zip(lines, forms, strict=True) if li == line} == {by_line[line]}
    assert len(set(forms)) <= len(set(lines))


def test_canonical_forms_give_each_distinct_puzzle_its_form_once() -> None:
    repeated = [PUZZLES[0], PUZZLES[1], PUZZLES[0]]
    forms = solver.canonical_forms(repeated)
    assert list(forms) == [PUZZLES[0], PUZZLES[1]]
    assert list(forms.values()) == solver.canonical_many(PUZZLES[:2])


def test_isomorphs_share_a_key_and_the_sample_keeps_a_key_a_class() -> None:
    """A form's key is a signed 64-bit integer (a SQL BIGINT), equal for a puzzle and its
    disguise, and the bundled sample's classes keep as many keys as forms."""
    puzzle = PUZZLES[0]
    disguise = puzzle[::-1]  # turned half a turn: a symmetry
    assert solver.canonical_key(canonical(disguise)) == solver.canonical_key(canonical(puzzle))
    forms = set(solver.canonical_many(_lines(SAMPLE)))
    keys = {solver.canonical_key(form) for form in forms}
    assert len(keys) == len(forms)
    assert all(-(2**63) <= key < 2**63 for key in keys)


def test_keyed_forms_give_each_distinct_puzzle_its_form_and_key_once() -> None:
    forms = solver.keyed_forms([PUZZLES[0], PUZZLES[1], PUZZLES[0]])
    assert forms == {p: (canonical(p), solver.canonical_key(canonical(p))) for p in PUZZLES[:2]}
