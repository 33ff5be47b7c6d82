"""Producers push puzzle strings with Celery's public API (task `sudoku.solve`) to real workers.

A separate process that imports nothing of this project (tests/integration/plain_producer.py)
sends the messages, as a user's application would; real `sudoku-batch worker` processes
group and store them in PostgreSQL; the tests read what a user would read: the database,
the queue, the workers' logs, a Celery result, `Client.wait`.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import redis
from kombu.connection import Connection
from sqlalchemy import bindparam, text

import solver
from db.submissions import DEFAULT_COLLECTION
from tests.corpus import good_puzzles
from tests.integration.conftest import (
    WorkerFactory,
    connected,
    redelivery_settings,
    wait_until,
)
from tests.integration.services import OwnPostgres
from worker.client import Client, Receipt

pytestmark = pytest.mark.integration

PRODUCER = Path(__file__).with_name("plain_producer.py")
# Short limits so a killed worker's messages come back within seconds (production: 900 s).
# The settings require visibility > hard limit + longest retry backoff.
VISIBILITY_TIMEOUT = 15
FAST_REDELIVERY = redelivery_settings(
    soft_limit=10, hard_limit=12, backoff=2, visibility=VISIBILITY_TIMEOUT, restore=1
)


# --- what was sent, and what it must become ---------------------------------------------


@dataclass(frozen=True)
class Expect:
    """One string pushed, and what the workers must make of it: a line holding the puzzle
    `givens` (normalised), or a rejected line whose reason holds `reason`."""

    text: str
    givens: str | None = None
    reason: str | None = None
    collection: str = DEFAULT_COLLECTION
    reference: str | None = None


@dataclass(frozen=True)
class Message:
    """A `sudoku.solve` message of the plan: one string, or a list (items may be garbage)."""

    items: list[Any]
    expects: list[Expect]
    one: bool = False
    kwargs: dict[str, Any] | None = None
    as_kwarg: bool = False  # the list sent as puzzles=, not as the positional argument

    def plan(self) -> dict[str, Any]:
        kwargs = dict(self.kwargs or {})
        strings: Any = self.items[0] if self.one else self.items
        if self.as_kwarg:
            return {"args": [], "kwargs": {**kwargs, "puzzles": strings}}
        return {"args": [strings], "kwargs": kwargs}


def good(puzzle: str, collection: str = DEFAULT_COLLECTION, ref: str | None = None) -> Expect:
    return Expect(puzzle, puzzle, None, collection, ref)


def written(puzzle: str, way: int) -> str:
    """A puzzle written one of four ways a user might: as is, zeros for empty cells, a space
    between cells, or nine lines of nine."""
    if way % 4 == 1:
        return puzzle.replace(".", "0")
    if way % 4 == 2:
        return " ".join(puzzle)
    if way % 4 == 3:
        return "\n".join(puzzle[row : row + 9] for row in range(0, 81, 9))
    return puzzle


def bad_strings(puzzle: str) -> list[tuple[str, str]]:
    """Strings that are not puzzles, with the words of the reason each is rejected with."""
    return [
        (puzzle[:4] + "a" + puzzle[5:], "illegal character 'a' (U+0061) at column 5"),
        (puzzle[:80], "expected 81 cells, got 80"),
        (puzzle + "1", "expected 81 cells, got 82"),
        ("55" + "." * 79, "conflicting givens: digit 5 appears twice in row 1"),
        ("", "expected 81 cells, got 0"),
    ]


# Items of a list that are not strings: each is kept as its JSON text and rejected.
GARBAGE: list[tuple[Any, str, str]] = [
    (42, "42", "expected 81 cells, got 2"),
    (None, "null", "illegal character 'n' (U+006E) at column 1"),
    ({"x": 1}, '{"x": 1}', "illegal character '{' (U+007B) at column 1"),
    (3.5, "3.5", "expected 81 cells, got 3"),
    (True, "true", "illegal character 't' (U+0074) at column 1"),
]


def mixed_messages(puzzles: list[str]) -> list[Message]:
    """Single strings and lists, valid and not, duplicates, two collections, references."""
    singles = puzzles[:30]
    listed = puzzles[30:]
    messages = [Message([written(p, k)], [good(p)], one=True) for k, p in enumerate(singles)]
    messages.append(Message([singles[0]], [good(singles[0])], one=True))  # the same message again
    messages += [
        Message([text], [Expect(text, None, reason)], one=True)
        for text, reason in bad_strings(puzzles[0])
    ]
    for k in range(0, len(listed), 6):
        chunk = listed[k : k + 6]
        collection = "web" if k % 12 else DEFAULT_COLLECTION
        ref = f"order-{k}" if k % 12 else None
        items: list[Any] = [written(p, j) for j, p in enumerate(chunk)]
        expects = [good(p, collection, ref) for p in chunk]
        items.append(singles[k % 30])  # a puzzle also sent alone: a duplicate (in "web" too)
        expects.append(good(singles[k % 30], collection, ref))
        value, raw, reason = GARBAGE[(k // 6) % len(GARBAGE)]
        items.insert(3, value)
        expects.insert(3, Expect(raw, None, reason, collection, ref))
        bad, why = bad_strings(chunk[0])[(k // 6) % 5]
        items.append(bad)
        expects.append(Expect(bad, None, why, collection, ref))
        kwargs = {"collection": collection, "reference": ref} if collection == "web" else None
        messages.append(Message(items, expects, kwargs=kwargs, as_kwarg=k % 18 == 0))
    return messages


@dataclass(frozen=True)
class Malformed:
    """A message the workers must refuse as a whole (logged with `logged`, dropped)."""

    plan: dict[str, Any]
    logged: str


def malformed_messages(puzzles: list[str]) -> list[Malformed]:
    """Each holds puzzles of its own, so anything stored from it would show."""
    p = puzzles
    return [
        Malformed({"args": [p[0]], "kwargs": {"colour": "blue"}}, "unknown arguments ['colour']"),
        Malformed(
            {"args": [[]]}, "puzzles must be a string or a list of 1 to 10,000 strings, got []"
        ),
        Malformed({"args": [{"grid": p[1]}]}, "strings, got {'grid': "),
        Malformed({"args": []}, "no puzzles: send one puzzle string or a list of them"),
        Malformed({"args": [p[2]], "kwargs": {"puzzles": [p[3]]}}, "give the puzzles once"),
        Malformed({"args": [p[4]], "kwargs": {"collection": 7}}, "collection must be a string"),
        Malformed({"body": {"puzzles": [p[5]]}}, "body is not [args, kwargs, embed]"),
        Malformed({"text": '[["' + p[6]}, "Can't decode message body"),
    ]


# --- the producer, the queue, the database ----------------------------------------------


def push(
    env: dict[str, str],
    plan: list[dict[str, Any]],
    workdir: Path,
    backend: str | None = None,
    timeout: float = 120,
) -> list[Any]:
    """Run the plain Celery producer on `plan`; what it prints (task ids, or results)."""
    path = workdir / f"plan-{time.monotonic_ns()}.json"
    path.write_text(json.dumps(plan))
    done = subprocess.run(
        producer_command(env, path, backend),
        cwd=workdir,  # nothing of the project on the path: only the installed Celery
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: list[Any] = json.loads(done.stdout)
    return out


def producer_command(env: dict[str, str], plan: Path, backend: str | None = None) -> list[str]:
    command = [sys.executable, str(PRODUCER), env["SUDOKU_BROKER_URL"], env["SUDOKU_QUEUE"]]
    return [*command, str(plan)] + ([backend, "60"] if backend else [])


def sent_expects(messages: list[Message], task_ids: list[str]) -> dict[tuple[str, int], Expect]:
    """(task id, position) -> what that string must become, for every string sent."""
    return {
        (task_id, position): expect
        for message, task_id in zip(messages, task_ids, strict=True)
        for position, expect in enumerate(message.expects)
    }


def queued(env: dict[str, str]) -> int:
    """Messages ready in the queue (not delivered to any worker)."""
    url, queue = env["SUDOKU_BROKER_URL"], env["SUDOKU_QUEUE"]
    if url.startswith("redis"):
        return int(redis.Redis.from_url(url).llen(queue))
    with Connection(url) as connection:
        _name, count, _consumers = connection.default_channel.queue_declare(queue, passive=True)
    return int(count)


def unacked(env: dict[str, str]) -> set[bytes]:
    """Delivery tags of the queue's messages delivered and not acknowledged (Redis only: a
    RabbitMQ queue tells these apart only through its management plugin)."""
    url, queue = env["SUDOKU_BROKER_URL"], env["SUDOKU_QUEUE"]
    if not url.startswith("redis"):
        return set()
    broker = redis.Redis.from_url(url)
    return {tag for tag, entry in broker.hscan_iter("unacked") if json.loads(entry)[2] == queue}


def scalar(url: str, sql: str) -> Any:
    with connected(url) as conn:
        return conn.execute(text(sql)).scalar_one()


def stored_strings(url: str) -> int:
    """Strings stored: the sizes of the stored messages."""
    return int(scalar(url, "SELECT coalesce(sum(size), 0) FROM submissions"))


# Each stored string, as docs/guide/application.md reads them in SQL: a
# message's strings are lines first_line .. first_line + size - 1 of its collection.
STRINGS = """
    SELECT s.task_id, cp.line - s.first_line AS position, c.name, s.reference, p.givens,
        NULL AS raw_text, NULL AS reason, NULL AS "column"
    FROM submissions s JOIN collections c ON c.id = s.collection_id
    JOIN collection_puzzles cp ON cp.collection_id = s.collection_id
        AND cp.line BETWEEN s.first_line AND s.first_line + s.size - 1
    JOIN puzzles p ON p.id = cp.puzzle_id
    UNION ALL
    SELECT s.task_id, rl.line - s.first_line, c.name, s.reference, NULL,
        rl.raw_text, rl.reason, rl."column"
    FROM submissions s JOIN collections c ON c.id = s.collection_id
    JOIN rejected_lines rl ON rl.collection_id = s.collection_id
        AND rl.line BETWEEN s.first_line AND s.first_line + s.size - 1
