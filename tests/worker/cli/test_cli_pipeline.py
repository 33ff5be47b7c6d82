"""`run`, `import`, `status`, `query`, `export` and `report`, driven through click's runner."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, text

import solver
from tests.worker.conftest import ROOT
from worker.cli import main
from worker.cli.progress import Meter

QUEUE = "sudoku"
SAMPLE_TAIL = [
    line for line in (ROOT / "samples" / "sample.txt").read_text().split() if len(line) == 81
][-10:]  # ten puzzles the 120-line fixture file does not hold


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def table_rows(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text(sql))]
    engine.dispose()
    return rows


def test_run_solves_every_distinct_puzzle_and_reports_the_rejected_line(
    env: dict[str, str], puzzle_file: Path
) -> None:
    """One result per distinct puzzle, the bad line recorded, exit code 3 for 'some rejected'."""
    result = invoke("run", str(puzzle_file))
    assert result.exit_code == 3, result.output
    assert "1 rejected line " in result.output
    assert "small.txt:21: expected 81 cells, got 5" in result.output  # as editors jump to it
    url = env["SUDOKU_DATABASE_URL"]
    [(results,)] = table_rows(url, "SELECT count(*) FROM results")
    [(lines, accepted, duplicates, rejected, total, done)] = table_rows(
        url, "SELECT lines_read, accepted, duplicates, rejected, total, done FROM collections"
    )
    assert (lines, accepted, duplicates, rejected) == (122, 120, 1, 1)
    assert results == total == done == 120


def test_a_file_read_by_a_child_process_is_stored_whole(
    env: dict[str, str], puzzle_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large file's lines are read and prepared in a child process (worker.files.reader): every
    line, rejection, result and canonical form is stored as when the run reads it itself."""
    monkeypatch.setattr("worker.files.reader.READ_AHEAD_FROM", 0)  # this small file too,
    monkeypatch.setattr("worker.files.reader.HEAD_START", 0)  # all of it
    result = invoke("run", str(puzzle_file))
    assert result.exit_code == 3, result.output
    assert "small.txt:21: expected 81 cells, got 5" in result.output
    url = env["SUDOKU_DATABASE_URL"]
    [(lines, accepted, duplicates, rejected, done)] = table_rows(
        url, "SELECT lines_read, accepted, duplicates, rejected, done FROM collections"
    )
    assert (lines, accepted, duplicates, rejected, done) == (122, 120, 1, 1, 120)
    stored = table_rows(url, "SELECT givens, canonical FROM puzzles ORDER BY givens")
    givens = [str(g) for g, _ in stored]
    assert [form for _, form in stored] == solver.canonical_many(givens)


def test_run_stores_what_the_solver_says(env: dict[str, str], puzzle_file: Path) -> None:
    """Every stored row equals a direct solver call on its puzzle (rated fast, as `env` has
    it: SE's chains off)."""
    invoke("run", str(puzzle_file))
    rows = table_rows(
        env["SUDOKU_DATABASE_URL"],
        "SELECT puzzle, status, solution, difficulty_score, guesses FROM puzzle_results"
        " WHERE NOT is_duplicate",
    )
    assert len(rows) == 120
    for puzzle, status, solution, score, guesses in rows:
        expected = solver.solve(str(puzzle), work_budget=0)
        assert (status, solution, guesses) == (
            expected.status,
            expected.solution,
            expected.metrics.guesses,
        )
        assert score == pytest.approx(expected.difficulty_score)


def test_running_the_same_file_again_changes_nothing(
    env: dict[str, str], puzzle_file: Path
) -> None:
    """A second run finds nothing to do: same rows, same counters, nothing solved twice."""
    invoke("run", str(puzzle_file))
    url = env["SUDOKU_DATABASE_URL"]
    query = "SELECT * FROM collections"
    before = table_rows(url, query), table_rows(url, "SELECT puzzle_id, solved_at FROM results")
    again = invoke("run", str(puzzle_file))
    assert again.exit_code == 3
    after = table_rows(url, query), table_rows(url, "SELECT puzzle_id, solved_at FROM results")
    assert before == after


def test_status_lists_each_collection_with_its_figures(
    env: dict[str, str], puzzle_file: Path
) -> None:
    """status prints the collection, its solved count and its difficulty columns."""
    invoke("run", str(puzzle_file))
    result = invoke("status")
    assert result.exit_code == 0
    for expected in ("small", "120", "extreme"):
        assert expected in result.output
    missing = CliRunner().invoke(main, ["status", "nope"])
    assert missing.exit_code == 1
    assert "no collection named 'nope'" in missing.output


def test_query_filters_by_difficulty_and_search(env: dict[str, str], puzzle_file: Path) -> None:
    """query returns only rows matching every filter, ordered as asked (rated fast, as `env`
    has it: without SE's chains the sample's hardest puzzles need search)."""
    invoke("run", str(puzzle_file))
    result = invoke(
        "query", "--needs-search", "--order-by", "guesses", "--format", "json", "--limit", "500"
    )
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows, "the sample holds puzzles that need search"
    assert all(not r["solved_by_elimination"] and r["difficulty"] == "extreme" for r in rows)
    guesses = [r["guesses"] for r in rows]
    assert guesses == sorted(guesses, reverse=True)
    easy = invoke("query", "--difficulty", "easy", "--format", "csv", "--limit", "500")
    assert all(r["difficulty"] == "easy" for r in csv.DictReader(io.StringIO(easy.output)))


