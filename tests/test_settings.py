"""Settings come from the environment, checked: a bad value is refused with its name."""

from __future__ import annotations

import pytest

from worker.errors import SettingsError
from worker.settings import Settings


def test_the_solver_backend_defaults_to_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without SUDOKU_SOLVER_BACKEND the compiled core is used when it was built."""
    monkeypatch.delenv("SUDOKU_SOLVER_BACKEND", raising=False)
    assert Settings.from_env().solver_backend == "auto"


@pytest.mark.parametrize("value", ["python", "NATIVE", " auto "])
def test_the_solver_backend_is_read_case_and_space_insensitively(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """SUDOKU_SOLVER_BACKEND accepts the three names however they are typed."""
    monkeypatch.setenv("SUDOKU_SOLVER_BACKEND", value)
    assert Settings.from_env().solver_backend == value.strip().lower()


def test_an_unknown_solver_backend_is_refused_with_the_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A typo names the variable and the valid values instead of silently falling back."""
    monkeypatch.setenv("SUDOKU_SOLVER_BACKEND", "cython")
    with pytest.raises(
        SettingsError, match=r"SUDOKU_SOLVER_BACKEND='cython'.*auto, native, python"
    ):
        Settings.from_env()


def test_the_lost_batch_check_runs_every_30_seconds_unless_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SUDOKU_LOST_BATCH_CHECK_INTERVAL", raising=False)
    assert Settings.from_env().lost_batch_check_interval == 30
    monkeypatch.setenv("SUDOKU_LOST_BATCH_CHECK_INTERVAL", "0")
    assert Settings.from_env().lost_batch_check_interval == 0


def test_a_negative_lost_batch_check_interval_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKU_LOST_BATCH_CHECK_INTERVAL", "-5")
    with pytest.raises(SettingsError, match="SUDOKU_LOST_BATCH_CHECK_INTERVAL"):
        Settings.from_env()


def test_the_command_line_reports_a_bad_setting_as_a_usage_error() -> None:
    """A fresh `sudoku-batch` process: exit code 2 and one line naming the variable."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SUDOKU_BATCH_SIZE": "abc"}
    done = subprocess.run(
        [sys.executable, "-m", "worker", "status"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["error: SUDOKU_BATCH_SIZE='abc' is not an integer"]
