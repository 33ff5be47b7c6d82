"""Result rows as CSV, JSON lines and Parquet, streamed (a million rows never sit in memory).

Every format writes the same values: booleans as `true`/`false`, `technique_counts` as a JSON
object with the techniques in ladder order (easiest first, whichever database stored it),
timestamps in ISO 8601 with their time zone (UTC: SQLite keeps none, and every time the
project stores is UTC), NULL as an empty CSV cell or JSON `null`.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import IO, Any

from solver import LADDER
from worker.errors import MissingExtra

ROW_GROUP = 50_000
_RUNG = {rung.name: index for index, rung in enumerate(LADDER)}

Row = Mapping[Any, Any]  # a row by column name


def in_ladder_order(counts: Mapping[str, Any]) -> dict[str, Any]:
    """A technique -> count object with its techniques easiest first (unknown names last)."""
    return dict(sorted(counts.items(), key=lambda item: _RUNG.get(item[0], len(_RUNG))))


def timestamp(value: datetime) -> str:
    """ISO 8601 with the time zone: a time read back without one (SQLite) is UTC."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()


def json_value(value: Any) -> Any:
    """A column's value as plain JSON data."""
    if isinstance(value, datetime):
        return timestamp(value)
    if isinstance(value, Mapping):
        return in_ladder_order(value)
    return value


def text(value: Any) -> str:
    """A column's value as text, for a CSV cell or a table: JSON objects as one line of JSON,
    booleans as true/false, NULL as an empty string."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return json.dumps(in_ladder_order(value))
    if isinstance(value, datetime):
        return timestamp(value)
    return str(value)


def write_csv(rows: Iterable[Row], columns: Sequence[str], stream: IO[str]) -> int:
    """A header (even for no rows), then one CSV record per row; returns how many."""
    writer = csv.writer(stream)
    writer.writerow(columns)
    written = 0
    for row in rows:
        writer.writerow([text(row[name]) for name in columns])
        written += 1
    return written


def write_json_lines(rows: Iterable[Row], columns: Sequence[str], stream: IO[str]) -> int:
    """One JSON object per line and row; returns how many."""
    written = 0
    for row in rows:
        stream.write(json.dumps({name: json_value(row[name]) for name in columns}) + "\n")
        written += 1
    return written


def write_parquet(rows: Iterable[Row], columns: Sequence[tuple[str, Any]], out: Path) -> int:
    """Rows to a Parquet file, `columns` being (name, SQL type) pairs (JSON objects are
    written as JSON text); returns how many rows were written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtra("parquet export", "pyarrow", "parquet") from None
    schema = pa.schema([(name, _arrow_type(pa, sql_type)) for name, sql_type in columns])
    written = 0
    iterator = iter(rows)
    with pq.ParquetWriter(out, schema) as writer:
        while group := list(islice(iterator, ROW_GROUP)):
            table = {name: [_flat(row[name]) for row in group] for name in schema.names}
            writer.write_table(pa.table(table, schema=schema))
            written += len(group)
    return written


def _arrow_type(pa: Any, sql_type: Any) -> Any:
    """The Arrow type of a SQL column type (JSON columns are written as JSON text)."""
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
    return json.dumps(in_ladder_order(value)) if isinstance(value, Mapping) else value
