"""SQLite files: how a new one is made, and that one made before opens as it is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import text

from db.engine import SQLITE_PAGE_SIZE, make_engine
from db.migrate import upgrade


def _pragma(url: str, name: str) -> object:
    engine = make_engine(url)
    with engine.connect() as connection:
        value = connection.execute(text(f"PRAGMA {name}")).scalar()
    engine.dispose()
    return value


def test_a_new_sqlite_file_has_large_pages_and_a_write_ahead_log(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    upgrade(url)
    assert _pragma(url, "page_size") == SQLITE_PAGE_SIZE
    assert _pragma(url, "journal_mode") == "wal"


def test_a_sqlite_file_made_with_other_pages_keeps_them_and_takes_the_schema(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as made_before:
        made_before.execute("PRAGMA page_size=4096")
        made_before.execute("CREATE TABLE kept (line integer)")
        made_before.execute("INSERT INTO kept VALUES (7)")
    made_before.close()
    url = f"sqlite:///{path}"
    upgrade(url)
    engine = make_engine(url)
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT line FROM kept")).scalars().all()
        puzzles = connection.execute(text("SELECT count(*) FROM puzzles")).scalar()
    engine.dispose()
    assert _pragma(url, "page_size") == 4096
    assert kept == [7]
    assert puzzles == 0
