"""The compiled core takes every fact from the reference, and refuses tables it cannot match.

``solver.native`` hands the core the reference's tables at import (``core_tables``). A value
changed in the reference changes what the core computes at once; a name the core cannot match
(a rung without a C function, a status or field it does not know) refuses the core with a
message that names it, so no drift survives until a corpus run.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from solver import work
from solver.ladder import LADDER, RUNGS
from tests.conftest import missing

X_WING = "..3...1..2.8.5.9.3.6.....5.7.......5..63.14..38.....19....3.....3.9.7.8.6.9.2.5.1"


@pytest.fixture
def tables(native: ModuleType, core: ModuleType) -> Iterator[dict[str, Any]]:
    """The reference's tables, to alter; the core is configured with the real ones after."""
    yield native.core_tables()
    core.configure(native.core_tables())


def rate(native: ModuleType, puzzle: str) -> float | None:
    """The core's score of one puzzle."""
    result, _ = native.solve_many([puzzle], node_budget=1000)[0]
    return result.difficulty_score  # type: ignore[no-any-return]


def test_a_rung_value_changed_in_the_reference_is_the_value_the_core_rates_with(
    native: ModuleType, core: ModuleType, tables: dict[str, Any]
) -> None:
    """X-Wing at 3.3 instead of 3.2 in the table: the core rates the X-Wing puzzle 3.3."""
    assert rate(native, X_WING) == 3.2
    tables["ladder"] = [
        (name, function, 33 if name == "x_wing" else tenths, *flags)
        for name, function, tenths, *flags in tables["ladder"]
    ]
    core.configure(tables)
    assert rate(native, X_WING) == 3.3


def test_the_labels_and_their_cut_offs_come_from_the_reference(
    native: ModuleType, core: ModuleType, tables: dict[str, Any]
) -> None:
    """Renamed labels and moved cut-offs show in the core's results."""
    tables["buckets"] = ((1.5, "gentle"), (3.5, "fair"), (5.0, "tough"))
    core.configure(tables)
    result, _ = native.solve_many([X_WING], node_budget=1000)[0]
    assert result.difficulty == "fair"


def test_the_estimates_floors_come_from_the_reference(
    native: ModuleType, core: ModuleType, tables: dict[str, Any]
) -> None:
    """A puzzle past aligned pair exclusion, work budget 0: its estimate starts from the floor
    the table gives for that budget (raised to 9.0 here), not from one the core knows."""
    puzzle = "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4."
    floors = tables["search_floors"]
    tables["search_floors"] = [9.0 if k % 2 == 0 else f for k, f in enumerate(floors)]
    core.configure(tables)
    result, _ = native.solve_many([puzzle], node_budget=1000, work_budget=0)[0]
    assert result.difficulty_score == 9.0
    assert not result.rating_exact


def test_se_order_of_each_cells_units_comes_from_the_reference(
    native: ModuleType, core: ModuleType, tables: dict[str, Any]
) -> None:
    """A puzzle SE rates 7.1 by a bidirectional cycle: with each cell's units taken row, column,
    box instead of SE's box, row, column, other hints come first, and the core's path no longer
    needs the cycle."""
    puzzle = "4.9...7.68...5...3.1.....9.2.47.86.5...9.2.....1...9..78.5.3.41............2.4..."

    def rated() -> tuple[float | None, str | None]:
        result, _ = native.solve_many([puzzle], node_budget=1000, work_budget=work.MAX_BUDGET)[0]
        return result.difficulty_score, result.metrics.hardest_technique

    assert rated() == (7.1, "bidirectional_cycle")
    units_of = tables["se_units_of"]
    tables["se_units_of"] = [units_of[k + t] for k in range(0, len(units_of), 3) for t in (1, 2, 0)]
    core.configure(tables)
    assert rated() == (4.6, "unique_loop")


def test_the_order_of_units_for_direct_hidden_sets_comes_from_the_reference(
    native: ModuleType, core: ModuleType, tables: dict[str, Any]
) -> None:
    """SE looks for a direct hidden pair in boxes, then columns, then rows: given rows first,
    the core takes another pair first on this puzzle and its path takes two, not one."""
    puzzle = "........4..1...8...5...6.3...........4...3.....7...1.2....7.....3.....95...12...."

    def pairs() -> int:
        result, _ = native.solve_many([puzzle], node_budget=1000, work_budget=0)[0]
        return int(result.metrics.technique_counts.get("direct_hidden_pair", 0))

    assert pairs() == 1
    tables["se_direct_units"] = (*range(9), *range(9, 18), *range(18, 27))
    core.configure(tables)
    assert pairs() == 2


# A puzzle classic SE rates 7.7 by a Nishio forcing chain: its exact rating charges every kind of
# SE's chains' work but the nested chains' (runs of implications, cycle searches, a triplet).
NISHIO = "..27.9.3.73....49..9..1...71..5.7..2..9.6.1..2..1.4..99...7..1..81....24.4.2.19.."


