"""MkDocs hook: the settings table of docs/guide/settings.md, generated from worker.settings.

The page holds a marker line; the build replaces it with a row for every setting of
`worker.settings.SETTINGS`, in its order: the variable, its default and its help. Settings
declared one after another with the same help share a row (the two time limits). The
declarations are the single source; this module only lays them out. A page that has lost its
marker fails the build.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from mkdocs.exceptions import PluginError

from worker.setting import Setting
from worker.settings import SETTINGS

PAGE = "guide/settings.md"
MARKER = (
    "<!-- settings-table: every setting of worker/settings.py, generated here by "
    "docs/hooks/settings_table.py -->"
)


def shown_default(setting: Setting[Any]) -> str:
    """The default as the table shows it: the value in code, `unset`, or the declared words."""
    if setting.shown is not None:
        return setting.shown
    return "unset" if setting.default is None else f"`{setting.default}`"


def settings_markdown() -> str:
    """The settings table, as Markdown."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    for meaning, group in groupby(SETTINGS, key=lambda setting: setting.help):
        shared = list(group)
        names = ", ".join(f"`{setting.variable}`" for setting in shared)
        defaults = ", ".join(shown_default(setting) for setting in shared)
        rows.append(f"| {names} | {defaults} | {meaning} |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the table where the settings page's marker stands."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise PluginError(f"{PAGE} has lost its marker line: {MARKER}")
    return markdown.replace(MARKER, settings_markdown())