@pytest.mark.parametrize(
    "hostile", ["x' OR '1'='1", "small'; DROP TABLE results; --", '"; DELETE FROM puzzles; --']
)
def test_sql_metacharacters_in_filters_are_just_text(
    env: dict[str, str], puzzle_file: Path, hostile: str
) -> None:
    """A collection name carrying SQL is only a name no collection has, and harms nothing."""
    invoke("run", str(puzzle_file))
    result = CliRunner().invoke(main, ["query", "--collection", hostile, "--format", "json"])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: no collection named {hostile!r}"
    [(count,)] = table_rows(env["SUDOKU_DATABASE_URL"], "SELECT count(*) FROM results")
    assert count == 120


def test_export_streams_every_line_in_each_format(
    env: dict[str, str], puzzle_file: Path, tmp_path: Path
) -> None:
    """export writes one record per line of the file as CSV, JSON lines and Parquet."""
    import pyarrow.parquet as pq

    invoke("run", str(puzzle_file))
    as_csv = list(csv.DictReader(io.StringIO(invoke("export", "small").output)))
    as_json = [
        json.loads(x) for x in invoke("export", "small", "--format", "json").output.split("\n") if x
    ]
    out = tmp_path / "small.parquet"
    assert invoke("export", "small", "--format", "parquet", "--out", str(out)).exit_code == 0
    assert len(as_csv) == len(as_json) == pq.read_table(out).num_rows == 122
    assert [int(r["line"]) for r in as_csv] == sorted(int(r["line"]) for r in as_csv)


def test_report_draws_a_png(env: dict[str, str], puzzle_file: Path, tmp_path: Path) -> None:
    """report writes a PNG image of the distributions."""
    invoke("run", str(puzzle_file))
    out = tmp_path / "report.png"
    result = invoke("report", "small", "--out", str(out))
    assert result.exit_code == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_import_queues_one_message_per_batch_and_nothing_twice(
    env: dict[str, str], puzzle_file: Path
) -> None:
    """import sends ceil(120/50) batches of JSON; importing again sends nothing more."""
    broker = redis.Redis.from_url(env["SUDOKU_BROKER_URL"])
    broker.delete(QUEUE)
    invoke("import", str(puzzle_file), "--batch-size", "50")
    messages = [json.loads(m) for m in broker.lrange(QUEUE, 0, -1)]
    assert len(messages) == 3
    sizes = sorted(len(json.loads(_body(m))[1]["puzzles"]) for m in messages)
    assert sizes == [20, 50, 50]
    invoke("import", str(puzzle_file), "--batch-size", "50")
    assert broker.llen(QUEUE) == 3
    invoke("import", str(puzzle_file), "--requeue")
    assert broker.llen(QUEUE) == 6  # --requeue re-sends every unfinished batch


def _body(message: dict[str, object]) -> str:
    import base64

    body = message["body"]
    assert message["properties"]["body_encoding"] == "base64"  # type: ignore[index]
    return base64.b64decode(str(body)).decode()


def test_import_sends_nothing_for_puzzles_already_solved(
    env: dict[str, str], puzzle_file: Path, tmp_path: Path
) -> None:
    """A second collection sharing puzzles with a solved one queues only its new puzzles."""
    invoke("run", str(puzzle_file))  # solves the 120 puzzles of the first file
    known = [line for line in puzzle_file.read_text().split() if len(line) == 81][:30]
    fresh = list(SAMPLE_TAIL)
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("\n".join(known + fresh) + "\n")
    broker = redis.Redis.from_url(env["SUDOKU_BROKER_URL"])
    broker.delete(QUEUE)
    invoke("import", str(mixed), "--batch-size", "50")
    sent = [
        givens
        for message in broker.lrange(QUEUE, 0, -1)
        for _, givens in json.loads(_body(json.loads(message)))[1]["puzzles"]
    ]
    assert sorted(sent) == sorted(fresh)
    [(done, total)] = table_rows(
        env["SUDOKU_DATABASE_URL"], "SELECT done, total FROM collections WHERE name = 'mixed'"
    )
    assert (done, total) == (len(set(known)), len(set(known)) + len(fresh))  # known: solved


def test_runs_bar_has_no_total_until_the_whole_file_is_read(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a file is read in chunks, the bar counts what is read in its note and shows no
    total (so no share done, no ETA, however far solving is); once the file is read, the total
    is every puzzle of it."""
    calls: list[tuple[int | None, str | None]] = []

    @contextmanager
    def recording(*_: object, **__: object) -> Iterator[Callable[..., None]]:
        def advance(n: int = 1, *, total: int | None = None, note: str | None = None) -> None:
            if total is not None or note is not None:
                calls.append((total, note))

        advance.meter = Meter("puzzle")  # type: ignore[attr-defined]
        yield advance

    monkeypatch.setattr("worker.cli.pipeline.bar", recording)
    lines = [
        line for line in (ROOT / "samples" / "sample.txt").read_text().split() if len(line) == 81
    ]
    path = tmp_path / "long.txt"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("SUDOKU_BATCH_SIZE", "10")  # 50 puzzles the first chunk: several
    assert invoke("run", str(path)).exit_code == 0
    *reading, (total, cleared) = calls
    read = [int(note.removeprefix("importing: ").removesuffix(" read")) for _, note in reading]
    assert len(read) > 1
    assert read == sorted(set(read))
    assert read[-1] == 290
    assert all(t is None for t, _ in reading)
    assert (total, cleared) == (290, "")
