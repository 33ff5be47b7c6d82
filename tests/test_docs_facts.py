"""The documentation states the solver's facts as the code defines them: the ladder's names,
order and values, the statuses, the labels and their cut-offs, the estimate's constants, the
work budget's charges and the layers of the code (the settings table is generated:
tests/test_docs.py).

The documentation site (`docs/`) is where users read these facts; the code is where they live.
Each table and list below is read from its page, as the site shows it (the ladder's table and
technique names written in by the hook docs/hooks/ladder.py), and compared with its one
definition, so a change to one that forgets the other fails here.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from solver import rating
from solver.ladder import ESTIMATED, LADDER
from solver.rating import BUCKETS, LABELS
from solver.result import STATUSES
from tests.layers import ANY, EXCEPTIONS, LAYERS

DOCS = Path(__file__).resolve().parents[1] / "docs"


def hook(name: str) -> ModuleType:
    """The MkDocs hook docs/hooks/`name`.py (not a package: loaded from its file)."""
    spec = importlib.util.spec_from_file_location(
        f"docs_hook_{name}", DOCS / "hooks" / f"{name}.py"
    )
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LADDER_HOOK = hook("ladder")


def section(page: str, title: str) -> str:
    """The text of the section of docs/`page` with that heading (any level), to the next
    heading or the end of the page, the ladder hook's table and names in place."""
    text = (DOCS / page).read_text(encoding="utf-8")
    text = LADDER_HOOK.on_page_markdown(
        text, page=SimpleNamespace(file=SimpleNamespace(src_uri=page))
    )
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert match, f"docs/{page} has no section {title!r}"
    return match.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in ``text``, cells stripped."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def backticked(text: str) -> list[str]:
    """Every `code` word of a sentence, in order."""
    return re.findall(r"`([a-z_0-9]+)`", text)


def test_the_ladder_table_lists_every_rung_in_order_with_its_value() -> None:
    """Names in ladder order; values as defined."""
    rows = table_rows(section("rating/ladder.md", "The ladder"))
    assert [row[1].strip("`") for row in rows] == [rung.name for rung in LADDER]
    for row, rung in zip(rows, LADDER, strict=True):
        expected = "estimated, below" if rung.name in ESTIMATED else str(rung.value)
        assert row[2] == expected, rung.name


def test_the_vocabulary_lists_the_statuses_labels_and_techniques_in_order() -> None:
    """The 'Querying results' paragraph names statuses, labels and technique names."""
    text = section("sql/index.md", "Querying results")
    statuses = re.search(r"Result statuses:(.*?)\. Difficulty", text, re.S)
    labels = re.search(r"Difficulty labels, easiest\s+first:(.*?)\. Technique", text, re.S)
    names = re.search(r"Technique names .*?easiest first:(.*?)\(see", text, re.S)
    assert statuses
    assert labels
    assert names
    assert backticked(statuses.group(1)) == list(STATUSES)
    assert backticked(labels.group(1)) == list(LABELS)
    assert backticked(names.group(1)) == [rung.name for rung in LADDER]


def test_the_scale_table_cuts_the_labels_where_the_rating_does() -> None:
    """Each band's bounds and label are the rating's buckets."""
    rows = table_rows(section("rating/scale.md", "The scale, with an example for each band"))
    bounds = [float(m.group(1)) for row in rows if (m := re.search(r"below ([0-9.]+)", row[0]))]
    assert [row[1].strip("`") for row in rows] == list(LABELS)
    assert bounds == [bound for bound, _ in BUCKETS]


@pytest.mark.parametrize(
    "constant",
    ["ESTIMATE_BASE", "ESTIMATE_SLOPE", "CANDIDATE_WEIGHT", "SEARCH_FLOOR", "SCALE_TOP"],
)
def test_the_estimate_formula_shows_the_rating_constants(constant: str) -> None:
    """The formula in 'Score, EP and ED' shows each constant's value."""
    formula = re.search(r"score = (.*?)\n", section("rating/score.md", "Score, EP and ED"))
    assert formula
    assert f"{getattr(rating, constant)}" in formula.group(1)


def test_exact_ratings_name_the_charges_of_each_kind_of_work() -> None:
    """'Exact ratings and their cost' gives each kind of work its charge in solver.work."""
    from solver import work

    text = section("rating/exact.md", "Exact ratings and their cost")
    charges = [int(n) for n in re.findall(r"\((\d+)(?: units)?\)", text.split("reference")[0])]
    assert charges == list(work.CHARGES)


def test_the_architecture_page_states_the_layers_the_code_is_held_to() -> None:
    """Each row of 'Layers' is a layer of tests/layers.py, in order: its modules, its arrows
    and its outside packages; the one crossing it allows is named there too."""
    text = section("architecture.md", "Layers")

    def names(cell: str) -> tuple[str, ...]:
        return tuple(re.findall(r"`([a-z_.]+)`", cell))

    rows = [(names(row[0]), names(row[1]), names(row[2]), row[3]) for row in table_rows(text)]
    assert rows == [
        ((layer.name,), layer.modules, layer.below, "any" if layer.outside == ANY else
         ", ".join(f"`{name}`" for name in layer.outside) or "none")
        for layer in LAYERS
    ]  # fmt: skip
    flowing = " ".join(text.split())
    for module, target in EXCEPTIONS:
        assert f"`{module}` reads `{target}`" in flowing
