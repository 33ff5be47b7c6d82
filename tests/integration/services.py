"""Servers a fault test owns, so it can stop and start them: Redis and a PostgreSQL cluster."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from tests.conftest import missing


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen within {timeout} s")
        time.sleep(0.1)


class OwnRedis:
    """A redis-server on a free loopback port, append-only (as in docker-compose.yml)."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(self._answers, 10, "redis-server start")

    def stop(self) -> None:
        """A clean shutdown: the append-only file keeps the queue for the restart."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def _answers(self) -> bool:
        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=0.2).ping())
        except redis.exceptions.ConnectionError:
            return False


class OwnPostgres:
    """A throwaway PostgreSQL cluster on a free port (initdb and pg_ctl as the postgres user)."""

    def __init__(self, bindir: Path, directory: Path) -> None:
        self.bindir = bindir
        self.directory = directory
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _as_postgres(self, *command: str) -> None:
        args = [str(self.bindir / command[0]), *command[1:]]
        if os.geteuid() == 0:
            args = ["su", "postgres", "-c", " ".join(args)]
        subprocess.run(args, check=True, capture_output=True, timeout=120)

    def create(self) -> None:
        self._as_postgres(
            "initdb",
            "-D",
            str(self.directory / "data"),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
        )
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._as_postgres(
            "pg_ctl",
            "-D",
            str(self.directory / "data"),
            "-l",
            str(self.directory / "log"),
            "-o",
            f"'{options}'",
            "-w",
            "start",
        )

    def stop(self) -> None:
        """Fast shutdown: open connections are cut, new ones refused until `start`."""
        self._as_postgres("pg_ctl", "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        missing("redis-server is not installed")
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    """A migrated cluster of our own; skipped locally (failed in CI) without PostgreSQL binaries."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        missing("PostgreSQL server binaries (initdb) are not installed")
    directory = Path(tempfile.mkdtemp(prefix="sudoku-pg-"))
    directory.chmod(0o777)  # the postgres user owns the cluster inside
    cluster = OwnPostgres(found[-1].parent, directory)
    cluster.create()
    from db.migrate import upgrade

    upgrade(cluster.url)
    yield cluster
    with contextlib.suppress(subprocess.CalledProcessError):
        cluster.stop()
    shutil.rmtree(directory, ignore_errors=True)
