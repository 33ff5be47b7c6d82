"""Storing solving paths (`solving_paths`): one row per solved puzzle of a collection imported
with --paths. Takes a Session and never commits; a redelivered batch inserts nothing twice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from sqlalchemy import Table
from sqlalchemy.orm import Session

from db.bulk import insert_rows
from db.models import SolvingPath

paths_table = cast(Table, SolvingPath.__table__)


class PathRow(NamedTuple):
    """One `solving_paths` row; `steps` is its JSON text (the steps of `explain --json`)."""

    puzzle_id: int
    steps: str
    stalled: bool
    rating_profile: str


def insert_paths(session: Session, rows: Sequence[PathRow]) -> int:
    """Store these paths (a puzzle's path is kept if it has one); how many were new."""
    if not rows:
        return 0
    return insert_rows(session, paths_table, PathRow._fields, rows, conflict=("puzzle_id",))
