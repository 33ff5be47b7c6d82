"""MkDocs hook: the ladder's rungs and the technique names, generated from solver.ladder.LADDER.

`docs/rating/ladder.md` holds a marker line where the table of the rungs goes (each rung's
description, its name as stored in SQL, its SE value); the pages that name every technique
hold another, in a sentence, where the names go, easiest first. The ladder is the single
source; this module only lays it out, so a new rung needs no edit of the docs. A page that has
lost its marker fails the build.
"""

from __future__ import annotations

from typing import Any

from mkdocs.exceptions import PluginError

from solver.ladder import LADDER

TABLE_MARKER = (
    "<!-- ladder: the rungs of solver/ladder.py, generated here by docs/hooks/ladder.py -->"
)
NAMES_MARKER = "<!-- ladder: the technique names, generated here by docs/hooks/ladder.py -->"


def ladder_table() -> str:
    """The rungs in ladder order, as a Markdown table."""
    rows = [
        f"| {rung.description} | `{rung.name}` | "
        f"{'estimated, below' if rung.estimated else rung.value} |"
        for rung in LADDER
    ]
    return "\n".join(["| rung | name (stored in SQL) | SE value |", "|---|---|---|", *rows])


def technique_names() -> str:
    """The technique names in ladder order, as code words of a sentence."""
    return ", ".join(f"`{rung.name}`" for rung in LADDER)


# Each generated page: its marker line, and what takes the marker's place.
GENERATED = {
    "rating/ladder.md": (TABLE_MARKER, ladder_table),
    "sql/index.md": (NAMES_MARKER, technique_names),
    "architecture.md": (NAMES_MARKER, technique_names),
}


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the generated table or names where a page's marker stands."""
    if page.file.src_uri not in GENERATED:
        return markdown
    marker, generate = GENERATED[page.file.src_uri]
    if marker not in markdown:
        raise PluginError(f"{page.file.src_uri} has lost its marker line: {marker}")
    return markdown.replace(marker, generate())
