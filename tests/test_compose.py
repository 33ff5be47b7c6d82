"""docker-compose.yml: valid for `docker-compose config`, wired as the deployment expects.

`docker-compose config` needs no Docker engine. Its output is compose's own normalised
YAML (sorted keys, two-space indent), so each service's block is checked as text: PyYAML
is not a dependency of the project.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, missing

SERVICES = {"redis", "postgres", "migrate", "worker", "flower"}


def compose_config(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`docker-compose config` on the project's file, with exactly the given variables."""
    if shutil.which("docker-compose") is None:
        missing("docker-compose is not installed")
    empty_env_file = tmp_path / "empty.env"  # so a developer's .env cannot answer for us
    empty_env_file.write_text("")
    clean = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    return subprocess.run(
        ["docker-compose", "--env-file", str(empty_env_file), "-f", "docker-compose.yml", "config"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def service_blocks(config: str) -> dict[str, str]:
    """Each service's part of the normalised config, by name."""
    start = re.search(r"^services:\n", config, re.MULTILINE)
    assert start is not None, config
    section = re.split(r"^\S", config[start.end() :], maxsplit=1, flags=re.MULTILINE)[0]
    parts = re.split(r"^  ([\w-]+):\n", section, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def depends_on(block: str) -> dict[str, str]:
    """`depends_on` of a service block: each dependency and its condition."""
    return dict(re.findall(r"^      ([\w-]+):\n        condition: (\w+)$", block, re.MULTILINE))


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The services of the config rendered with POSTGRES_PASSWORD set (rendered once)."""
    result = compose_config(tmp_path_factory.mktemp("compose"), POSTGRES_PASSWORD="s3cret-test")
    assert result.returncode == 0, result.stderr
    return service_blocks(result.stdout)


def test_config_is_valid_and_has_every_service(services: dict[str, str]) -> None:
    """With POSTGRES_PASSWORD set the file renders, with all five services."""
    assert set(services) == SERVICES


def test_redis_persists_the_queue_and_has_a_health_check(services: dict[str, str]) -> None:
    """Redis runs with an fsynced append-only file and is checked with `redis-cli ping`."""
    redis = services["redis"]
    assert re.search(r"- --appendonly\n\s+- \"?yes\"?\n\s+- --appendfsync\n\s+- everysec", redis)
    assert re.search(r"healthcheck:(\n\s+.*)*redis-cli\n\s+- ping", redis)
    assert "redis:7" in redis


def test_postgres_needs_the_password_and_has_a_health_check(services: dict[str, str]) -> None:
    """PostgreSQL takes the given password, keeps a volume and is checked by pg_isready."""
    postgres = services["postgres"]
    assert "POSTGRES_PASSWORD: s3cret-test" in postgres
    assert "pg_isready" in postgres
    assert "/var/lib/postgresql/data" in postgres
    assert "postgres:15" in postgres


def test_migrate_runs_once_after_postgres_is_healthy(services: dict[str, str]) -> None:
    """The migration is one-shot and waits for a healthy database."""
    migrate = services["migrate"]
    assert depends_on(migrate) == {"postgres": "service_healthy"}
    assert re.search(r"command:\n\s+- db\n\s+- upgrade\n", migrate)
    assert 'restart: "no"' in migrate or "restart: 'no'" in migrate


def test_worker_waits_for_redis_and_migrations_and_can_scale(services: dict[str, str]) -> None:
    """Workers start after a healthy Redis and a finished migration; nothing pins one copy."""
    worker = services["worker"]
    assert depends_on(worker) == {
        "redis": "service_healthy",
        "migrate": "service_completed_successfully",
    }
    assert "container_name" not in worker
    assert "ports:" not in worker
    assert re.search(r"- worker\n\s+- --concurrency=\d+", worker)
    assert "stop_grace_period" in worker


def test_workers_and_migrations_share_the_environment(services: dict[str, str]) -> None:
    """Both get the database URL with the password, and the broker URL."""
    url = "SUDOKU_DATABASE_URL: postgresql+psycopg://sudoku:s3cret-test@postgres:5432/sudoku"
    for name in ("migrate", "worker"):
        assert url in services[name]
        assert "SUDOKU_BROKER_URL: redis://redis:6379/0" in services[name]


def test_flower_listens_on_localhost_only(services: dict[str, str]) -> None:
    """Flower's port is published on 127.0.0.1, after Redis is healthy."""
    flower = services["flower"]
    assert "127.0.0.1:5555:5555" in flower
    assert depends_on(flower) == {"redis": "service_healthy"}


def test_config_fails_naming_the_variable_when_the_password_is_unset(tmp_path: Path) -> None:
    """Without POSTGRES_PASSWORD, config exits non-zero and says which variable is missing."""
    result = compose_config(tmp_path)
    assert result.returncode != 0
    assert "POSTGRES_PASSWORD" in result.stderr + result.stdout
