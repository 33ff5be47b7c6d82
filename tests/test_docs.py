"""The documentation site builds, strictly, its generated SQL reference is the schema's and its
generated settings table is worker.settings' and its list of Celery overrides the code's; the
README keeps the Quick start that CI reads and links only to what exists.

The site is built as a reader would build it (`mkdocs build --strict`, into a temporary
folder), so a broken link, a missing anchor or a page left out of the navigation fails here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

import pytest
from markdown.extensions.toc import slugify

from db.models import Base
from db.views import puzzle_results
from worker.overrides import CHECKED_ON, OVERRIDES
from worker.settings import SETTINGS, VARIABLES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# What .ci/run runs: the second command of the Quick start block.
TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest"


class Built(NamedTuple):
    """A finished `mkdocs build`: its process, and the folder it wrote the site to."""

    process: subprocess.CompletedProcess[str]
    site: Path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """`mkdocs build --strict` of the repository's site, into a temporary folder."""
    site = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # Material's banner about MkDocs 2.0
    process = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    return Built(process, site)


def test_the_site_builds_in_strict_mode(built: Built) -> None:
    """Every page builds, with no warning: no broken link, anchor or snippet."""
    assert built.process.returncode == 0, built.process.stderr
    assert (built.site / "index.html").is_file()


class Sections(HTMLParser):
    """A page's text by `<h1 id>` or `<h2 id>`: its paragraphs, and its table's rows as lists
    of cells."""

    def __init__(self) -> None:
        super().__init__()
        self.paragraphs: dict[str, list[str]] = {}
        self.rows: dict[str, list[list[str]]] = {}
        self.heading = ""
        self.cell: list[str] | None = None
        self.paragraph: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h1", "h2"):
            self.heading = dict(attrs).get("id") or ""
            self.paragraphs[self.heading], self.rows[self.heading] = [], []
        elif tag == "tr" and self.heading:
            self.rows[self.heading].append([])
        elif tag == "td":
            self.cell = []
        elif tag == "p":
            self.paragraph = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cell is not None:
            self.rows[self.heading][-1].append("".join(self.cell))
            self.cell = None
        elif tag == "p" and self.paragraph is not None:
            if self.heading:
                self.paragraphs[self.heading].append("".join(self.paragraph))
            self.paragraph = None

    def handle_data(self, data: str) -> None:
        for text in (self.cell, self.paragraph):
            if text is not None:
                text.append(data)


def test_the_sql_reference_lists_every_table_and_column_with_its_comment(built: Built) -> None:
    """The generated page has a section per table of Base.metadata, no other, each with the
    table's comment and a row per column, in order, showing the column's comment."""
    assert built.process.returncode == 0, built.process.stderr
    page = Sections()
    page.feed((built.site / "sql" / "tables" / "index.html").read_text(encoding="utf-8"))
    tables = Base.metadata.sorted_tables
    assert [name for name, rows in page.rows.items() if rows] == [t.name for t in tables]
    for table in tables:
        assert table.comment in page.paragraphs[table.name], table.name
        rows = [row for row in page.rows[table.name] if row]
        assert [row[0] for row in rows] == [column.name for column in table.c], table.name
        assert [row[2] for row in rows] == [column.comment for column in table.c], table.name


def test_the_view_section_lists_every_column_of_puzzle_results_with_its_comment(
    built: Built,
) -> None:
    """'Querying results' shows each column of the view, in its order, with the comment
    db.views gives it (its model column's, or its own)."""
    assert built.process.returncode == 0, built.process.stderr
    page = Sections()
    page.feed((built.site / "sql" / "index.html").read_text(encoding="utf-8"))
    rows = [row for row in page.rows["the-view-puzzle_results-start-here"] if row]
    assert [row[0] for row in rows] == [column.name for column in puzzle_results.c]
    assert [row[2] for row in rows] == [column.comment for column in puzzle_results.c]


def rendered(markdown: str) -> str:
    """A cell's Markdown as its text shows on the page: code marks and link targets gone."""
    return re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", markdown.replace("`", ""))


def test_the_settings_page_lists_every_setting_with_its_default_and_meaning(built: Built) -> None:
    """The generated table has a row per setting of worker.settings, in order (the two time
    limits share one), each with the default it declares (or its words for it: unset, one per
    core) and its help as the meaning."""
    assert built.process.returncode == 0, built.process.stderr
    page = Sections()
    page.feed((built.site / "guide" / "settings" / "index.html").read_text(encoding="utf-8"))
    rows = [row for row in page.rows["settings"] if row]
    assert [name.strip() for row in rows for name in row[0].split(",")] == list(VARIABLES)
    assert "SUDOKU_TASK_SOFT_TIME_LIMIT, SUDOKU_TASK_TIME_LIMIT" in [row[0] for row in rows]
    declared = {setting.variable: setting for setting in SETTINGS}
    for names, defaults, meaning in rows:
        shared = [declared[name.strip()] for name in names.split(",")]
        shown = [s.shown or ("unset" if s.default is None else str(s.default)) for s in shared]
        assert defaults == ", ".join(shown), names
        assert {rendered(setting.help) for setting in shared} == {meaning}, names


def test_the_architecture_page_lists_every_celery_override_with_its_reason(built: Built) -> None:
    """'Where the worker bends Celery' has a row per entry of worker.overrides, in order, with
    its reason, and names the Celery and kombu releases they were checked on."""
    assert built.process.returncode == 0, built.process.stderr
    page = Sections()
    page.feed((built.site / "architecture" / "index.html").read_text(encoding="utf-8"))
    rows = [row for row in page.rows["where-the-worker-bends-celery"] if row]
    assert [row[0] for row in rows] == [f"{o.name} ({o.implementation})" for o in OVERRIDES]
    assert [row[3] for row in rows] == [o.reason.replace("`", "") for o in OVERRIDES]
    checked = " ".join(page.paragraphs["where-the-worker-bends-celery"])
    for package, release in CHECKED_ON.items():
        assert f"{package} {release}" in checked


def test_the_quick_start_block_holds_the_two_commands_ci_reads() -> None:
    """The README's Quick start opens with one fenced block of exactly two commands, the second
    the test command .ci/run takes from it."""
    quick_start = README.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = quick_start.split("```", 2)[1]
    commands = [line for line in block.splitlines()[1:] if line.strip()]
    assert len(commands) == 2
    assert commands[1] == TEST_COMMAND


def headings(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings, as the site's table of contents makes them."""
    titles = re.findall(r"^#+ (.*?)\s*$", page.read_text(encoding="utf-8"), re.M)
    return {slugify(title.replace("`", ""), "-") for title in titles}


def test_the_readme_links_only_to_files_and_headings_that_exist() -> None:
    """Each relative link of the README names a file of the repository, and a heading of that
    page when it names one."""
    links = re.findall(r"\]\(([^)\s]+)\)", README)
    local = [link for link in links if "://" not in link]
    assert local, "the README links into docs/"
    for link in local:
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / "README.md"
        assert target.is_file(), link
        assert not anchor or anchor in headings(target), link
