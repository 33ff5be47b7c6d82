"""`status`, `query`, `export` and `report`: reading the results back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any

import click
from sqlalchemy.orm import Session

from db.errors import UnknownCollection
from db.queries import (
    ORDERABLE,
    Filters,
    collection_exists,
    collection_status,
    distribution,
    exported,
    find_results,
    scores_by_label,
    stream_results,
)
from db.tiers import RATING_STATES
from db.views import puzzle_results
from solver import LABELS, LADDER, PROFILES, STATUSES
from worker.cli.common import check_writable, open_database, show
from worker.cli.progress import plural
from worker.cli.summary import rated_with, status_tables
from worker.cli.tables import table
from worker.files.export import write_csv, write_json_lines

VIEW_COLUMNS = tuple(column.name for column in puzzle_results.c)
# What `query` shows as a table unless told otherwise (with the columns it orders and filters
# by): which line, its verdict, its rating and whether that is SE's own; fits 80 columns.
TABLE_COLUMNS = (
    "collection",
    "line",
    "status",
    "difficulty",
    "difficulty_score",
    "rating_state",
    "hardest_technique",
)
REPORTED = ("status", "difficulty", "difficulty_score", "recursion_depth", "rating_state")


def _column_list(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> tuple[str, ...] | None:
    """`--columns a,b,c`: names of the view's columns, checked."""
    if value is None:
        return None
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    unknown = [name for name in names if name not in VIEW_COLUMNS]
    what = f"unknown {plural(len(unknown), 'column')} {', '.join(map(repr, unknown))}"
    if unknown or not names:
        what = what if names else "no column named"
        raise click.BadParameter(f"{what}; the columns are: {', '.join(VIEW_COLUMNS)}")
    return names


def _table_columns(order_by: str, by_depth: bool) -> tuple[str, ...]:
    """The default table's columns, and those the rows were chosen or ordered by."""
    asked = (order_by, "recursion_depth") if by_depth else (order_by,)
    return TABLE_COLUMNS + tuple(name for name in dict.fromkeys(asked) if name not in TABLE_COLUMNS)


def _require(session: Session, collection: str | None) -> None:
    """An unknown collection is an error (exit 1), the same for every command."""
    if collection is not None and not collection_exists(session, collection):
        raise UnknownCollection(f"no collection named {collection!r}")


@click.command("status")
@click.argument("collection", required=False)
def status(collection: str | None) -> None:
    """Per collection: its lines, how far solving got, the results by status, the solved
    puzzles by difficulty, and their ratings: exact, pending (the deep tier rates them again)
    or estimated, and what made them."""
    sessions = open_database()
    with sessions() as session:
        _require(session, collection)
        stats = collection_status(session, collection)
    show(*status_tables(stats, "Collections"))