"""


def describe(env: dict[str, str], logs: Path) -> str:
    """The queue, the database and the workers' last lines, for a failure message."""
    lines = []
    try:
        lines.append(f"queue: {queued(env)} ready, {len(unacked(env))} unacked")
    except Exception as exc:  # the broker may be the thing that is down
        lines.append(f"queue: {exc!r:.200}")
    try:
        lines.append(f"submissions: {stored_strings(env['SUDOKU_DATABASE_URL'])}")
    except Exception as exc:
        lines.append(f"database: {exc!r:.200}")
    for log in sorted(logs.glob("*.log")):
        tail = log.read_text(errors="replace").splitlines()[-30:]
        lines += [f"--- {log.name}", *tail]
    return "\n".join(lines)


def stop(workers: list[subprocess.Popen[bytes]]) -> None:
    """A warm shutdown of each worker (SIGTERM), as an operator does."""
    for proc in workers:
        os.killpg(proc.pid, signal.SIGTERM)
    for proc in workers:
        proc.wait(30)


def logged(logs: Path) -> str:
    return "\n".join(log.read_text(errors="replace") for log in sorted(logs.glob("*.log")))


def assert_stored_once(url: str, expects: dict[tuple[str, int], Expect]) -> None:
    """Every string sent is one submission, on a line of its collection holding its puzzle or
    its rejection; one result per distinct puzzle, the solver's; the counters add up."""
    with connected(url) as conn:
        rows = conn.execute(text(STRINGS)).all()
        results = conn.execute(
            text(
                "SELECT p.givens, r.status, r.solution, r.difficulty FROM results r"
                " JOIN puzzles p ON p.id = r.puzzle_id"
            )
        ).all()
        collections = {
            row[0]: row[1:]
            for row in conn.execute(
                text(
                    "SELECT name, origin, lines_read, accepted, duplicates, rejected, total,"
                    " done, failed FROM collections"
                )
            )
        }
        lines = {
            name: sorted(line for (line,) in found)
            for name in collections
            for found in [
                conn.execute(
                    text(
                        "SELECT line FROM collection_puzzles cp JOIN collections c"
                        " ON c.id = cp.collection_id WHERE c.name = :name UNION ALL"
                        " SELECT line FROM rejected_lines rl JOIN collections c"
                        " ON c.id = rl.collection_id WHERE c.name = :name"
                    ),
                    {"name": name},
                )
            ]
        }

    keys = Counter((task_id, position) for task_id, position, *_ in rows)
    assert keys == Counter(list(expects)), "each string sent is exactly one submission"
    for task_id, position, collection, reference, givens, raw, reason, column in rows:
        expect = expects[(task_id, position)]
        assert (collection, reference) == (expect.collection, expect.reference)
        if expect.givens is not None:
            assert (givens, raw) == (expect.givens, None), expect
        else:
            assert (givens, raw) == (None, expect.text), expect
            assert expect.reason is not None
            assert expect.reason in reason
            assert (column is None) == ("illegal character" not in expect.reason)

    distinct = {e.givens for e in expects.values() if e.givens is not None}
    assert len(results) == len(distinct), "one result per distinct puzzle, none twice"
    assert {givens for givens, *_ in results} == distinct
    for givens, status, solution, difficulty in results:
        direct = solver.solve(givens, work_budget=0)
        assert (status, solution, difficulty) == (direct.status, direct.solution, direct.difficulty)

    for name, (origin, read, accepted, dups, rejected, total, done, failed) in collections.items():
        mine = [e for e in expects.values() if e.collection == name]
        puzzles = {e.givens for e in mine if e.givens is not None}
        assert origin == "producer"
        assert read == accepted + dups + rejected == len(mine), name
        assert accepted == total == done == len(puzzles), name
        assert rejected == sum(e.givens is None for e in mine), name
        assert failed == 0
        assert lines[name] == list(range(1, len(mine) + 1)), "one line per string, no gaps"
    assert set(collections) == {e.collection for e in expects.values()}


