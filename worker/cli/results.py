"""`status`, `query`, `export` and `report`: reading the results back."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, Any

import click

from db.errors import UnknownCollection
from db.queries import (
    EXPORTED,
    ORDERABLE,
    collection_status,
    distribution,
    find_results,
    stream_results,
)
from db.views import puzzle_results
from solver import LABELS, STATUSES
from worker.cli.common import open_database, out
from worker.cli.summary import status_tables
from worker.export import write_csv, write_json_lines

VIEW_COLUMNS = tuple(column.name for column in puzzle_results.c)


@click.command("status")
@click.argument("collection", required=False)
def status(collection: str | None) -> None:
    """Per collection: total, solved, rejected, remaining and the difficulty distribution."""
    sessions = open_database()
    with sessions() as session:
        stats = collection_status(session, collection)
    if collection and not stats:
        raise UnknownCollection(f"no collection named {collection!r}")
    out.print(*status_tables(stats, "Collections"))


@click.command("query")
@click.option("--collection", "-c", help="Only this collection.")
@click.option("--difficulty", "-d", type=click.Choice(LABELS), help="Only this label.")
@click.option("--status", "-s", "status_", type=click.Choice(STATUSES), help="Only this status.")
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
def query(
    collection: str | None,
    difficulty: str | None,
    status_: str | None,
    elimination_only: bool | None,
    min_depth: int | None,
    order_by: str,
    ascending: bool,
    limit: int,
    fmt: str,
) -> None:
    """Find results by collection, difficulty, status and search effort (bound parameters only)."""
    sessions = open_database()
    with sessions() as session:
        rows = find_results(
            session,
            collection=collection,
            difficulty=difficulty,
            status=status_,
            elimination_only=elimination_only,
            min_depth=min_depth,
            order_by=order_by,
            descending=not ascending,
            limit=limit,
        )
    if fmt == "table":
        if not rows:
            out.print("no matching results")
            return
        from worker.progress import table

        out.print(
            table("Results", list(VIEW_COLUMNS), [[r[c] for c in VIEW_COLUMNS] for r in rows])
        )
        return
    write = write_csv if fmt == "csv" else write_json_lines
    write(rows, VIEW_COLUMNS, sys.stdout)


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
def export(collection: str, fmt: str, out_path: Path | None, rejected: bool) -> None:
    """Stream every line of COLLECTION with its result, in line order (json: one object per
    line)."""
    if fmt == "parquet" and out_path is None:
        raise click.UsageError("--format parquet needs --out FILE")
    sessions = open_database()
    with sessions() as session:
        if not collection_status(session, collection):
            raise UnknownCollection(f"no collection named {collection!r}")
        rows = stream_results(session, collection, rejected=rejected)
        if fmt == "parquet":
            from worker.export import write_parquet

            assert out_path is not None  # checked above
            write_parquet(rows, EXPORTED, out_path)
        elif out_path is None:
            _write_lines(rows, fmt, sys.stdout)
        else:
            with out_path.open("w", encoding="utf-8", newline="") as stream:
                _write_lines(rows, fmt, stream)


def _write_lines(rows: Any, fmt: str, stream: IO[str]) -> None:
    write = write_csv if fmt == "csv" else write_json_lines
    write(rows, [name for name, _ in EXPORTED], stream)


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
    """Draw COLLECTION's difficulty distribution and recursion-depth histogram to a PNG."""
    from worker.report import draw_report

    sessions = open_database()
    with sessions() as session:
        labels = distribution(session, collection, "difficulty")
        depths = distribution(session, collection, "recursion_depth")
    if not labels:
        raise UnknownCollection(f"no results for a collection named {collection!r}")
    draw_report(collection, labels, depths, out_path)
    out.print(f"wrote {out_path}")