@click.command("query")
@click.option("--collection", "-c", help="Only this collection.")
@click.option("--difficulty", "-d", type=click.Choice(LABELS), help="Only this label.")
@click.option("--status", "-s", "status_", type=click.Choice(STATUSES), help="Only this status.")
@click.option(
    "--rating-state",
    type=click.Choice(RATING_STATES),
    help="Only ratings that are SE's own (exact), waiting for the deep tier (pending), or "
    "estimates that stay (estimated).",
)
@click.option("--profile", type=click.Choice(PROFILES), help="Only ratings of this profile.")
@click.option("--min-score", type=float, help="difficulty_score at least this.")
@click.option("--max-score", type=float, help="difficulty_score at most this.")
@click.option(
    "--technique",
    type=click.Choice([rung.name for rung in LADDER]),
    metavar="NAME",
    help="Only puzzles whose path used this technique (a name of the ladder, e.g. x_wing).",
)
@click.option(
    "--elimination-only/--needs-search",
    default=None,
    help="Only puzzles the ladder finished alone / only those that needed search.",
)
@click.option("--min-depth", type=click.IntRange(0), help="Recursion depth at least this.")
@click.option("--order-by", type=click.Choice(sorted(ORDERABLE)), default="difficulty_score")
@click.option("--ascending", is_flag=True, help="Smallest first (default: largest first).")
@click.option("--limit", "-n", type=click.IntRange(1), default=20, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table")
@click.option(
    "--columns",
    callback=_column_list,
    metavar="A,B,...",
    help="Show these columns of the puzzle_results view, in this order. Default: a table shows "
    f"{', '.join(TABLE_COLUMNS)} and the columns ordered or filtered by; csv and json, every "
    "column.",
)
@click.option("--all-columns", is_flag=True, help="Every column of the view, even in a table.")
@click.option(
    "--one-per-class",
    is_flag=True,
    help="One puzzle per class of isomorphs (same canonical form): the first matching line.",
)
def query(
    collection: str | None,
    difficulty: str | None,
    status_: str | None,
    rating_state: str | None,
    profile: str | None,
    min_score: float | None,
    max_score: float | None,
    technique: str | None,
    elimination_only: bool | None,
    min_depth: int | None,
    order_by: str,
    ascending: bool,
    limit: int,
    fmt: str,
    columns: tuple[str, ...] | None,
    all_columns: bool,
    one_per_class: bool,
) -> None:
    """Find results by collection, difficulty, score, rating, technique, status and search
    effort (bound parameters only)."""
    if columns and all_columns:
        raise click.UsageError("give --columns or --all-columns, not both")
    if columns is None:
        columns = VIEW_COLUMNS
        if fmt == "table" and not all_columns:
            columns = _table_columns(order_by, min_depth is not None)
    sessions = open_database()
    with sessions() as session:
        _require(session, collection)
        filters = Filters(
            collection=collection,
            difficulty=difficulty,
            status=status_,
            rating_state=rating_state,
            rating_profile=profile,
            elimination_only=elimination_only,
            min_depth=min_depth,
            min_score=min_score,
            max_score=max_score,
            technique=technique,
        )
        rows = find_results(
            session,
            filters,
            order_by=order_by,
            descending=not ascending,
            limit=limit,
            one_per_class=one_per_class,
        )
    if fmt == "table":
        if not rows:
            show("no matching results")
            return
        show(table("Results", columns, [[row[name] for name in columns] for row in rows]))
        return
    write = write_csv if fmt == "csv" else write_json_lines
    write(rows, columns, sys.stdout)


@click.command("export")
@click.argument("collection")
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "parquet"]), default="csv")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here (default: standard output; required for parquet).",
)
@click.option(
    "--rejected/--no-rejected",
    default=True,
    show_default=True,
    help="Include the rejected lines, in line order with the others (rejected = true, with "
    "their column, raw_text and reason).",
)
@click.option(
    "--paths",
    is_flag=True,
    help="Add path_steps (the solving path's steps as JSON, for a collection imported with "
    "--paths) and path_stalled.",
)
def export(collection: str, fmt: str, out_path: Path | None, rejected: bool, paths: bool) -> None:
    """Stream every line of COLLECTION with its result, in line order (json: one object per
    line)."""
    if fmt == "parquet" and out_path is None:
        raise click.UsageError("--format parquet needs --out FILE")
    if out_path is not None:
        check_writable(out_path)
    sessions = open_database()
    with sessions() as session:
        _require(session, collection)
        rows = stream_results(session, collection, rejected=rejected, paths=paths)
        columns = exported(paths)
        if fmt == "parquet":
            from worker.files.export import write_parquet

            assert out_path is not None  # checked above
            write_parquet(rows, columns, out_path)
        elif out_path is None:
            _write_lines(rows, fmt, sys.stdout, columns)
        else:
            with out_path.open("w", encoding="utf-8", newline="") as stream:
                _write_lines(rows, fmt, stream, columns)


def _write_lines(rows: Any, fmt: str, stream: IO[str], columns: Any) -> None:
    write = write_csv if fmt == "csv" else write_json_lines
    write(rows, [name for name, _ in columns], stream)


@click.command("report")
@click.argument("collection")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("report.png"),
    show_default=True,
)
def report(collection: str, out_path: Path) -> None:
    """Draw COLLECTION's difficulty scores, labels and recursion depths to a PNG."""
    from worker.cli.report import draw_report

    check_writable(out_path)
    sessions = open_database()
    with sessions() as session:
        _require(session, collection)
        figures: dict[str, Any] = {
            name: distribution(session, collection, name) for name in REPORTED
        }
        figures["score_label"] = scores_by_label(session, collection)
        (stats,) = collection_status(session, collection)
    draw_report(collection, figures, out_path, rated_with(stats))
    show(f"wrote {out_path}")
