"""Fixtures shared by every test package: shared corpora, CI rules, real services.

Rules: a test marked `slow` runs under CI (CI=true) or with --runslow. A test that needs a
real service skips locally with the reason when the service is missing, and fails under CI.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", ROOT.parent / "shared" / "data"))
UNDER_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
POSTGRES_ADMIN_URL = os.environ.get(
    "SUDOKU_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
# A Redis database of the tests' own (not 0, where a developer's broker lives); each test
# deletes the keys of its queue when it ends (tests/integration/conftest.py).
REDIS_URL = os.environ.get("SUDOKU_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
RABBITMQ_URL = os.environ.get("SUDOKU_TEST_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", help="run the slow test group too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if UNDER_CI or config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow group: runs under CI=true or with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def missing(what: str) -> None:
    """Skip locally, fail under CI: a test that needs a service never silently skips in CI."""
    if UNDER_CI:
        pytest.fail(f"{what} (required under CI=true)")
    pytest.skip(what)


def shared_file(name: str) -> Path:
    """A file of ../shared/data, or a skip (a failure under CI) when the folder is absent."""
    path = SHARED_DATA / name
    if not path.exists():
        missing(f"shared corpus {path} is not available")
    return path


def alive(pid: int) -> bool:
    """Whether the process `pid` still runs (a zombie, ended but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh, empty SQLite database file for one test."""
    return f"sqlite:///{tmp_path / 'sudoku.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database on the local server, dropped after the test."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a core dependency
        missing("psycopg is not installed")
    admin = POSTGRES_ADMIN_URL.replace("postgresql+psycopg://", "postgresql://")
    name = f"sudoku_test_{uuid.uuid4().hex[:12]}"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as exc:
        missing(f"PostgreSQL is not reachable at {admin}: {exc}")
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test using it runs twice: on SQLite and on the real local PostgreSQL."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))