def givens_stored(url: str, puzzles: list[str]) -> list[str]:
    with connected(url) as conn:
        found = conn.execute(
            text("SELECT givens FROM puzzles WHERE givens IN :wanted").bindparams(
                bindparam("wanted", expanding=True)
            ),
            {"wanted": puzzles},
        )
        out = [row[0] for row in found]
    return out


# --- the tests --------------------------------------------------------------------------


def test_two_workers_store_every_pushed_string_once_and_drop_malformed_messages(
    service_env: dict[str, str], broker: str, start_worker: WorkerFactory, tmp_path: Path
) -> None:
    """A plain Celery producer pushes single strings and lists (valid, invalid, duplicates,
    garbage items) with malformed messages among them, to two workers: every valid puzzle is
    stored and solved once, every bad string is a rejected line with its reason, the
    malformed messages are dropped with a logged reason, and the workers go on working."""
    url = service_env["SUDOKU_DATABASE_URL"]
    puzzles = list(good_puzzles())
    workers = [start_worker("w1", concurrency=2), start_worker("w2", concurrency=2)]
    messages = mixed_messages(puzzles[:90])
    bad = malformed_messages(puzzles[200:210])
    half = len(messages) // 2
    plan = [m.plan() for m in messages[:half]]
    plan += [b.plan for b in bad]
    plan += [m.plan() for m in messages[half:]]
    ids = push(service_env, plan, tmp_path)
    task_ids = ids[:half] + ids[half + len(bad) :]
    expects = sent_expects(messages, task_ids)
    why = partial(describe, service_env, tmp_path)
    wait_until(lambda: stored_strings(url) >= len(expects), 60, "every string stored", why)
    wait_until(lambda: queued(service_env) == 0, 30, "an empty queue", why)
    wait_until(lambda: not unacked(service_env), 30, "every message acknowledged", why)

    # The workers survived the malformed messages: they store what is pushed afterwards.
    assert all(proc.poll() is None for proc in workers), why()
    late = [Message(puzzles[120:125], [good(p) for p in puzzles[120:125]])]
    late.append(Message([puzzles[125]], [good(puzzles[125])], one=True))
    expects |= sent_expects(late, push(service_env, [m.plan() for m in late], tmp_path))
    wait_until(lambda: stored_strings(url) >= len(expects), 60, "the late strings", why)

    assert_stored_once(url, expects)
    assert givens_stored(url, puzzles[200:210]) == [], "a malformed message stored nothing"
    said = [
        line
        for line in logged(tmp_path).splitlines()
        if "Received invalid task message" in line or "Can't decode message body" in line
    ]
    assert len(said) == len(bad), "each malformed message is logged once, and not retried"
    for refused in bad:
        assert sum(refused.logged in line for line in said) == 1, (refused, said)
    stop(workers)
    assert queued(service_env) == 0, "no message was left unacknowledged (none came back)"


