"""Parquet export, written in row groups so a million results never sit in memory."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from itertools import islice
from pathlib import Path
from typing import Any

from db.views import puzzle_results
from worker.errors import MissingExtra

ROW_GROUP = 50_000


def write_parquet(rows: Iterable[Mapping[Any, Any]], out: Path) -> int:
    """Write `puzzle_results` rows to a Parquet file; returns how many were written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtra("parquet export", "pyarrow", "parquet") from None
    schema = pa.schema([(column.name, _arrow_type(pa, column.type)) for column in puzzle_results.c])
    written = 0
    iterator = iter(rows)
    with pq.ParquetWriter(out, schema) as writer:
        while group := list(islice(iterator, ROW_GROUP)):
            columns = {name: [_flat(row[name]) for row in group] for name in schema.names}
            writer.write_table(pa.table(columns, schema=schema))
            written += len(group)
    return written


def _arrow_type(pa: Any, sql_type: Any) -> Any:
    """The Arrow type of a view column (JSON columns are written as JSON text)."""
    try:
        python_type = sql_type.python_type
    except NotImplementedError:
        python_type = str
    return {
        int: pa.int64(),
        float: pa.float64(),
        bool: pa.bool_(),
        datetime: pa.timestamp("us", tz="UTC"),
    }.get(python_type, pa.string())


def _flat(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else value
