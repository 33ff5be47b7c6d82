"""MkDocs hook: the architecture page's list of Celery and kombu overrides, from the code.

`docs/architecture.md` holds a marker line; the build replaces it with the releases the
overrides were checked on and a row for each entry of `worker.overrides.OVERRIDES`, in its
order: what it is, where it is installed, what of Celery or kombu it touches, and why. The
list is the single source; this module only lays it out. A page that has lost its marker
fails the build.
"""

from __future__ import annotations

from typing import Any

from mkdocs.exceptions import PluginError

from worker.overrides import CHECKED_ON, OVERRIDES, Override

PAGE = "architecture.md"
MARKER = (
    "<!-- celery-overrides: the list of worker/overrides.py, generated here by "
    "docs/hooks/overrides.py -->"
)


def cell(text: str) -> str:
    """`text` as one cell of a Markdown table."""
    return text.replace("|", "\\|")


def row(override: Override) -> str:
    """One override as a table row."""
    internals = ", ".join(f"`{internal}`" for internal in override.internals)
    cells = [
        f"{override.name} (`{override.implementation}`)",
        override.installed,
        internals,
        override.reason,
    ]
    return "| " + " | ".join(map(cell, cells)) + " |"


def overrides_markdown() -> str:
    """The releases checked on, then the table of overrides."""
    checked = " and ".join(f"{package} {release}" for package, release in CHECKED_ON.items())
    return "\n".join(
        [
            f"Checked on {checked} (`worker.overrides.CHECKED_ON`; the tests fail on any other).",
            "",
            "| override | installed | Celery or kombu internals | why |",
            "|---|---|---|---|",
            *map(row, OVERRIDES),
        ]
    )


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the list where the architecture page's marker stands."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise PluginError(f"{PAGE} has lost its marker line: {MARKER}")
    return markdown.replace(MARKER, overrides_markdown())
