"""Bad input mixed into good files, through `sudoku-batch run`: every bad line recorded, once.

The corpora come from `tests.corpus` (seeded, so the same on every run): over a thousand
malformed lines of every kind, each with the reason fragment and column the reader must give.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, text

from tests.corpus import (
    BAD,
    Corpus,
    mixed,
    write_compressed,
    write_csv,
    write_headless_csv,
    write_text,
)
from worker.cli import main


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def query(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text(sql), params)]
    engine.dispose()
    return rows


def assert_stored_as_expected(url: str, name: str, corpus: Corpus) -> None:
    """One rejected_lines row per bad line (line, reason, column), a result per good line,
    and the counters adding up."""
    rejected = query(
        url,
        'SELECT r.line, r."column", r.reason, r.raw_text FROM rejected_lines r'
        " JOIN collections c ON c.id = r.collection_id WHERE c.name = :name ORDER BY r.line",
        name=name,
    )
    assert [line for line, *_ in rejected] == sorted(corpus.bad)
    for line, column, reason, raw in rejected:
        sample = corpus.bad[line]
        assert sample.reason in reason, (line, sample.kind)
        assert column == sample.column, (line, sample.kind, reason)
        assert reason.isprintable(), (line, reason)
        assert "\x00" not in raw, line

    results = query(
        url,
        "SELECT line, puzzle, status FROM puzzle_results WHERE collection = :name",
        name=name,
    )
    assert {line: puzzle for line, puzzle, _ in results} == {
        line: sample.puzzle for line, sample in corpus.good.items()
    }
    assert {status for *_, status in results} == {"solved"}

    [(lines_read, accepted, duplicates, rejected_count)] = query(
        url,
        "SELECT lines_read, accepted, duplicates, rejected FROM collections WHERE name = :name",
        name=name,
    )
    assert rejected_count == len(corpus.bad)
    assert lines_read == accepted + duplicates + rejected_count == corpus.records
    assert accepted == len({sample.puzzle for sample in corpus.good.values()})


def test_a_mixed_text_file_records_each_bad_line_and_solves_each_good_one(
    env: dict[str, str], tmp_path: Path
) -> None:
    """1,200 bad lines of every kind among 400 good (BOM, LF and CRLF): exit 3, all accounted."""
    rng = random.Random(20240611)
    corpus = write_text(tmp_path / "mixed.txt", rng, mixed(rng, 400, 1200, skipped_count=40))
    assert {s.kind for s in corpus.bad.values()} == set(BAD)
    assert len(corpus.bad) == 1200

    result = invoke("run", corpus.path)

    assert result.exit_code == 3, result.output
    assert "1,200 rejected lines in mixed" in result.output
    assert "... and 1,190 more (table rejected_lines)" in result.output
    first = min(corpus.bad)
    assert f"mixed.txt:{first}:" in result.output
    assert_stored_as_expected(env["SUDOKU_DATABASE_URL"], "mixed", corpus)


def test_compressed_files_whole_and_truncated_keep_every_line_before_the_damage(
    env: dict[str, str], tmp_path: Path
) -> None:
    """gzip and bzip2 read like text; a cut gzip keeps every whole line, then one rejection."""
    rng = random.Random(7)
    gz = write_compressed(tmp_path / "packed.txt.gz", rng, mixed(rng, 150, 200, 10))
    bz = write_compressed(tmp_path / "packed2.txt.bz2", rng, mixed(rng, 150, 200, 10))
    cut = write_compressed(tmp_path / "cut.txt.gz", rng, mixed(rng, 600, 600), truncate=0.6)
    assert 300 < max(cut.lines) < 1100  # the damage falls well inside the file
    assert cut.lines[max(cut.lines)].kind == "truncated"

    result = invoke("run", gz.path, bz.path, cut.path)

    assert result.exit_code == 3, result.output
    url = env["SUDOKU_DATABASE_URL"]
    for name, corpus in (("packed", gz), ("packed2", bz), ("cut", cut)):
        assert f"{len(corpus.bad):,} rejected lines in {name}" in result.output
        assert_stored_as_expected(url, name, corpus)


def test_a_csv_missing_columns_is_read_and_one_without_a_puzzle_column_fails_alone(
    env: dict[str, str], tmp_path: Path
) -> None:
    """Rows missing the puzzle column are rejected; a header without one fails only its file,
    naming the columns it found, keeps no collection, and the command exits 1."""
    rng = random.Random(3)
    headless, error = write_headless_csv(tmp_path / "headless.csv", rng, 20)
    rated = write_csv(tmp_path / "rated.csv", rng, 150, 150)
    assert {s.kind for s in rated.bad.values()} >= {"missing column", "NUL", "unicode digit"}

    result = invoke("run", headless, rated.path)

    assert result.exit_code == 1, result.output
    assert f"headless.csv:1: {error}" in " ".join(result.output.split())
    assert f"{len(rated.bad):,} rejected lines in rated" in result.output
    url = env["SUDOKU_DATABASE_URL"]
    assert_stored_as_expected(url, "rated", rated)
    assert query(url, "SELECT lines_read FROM collections WHERE name = 'headless'") == []


@pytest.mark.slow
def test_twenty_thousand_lines_with_two_thousand_bad_ones(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The same guarantees at scale: 18,000 good lines (many repeats) and 2,000 bad ones."""
    rng = random.Random(20_000)
    corpus = write_text(tmp_path / "big.txt", rng, mixed(rng, 18_000, 2_000, skipped_count=200))

    result = invoke("run", corpus.path)

    assert result.exit_code == 3, result.output
    assert "2,000 rejected lines in big" in result.output
    assert_stored_as_expected(env["SUDOKU_DATABASE_URL"], "big", corpus)
