"""`status`, `query`, `export` and `report`: reading the results back."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import click

from db.errors import UnknownCollection
from db.queries import (
    ORDERABLE,
    collection_status,
    distribution,
    find_results,
    stream_results,
)
from solver import LABELS, STATUSES
from worker.cli.common import check_writable, open_database, out
from worker.cli.summary import status_tables


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
    write_rows(rows, fmt, sys.stdout)


@click.command("export")
@click.argument("collection")
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "parquet"]), default="csv")
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here (default: standard output; required for parquet).",
)
def export(collection: str, fmt: str, out_path: Path | None) -> None:
    """Stream every result of COLLECTION, in line order (json: one object per line)."""
    if out_path is not None:
        check_writable(out_path)
    sessions = open_database()
    with sessions() as session:
        if not collection_status(session, collection):
            raise UnknownCollection(f"no collection named {collection!r}")
        rows = stream_results(session, collection)
        if fmt == "parquet":
            if out_path is None:
                raise click.UsageError("--format parquet needs --out FILE")
            from worker.export import write_parquet

            write_parquet(rows, out_path)
            return
        if out_path is None:
            write_rows(rows, fmt, sys.stdout)
            return
        with out_path.open("w", encoding="utf-8", newline="") as stream:
            write_rows(rows, fmt, stream)


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

    check_writable(out_path)
    sessions = open_database()
    with sessions() as session:
        labels = distribution(session, collection, "difficulty")
        depths = distribution(session, collection, "recursion_depth")
    if not labels:
        raise UnknownCollection(f"no results for a collection named {collection!r}")
    draw_report(collection, labels, depths, out_path)
    out.print(f"wrote {out_path}")


def write_rows(rows: Iterable[Mapping[Any, Any]], fmt: str, stream: IO[str]) -> None:
    """Rows as a table, CSV or JSON lines."""
    if fmt == "table":
        rows = list(rows)
        if not rows:
            out.print("no matching results")
            return
        from worker.progress import table

        columns = list(rows[0])
        out.print(table("Results", columns, [[_plain(r[c]) for c in columns] for r in rows]))
        return
    writer = None
    for row in rows:
        if fmt == "json":
            stream.write(json.dumps({k: _plain(v) for k, v in row.items()}) + "\n")
            continue
        if writer is None:
            writer = csv.DictWriter(stream, fieldnames=list(row))
            writer.writeheader()
        writer.writerow({k: _csv_cell(v) for k, v in row.items()})


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _csv_cell(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else _plain(value)
