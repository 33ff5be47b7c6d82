"""A broker that is down when `import` starts: one line naming it (password masked), exit 1,
within the check's bound, and nothing imported that could not be sent."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from db.imports import BatchWork
from tests.integration.services import free_port
from tests.worker.conftest import puzzle_lines
from worker.app import producer_app
from worker.cli import main
from worker.errors import BrokerUnavailable
from worker.exits import EXIT_FAILED
from worker.messages import BROKER_TIMEOUT, batch_sender

DOWN = {
    "redis": "redis://:s3cret@127.0.0.1:{port}/0",
    "rabbitmq": "amqp://guest:s3cret@127.0.0.1:{port}//",
}


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[Result, float]:
    started = time.monotonic()
    result = CliRunner().invoke(main, list(args), env=env)
    return result, time.monotonic() - started


@pytest.fixture
def file(tmp_path: Path) -> Path:
    path = tmp_path / "few.txt"
    path.write_text("\n".join(puzzle_lines(5)) + "\n")
    return path


@pytest.mark.parametrize("wait", [[], ["--wait"]], ids=["import", "import --wait"])
@pytest.mark.parametrize("broker", list(DOWN))
def test_import_with_the_broker_down_is_one_line_within_the_bound(
    env: dict[str, str], file: Path, broker: str, wait: list[str]
) -> None:
    """Nothing listens on the broker's port: exit 1, one line naming it, in seconds."""
    url = DOWN[broker].format(port=free_port())
    result, took = invoke("import", *wait, str(file), env={"SUDOKU_BROKER_URL": url})
    assert result.exit_code == EXIT_FAILED, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: cannot reach the broker {url.replace('s3cret', '***')}: ")
    assert "s3cret" not in result.output
    assert took < BROKER_TIMEOUT + 5


def test_import_with_the_broker_down_stores_nothing(env: dict[str, str], file: Path) -> None:
    """The broker is checked before the file is read: no collection is left half-sent."""
    url = DOWN["redis"].format(port=free_port())
    result, _ = invoke("import", str(file), env={"SUDOKU_BROKER_URL": url})
    assert result.exit_code == EXIT_FAILED
    status, _ = invoke("status")
    assert "few" not in status.output


def test_a_batch_that_cannot_be_sent_names_the_broker_not_a_kombu_traceback() -> None:
    """The broker gone for good while batches are sent: BrokerUnavailable, URL masked."""
    url = DOWN["redis"].format(port=free_port())
    send = batch_sender(producer_app(url, "sudoku-test-unsent"), patient=False)
    with pytest.raises(BrokerUnavailable, match=r"^cannot reach the broker redis://:\*\*\*@"):
        send(BatchWork(1, 1, [(1, "." * 81)]))


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port where connections are accepted and never answered (a hung broker)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                held.append(server.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


@pytest.mark.parametrize("broker", list(DOWN))
def test_import_with_a_broker_that_never_answers_gives_up_within_the_bound(
    env: dict[str, str], file: Path, silent_server: int, broker: str
) -> None:
    """The port accepts but nothing answers: an error within the bound, not a hang."""
    url = DOWN[broker].format(port=silent_server)
    result, took = invoke("import", str(file), env={"SUDOKU_BROKER_URL": url})
    assert result.exit_code == EXIT_FAILED, result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: cannot reach the broker {url.replace('s3cret', '***')}: ")
    assert took < BROKER_TIMEOUT + 3