def relabelled(puzzles: list[str], count: int, seed: int) -> list[str]:
    """`count` distinct puzzles made from these by permuting digits: as hard as the originals."""
    rng = random.Random(seed)
    made: dict[str, None] = {}
    while len(made) < count:
        digits = list("123456789")
        rng.shuffle(digits)
        table = str.maketrans("123456789", "".join(digits))
        for puzzle in puzzles:
            made[puzzle.translate(table)] = None
    return list(made)[:count]


def large_push(count: int) -> tuple[list[Message], list[str]]:
    """`count` strings in 1-string and 50-string messages: of every 250 strings, 50 go one a
    message and 200 in four lists; every hundredth string repeats an earlier one."""
    distinct = relabelled(list(good_puzzles()), count, seed=7)
    strings = [distinct[k - 37] if k % 100 == 99 else distinct[k] for k in range(count)]
    messages = []
    for start in range(0, count, 50):
        run = strings[start : start + 50]
        if (start // 50) % 5:
            messages.append(Message(run, [good(p) for p in run]))
        else:
            messages += [Message([p], [good(p)], one=True) for p in run]
    return messages, strings


def pool_children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def kill_pool_processes_until_a_group_dies(victim: subprocess.Popen[bytes], log: Path) -> int:
    """SIGKILL the victim's pool processes, a second apart, until one held a group (its
    log says the group goes back to the queue); how many kills it took."""
    for kills in range(1, 11):
        for child in pool_children(victim.pid):
            os.kill(child, signal.SIGKILL)
        time.sleep(1)
        if "not stored" in log.read_text(errors="replace"):
            return kills
    pytest.fail("ten kills of pool processes and not one held a group")


def settled(env: dict[str, str], count: int) -> Callable[[], bool]:
    """A check: every string stored, or (Redis) nothing left queued or held by any worker
    for a second, the count unchanged."""
    url = env["SUDOKU_DATABASE_URL"]

    def check() -> bool:
        stored = stored_strings(url)
        if stored >= count or not env["SUDOKU_BROKER_URL"].startswith("redis"):
            return stored >= count
        if queued(env) or unacked(env):
            return False
        time.sleep(1)
        return (stored_strings(url), queued(env), len(unacked(env))) == (stored, 0, 0)

    return check


@pytest.mark.parametrize(
    ("broker", "kill"),
    [("redis", "whole worker"), ("redis", "pool process"), ("rabbitmq", "whole worker")],
    indirect=["broker"],
)
def test_a_worker_killed_mid_push_loses_and_doubles_nothing(
    service_env: dict[str, str],
    broker: str,
    start_worker: WorkerFactory,
    tmp_path: Path,
    kill: str,
) -> None:
    """20,000 strings in 4,320 messages of 1 and 50 strings; one worker is SIGKILLed (all its
    processes, or its pool process) a fifth of the way: once the others finish, every string
    is one submission on one line, and every distinct puzzle has one result.

    One exception, kombu's (celery#7950, docs/guide/application.md): Redis hands a message over
    (BRPOP) before kombu records it as unacknowledged, so a worker killed between the two
    loses that one message. A producer finds it in SQL (`Client.missing`) and sends it again
    (`Client.resend`), and it is stored once. RabbitMQ and a pool process's death lose none.
    """
    url = service_env["SUDOKU_DATABASE_URL"]
    on_redis = broker.startswith("redis")
    count = 20_000
    messages, strings = large_push(count)
    # A whole worker's messages come back after the visibility timeout: a short one here. A
    # pool process's group goes back at once, whatever the timeout (the default, 900 s).
    limits = FAST_REDELIVERY if kill == "whole worker" else {}
    victim = start_worker("w1", **limits)
    workers = [victim, start_worker("w2", **limits)]
    why = partial(describe, service_env, tmp_path)
    plan = tmp_path / "large.json"
    plan.write_text(json.dumps([m.plan() for m in messages]))
    started = time.monotonic()
    with (tmp_path / "producer.out").open("w") as out:
        producer = subprocess.Popen(
            producer_command(service_env, plan), cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait_until(lambda: stored_strings(url) >= count // 5, 60, "a fifth of the strings", why)
        killed_at = stored_strings(url)
        if kill == "whole worker":
            os.killpg(victim.pid, signal.SIGKILL)
            victim.wait()
            held = unacked(service_env)
            assert stored_strings(url) < count, "the push finished before the kill"
            if on_redis:  # what it held stays unacknowledged until the visibility timeout
                time.sleep(VISIBILITY_TIMEOUT / 2)
                assert held & unacked(service_env), "the killed worker held no message"
            workers[0] = start_worker("w1-restarted", **limits)
        else:
            kills = kill_pool_processes_until_a_group_dies(victim, tmp_path / "w1.log")
            assert stored_strings(url) < count, "the push finished before the kill"
        assert producer.wait(60) == 0, (tmp_path / "producer.out").read_text()[-3000:]
    finally:
        if producer.poll() is None:
            producer.kill()
            producer.wait()
    task_ids = json.loads((tmp_path / "producer.out").read_text())
    bound = VISIBILITY_TIMEOUT + 90  # for slow machines: 10-30 s here
    wait_until(settled(service_env, count), bound, "the workers to finish", why)

    receipts = [
        Receipt(task_id, position, text, one=message.one)
        for task_id, message in zip(task_ids, messages, strict=True)
        for position, text in enumerate(message.items)
    ]
    with Client(broker, url, queue=service_env["SUDOKU_QUEUE"]) as client:
        lost = client.missing(receipts)
        lost_messages = {receipt.task_id for receipt in lost}
        if on_redis and kill == "whole worker":
            assert len(lost_messages) <= 1, "more than the message the killed worker was taking"
        else:
            assert lost == [], "a message was lost"
        assert client.resend(lost) == lost
        client.wait(lost, timeout=30)
    wait_until(
        lambda: queued(service_env) == 0 and not unacked(service_env), 30, "a drained queue", why
    )
    took = time.monotonic() - started

    assert stored_strings(url) == count
    with connected(url) as conn:
        stored_rows = [tuple(row[:2]) for row in conn.execute(text(STRINGS))]
        results, puzzles = conn.execute(
            text("SELECT count(*), count(DISTINCT puzzle_id) FROM results")
        ).one()
        lines, last, read, accepted, dups, done = conn.execute(
            text(
                "SELECT (SELECT count(*) FROM collection_puzzles),"
                " (SELECT max(line) FROM collection_puzzles), lines_read, accepted,"
                " duplicates, done FROM collections"
            )
        ).one()
        sent = {
            (task_id, position)
            for task_id, message in zip(task_ids, messages, strict=True)
            for position in range(len(message.items))
        }
    distinct = len(set(strings))
    assert len(stored_rows) == count, "each string stored is on one line"
    assert set(stored_rows) == sent, "each string sent is stored"
    assert results == puzzles == distinct, "one result per distinct puzzle"
    assert lines == last == read == count, "one line per string, numbered without gaps"
    assert (accepted, dups) == (distinct, count - distinct)
    assert done == distinct
    assert all(proc.poll() is None for proc in workers), why()
    what = kill if kill == "whole worker" else f"{kill} ({kills} kills)"
    print(
        f"{broker.partition(':')[0]}, {what} at {killed_at} of {count} strings, "
        f"{len(lost_messages)} lost and resent: all stored {took:.1f} s after the start"
    )


def test_a_plain_celery_client_gets_each_message_s_result_from_the_result_backend(
    service_env: dict[str, str],
    broker: str,
    real_redis: str,
    start_worker: WorkerFactory,
    tmp_path: Path,
) -> None:
    """With SUDOKU_RESULT_BACKEND, `AsyncResult.get()` of a plain Celery client returns the
    stored result: a dict for one string, a list for a list, `rejected` with its reason for
    a string that is not a puzzle."""
    backend = real_redis  # the tests' Redis database; this test's task results are deleted
    start_worker("w1", SUDOKU_RESULT_BACKEND=backend)
    puzzles = list(good_puzzles())
    bad_text, bad_reason = bad_strings(puzzles[2])[0]
    plan: list[dict[str, Any]] = [
        {"args": [puzzles[0]]},
        {"args": [[written(puzzles[1], 3), bad_text, 42]], "kwargs": {"reference": "r-1"}},
        {"args": [bad_text], "kwargs": {"collection": "web"}},
        {"args": [puzzles[0]]},  # a puzzle solved before: the same result
    ]
    for item in plan:
        item["task_id"] = str(uuid.uuid4())
    try:
        answers = push(service_env, plan, tmp_path, backend=backend)
    finally:  # the task results this test made, and nothing else
        redis.Redis.from_url(backend).delete(*(f"celery-task-meta-{i['task_id']}" for i in plan))
    assert [task_id for task_id, _ in answers] == [item["task_id"] for item in plan]
    (id0, one), (id1, listed), (id2, rejected), (_, again) = answers

    direct = solver.solve(puzzles[0], work_budget=0)
    assert isinstance(one, dict)
    assert (one["status"], one["solution"]) == (direct.status, direct.solution)
    assert one["difficulty"] == direct.difficulty
    assert (one["puzzle"], one["id"], one["collection"]) == (puzzles[0], f"{id0}:0", "pushed")
    assert {k: v for k, v in again.items() if k not in ("id", "task_id", "line")} == {
        k: v for k, v in one.items() if k not in ("id", "task_id", "line")
    }

    assert isinstance(listed, list)
    assert len(listed) == 3
    assert [r["id"] for r in listed] == [f"{id1}:{k}" for k in range(3)]
    assert {r["reference"] for r in listed} == {"r-1"}
    assert listed[0]["status"] == solver.solve(puzzles[1], work_budget=0).status
    assert listed[0]["puzzle"] == puzzles[1]
    assert (listed[1]["status"], listed[1]["reason"]) == ("rejected", bad_reason)
    assert (listed[1]["raw_text"], listed[1]["column"]) == (bad_text, 5)
    assert listed[2]["status"] == "rejected"
    assert "expected 81 cells, got 2" in listed[2]["reason"]

    assert isinstance(rejected, dict)
    assert (rejected["status"], rejected["reason"]) == ("rejected", bad_reason)
    assert (rejected["collection"], rejected["id"]) == ("web", f"{id2}:0")
    assert rejected["solution"] is None


OUTAGE = 30.0  # seconds PostgreSQL is down: the length the issue names


def test_client_wait_rides_out_a_database_outage(
    service_env: dict[str, str],
    start_worker: WorkerFactory,
    own_postgres: OwnPostgres,
    tmp_path: Path,
) -> None:
    """PostgreSQL stops for 30 s while puzzles are pushed: `Client.wait` says it is waiting,
    then returns every result once the database is back; the workers recover by themselves."""
    env = {**service_env, "SUDOKU_DATABASE_URL": own_postgres.url}
    workers = [
        start_worker(name, SUDOKU_DATABASE_URL=own_postgres.url, SUDOKU_RETRY_BACKOFF_MAX="4")
        for name in ("w1", "w2")
    ]
    why = partial(describe, env, tmp_path)
    puzzles = list(good_puzzles())
    notes: list[str] = []
    client = Client(
        service_env["SUDOKU_BROKER_URL"],
        own_postgres.url,
        queue=service_env["SUDOKU_QUEUE"],
        message_size=7,
        on_wait=notes.append,
    )
    with client:
        before = client.submit(puzzles[:20], collection="outage")
        assert [r and r["status"] for r in client.wait(before, timeout=60)] == [
            solver.solve(p, work_budget=0).status for p in puzzles[:20]
        ]
        assert notes == []

        own_postgres.stop()
        restart = threading.Timer(OUTAGE, own_postgres.start)
        restart.start()
        try:
            started = time.monotonic()
            during = client.submit(puzzles[20:90], collection="outage")
            during += client.submit(puzzles[90], reference="alone")
            during += client.submit("not a puzzle", collection="outage")
            results = client.wait(before + during, timeout=OUTAGE + 90)
            took = time.monotonic() - started
        finally:
            restart.join()
    assert took >= OUTAGE - 1, "wait returned while the database was down"
    assert notes, "wait said nothing while the database was down"
    assert all("unreachable" in note and "waiting" in note for note in notes), notes
    assert all(result is not None for result in results)
    statuses = [r["status"] for r in results if r is not None]
    assert statuses[:-1] == [solver.solve(p, work_budget=0).status for p in puzzles[:91]]
    assert statuses[-1] == "rejected"
    assert "retrying in" in logged(tmp_path), why()  # the workers waited the outage out
    assert all(proc.poll() is None for proc in workers), why()
    assert stored_strings(own_postgres.url) == 92
    print(f"outage {OUTAGE:.0f} s: wait returned {took:.1f} s after the stop, {len(notes)} notes")
