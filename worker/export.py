"""Parquet export, written in row groups so a million results never sit in memory."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from itertools import islice
from pathlib import Path
from typing import Any

ROW_GROUP = 50_000


def write_parquet(rows: Iterable[Mapping[Any, Any]], out: Path) -> int:
    """Write rows to a Parquet file; returns how many were written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        import click

        raise click.ClickException(
            "parquet export needs pyarrow: pip install 'sudoku-batch[parquet]'"
        ) from None
    iterator = iter(rows)
    writer = None
    written = 0
    try:
        while group := list(islice(iterator, ROW_GROUP)):
            columns = {k: [_flat(r[k]) for r in group] for k in group[0]}
            batch = pa.table(columns)
            if writer is None:
                writer = pq.ParquetWriter(out, batch.schema)
            writer.write_table(batch.cast(writer.schema))
            written += len(group)
    finally:
        if writer is not None:
            writer.close()
    return written


def _flat(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else value