def test_the_work_charges_come_from_the_reference(
    native: ModuleType, core: ModuleType, tables: dict[str, Any]
) -> None:
    """Every charge doubled in the table: the same exact rating costs the core twice the work,
    so the budget that bought it before now runs out, and twice that buys it again."""

    def rated(budget: int) -> tuple[Any, ...]:
        result, _ = native.solve_many([NISHIO], node_budget=1000, work_budget=budget)[0]
        return result.difficulty_score, result.rating_exact, result.over_budget, result.metrics.work

    score, exact, over, needed = rated(work.MAX_BUDGET)
    assert (score, exact, over) == (7.7, True, False)
    assert rated(needed) == (score, True, False, needed)
    tables["work_charges"] = tuple(2 * charge for charge in tables["work_charges"])
    core.configure(tables)
    assert rated(needed)[1:] == (False, True, needed)
    assert rated(2 * needed) == (score, True, False, 2 * needed)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            lambda t: t["ladder"].__setitem__(
                -1, ("no_such", "no_such_technique", 70, False, False, False)
            ),
            "no_such",
        ),
        (lambda t: t["ladder"].pop(), "forcing_chain"),
        (lambda t: t.update(statuses=("solved", "multiple", "unsolvable", "invalid")), "gave_up"),
        (lambda t: t.update(result_fields=t["result_fields"][::-1]), "result_fields"),
        (lambda t: t.update(contradictions=("no_candidate",)), "contradictions"),
        (lambda t: t.update(length_bonus=t["length_bonus"][:10]), "length_bonus"),
        (lambda t: t.update(length_added=t["length_added"][:10]), "length_added"),
        (lambda t: t.update(search_floors=t["search_floors"][:1]), "search_floors"),
        (lambda t: t.update(new_fact=1), "does not use"),
        (lambda t: t.pop("empty_chars"), "empty_chars"),
        (lambda t: t.update(se_unit_order=[*t["se_unit_order"][1:], 0]), "se_unit_order"),
        (lambda t: t.update(se_unit_order=[*t["se_unit_order"][:-1], 27]), "se_unit_order"),
        (lambda t: t.update(se_units_of=[18, 0, 9] * 81), "se_units_of"),
        (lambda t: t.update(se_direct_units=[0] * 27), "se_direct_units"),
        (lambda t: t.update(se_direct_locks=[18, 0] * 108), "se_direct_locks"),
        (lambda t: t.update(work_charges=(-1, *t["work_charges"][1:])), "work_charges"),
        (lambda t: t.update(work_charges=t["work_charges"][:-1]), "work_charges"),
    ],
    ids=[
        "unknown rung",
        "core technique off the ladder",
        "a status missing",
        "fields reordered",
        "a contradiction kind missing",
        "bonus table cut",
        "SE's length sums cut",
        "a floor missing",
        "a table the core ignores",
        "a table missing",
        "SE's unit order not a permutation",
        "SE's unit order past the units",
        "a cell's units not its own",
        "direct hidden sets' unit order not a permutation",
        "a crossing of direct locking twice",
        "a negative work charge",
        "a work charge missing",
    ],
)
def test_a_table_the_core_cannot_match_refuses_it_with_a_message_naming_it(
    core: ModuleType, tables: dict[str, Any], change: Any, named: str
) -> None:
    """Each mismatch raises ValueError naming the table or the name, and asks for a rebuild."""
    change(tables)
    with pytest.raises(ValueError, match="rebuild") as refused:
        core.configure(tables)
    assert named in str(refused.value)


def test_the_core_refuses_to_solve_until_configured(core: ModuleType, tables: Any) -> None:
    """A refused configuration leaves the core unusable rather than half configured."""
    tables["ladder"] = tables["ladder"][:-1]
    with pytest.raises(ValueError, match="rebuild"):
        core.configure(tables)
    with pytest.raises(RuntimeError, match="configure"):
        core.solve_many([X_WING], 1000)


def test_the_core_was_built_from_the_ladder() -> None:
    """The core's technique functions are those of the ladder's rungs, in its order (the build
    lists them from it): a core built before a rung was added or renamed fails here, asking for
    a rebuild, where the solver would quietly fall back to the reference."""
    try:
        core = importlib.import_module("solver._core")
    except ImportError as exc:
        missing(f"the compiled core is not built: {exc}")
    functions = list(dict.fromkeys(rung.apply.__name__ for rung in RUNGS))
    assert list(core.techniques()) == functions, (
        "solver._core was built from another ladder: rebuild it (python setup.py build_ext "
        "--inplace, or pip install -e .)"
    )


def test_every_rung_of_the_ladder_has_a_function_in_the_core(native: ModuleType) -> None:
    """The shipped core matches the shipped ladder (the import would have refused it), each
    SukakuExplainer variant of a rung after the rung, under its name."""
    ladder = native.core_tables()["ladder"]
    assert [(name, function) for name, function, *_ in ladder] == [
        (r.name, r.apply.__name__) for r in RUNGS
    ]
    assert [r.name for r in dict.fromkeys(RUNGS)] == [
        name for r in LADDER for name in [r.name] * (1 + (r.sukaku is not None))
    ]
