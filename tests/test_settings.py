"""Settings come from the environment, checked: a bad value is refused with its name."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from db.tiers import RatingPlan
from db.urls import mask_url
from solver import work
from worker.errors import SettingsError
from worker.setting import Integer, OneOf, Setting
from worker.settings import (
    SETTINGS,
    Settings,
    batch_size,
    broker_url,
    database_url,
    rating_plan,
)

# The declarations, by how their values are checked: the bad-value cases below come from them.
INTEGERS = [setting for setting in SETTINGS if isinstance(setting.parse, Integer)]
CHOICES = [setting for setting in SETTINGS if isinstance(setting.parse, OneOf)]


def named(setting: Setting[Any]) -> str:
    """A test case's id: the setting's variable."""
    return setting.variable


@pytest.mark.parametrize("setting", SETTINGS, ids=named)
@pytest.mark.parametrize("value", [None, "", "  "])
def test_a_setting_unset_or_blank_takes_its_default(
    monkeypatch: pytest.MonkeyPatch, setting: Setting[Any], value: str | None
) -> None:
    """Unset, empty or spaces: the declared default, no error."""
    if value is None:
        monkeypatch.delenv(setting.variable, raising=False)
    else:
        monkeypatch.setenv(setting.variable, value)
    assert setting.read() == setting.default


@pytest.mark.parametrize("setting", INTEGERS, ids=named)
def test_a_whole_number_setting_takes_its_bounds_and_names_them_past_either(
    monkeypatch: pytest.MonkeyPatch, setting: Setting[int]
) -> None:
    """Each bound is taken; one below the minimum or above the maximum, or not a number, is
    refused naming the variable (and the bounds)."""
    assert isinstance(setting.parse, Integer)
    low, high = setting.parse.minimum, setting.parse.maximum
    bounds = f"at least {low}" if high is None else f"{low} to {high}"
    taken = [low] if high is None else [low, high]
    for value in taken:
        monkeypatch.setenv(setting.variable, f" {value} ")
        assert setting.read() == value
    refused = [low - 1] if high is None else [low - 1, high + 1]
    for value in refused:
        monkeypatch.setenv(setting.variable, str(value))
        expected = rf"^{setting.variable}='{value}' is out of range: expected {bounds}$"
        with pytest.raises(SettingsError, match=expected):
            setting.read()
    monkeypatch.setenv(setting.variable, "1.5")
    with pytest.raises(SettingsError, match=rf"^{setting.variable}='1.5' is not an integer$"):
        setting.read()


@pytest.mark.parametrize("setting", CHOICES, ids=named)
def test_a_setting_of_names_takes_each_in_any_case_and_lists_them_for_another(
    monkeypatch: pytest.MonkeyPatch, setting: Setting[str]
) -> None:
    """Each of its names is taken however it is typed; another is refused with the list."""
    assert isinstance(setting.parse, OneOf)
    for name in setting.parse.choices:
        monkeypatch.setenv(setting.variable, name.upper())
        assert setting.read() == name
    monkeypatch.setenv(setting.variable, "Nonesuch")
    expected = (
        f"^{setting.variable}='Nonesuch': expected one of {', '.join(setting.parse.choices)}$"
    )
    with pytest.raises(SettingsError, match=expected):
        setting.read()


@pytest.mark.parametrize("setting", SETTINGS, ids=named)
def test_a_worker_reads_and_checks_every_setting(
    monkeypatch: pytest.MonkeyPatch, setting: Setting[Any]
) -> None:
    """A worker's Settings.from_env refuses garbage in any setting that checks its value,
    naming the variable: none is declared and left out of the worker."""
    monkeypatch.setenv(setting.variable, "garbage")
    if setting.variable == "SUDOKU_QUEUE":  # any name is a queue's
        assert Settings.from_env().queue == "garbage"
        return
    with pytest.raises(SettingsError, match=rf"^{setting.variable}="):
        Settings.from_env()


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
    env = {**os.environ, "SUDOKU_DATABASE_URL": "notaurl"}
    done = subprocess.run(
        [sys.executable, "-m", "worker", "status"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: SUDOKU_DATABASE_URL='notaurl': not a database URL: expected sqlite:///PATH or"
        " postgresql://USER:PASSWORD@HOST:5432/DATABASE"
    ]


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("notaurl", "not a database URL"),
        ("mysql://sudoku:s3cret@127.0.0.1/sudoku", "mysql:// is not supported"),
        ("postgresql+psycopg2://u@h/d", "postgresql+psycopg2:// is not supported"),
    ],
)
def test_a_database_url_the_storage_cannot_open_is_refused_with_the_forms_it_takes(
    monkeypatch: pytest.MonkeyPatch, url: str, problem: str
) -> None:
    """Not a URL, or another database or driver: named, password masked, both forms shown."""
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)
    with pytest.raises(SettingsError) as raised:
        database_url()
    message = str(raised.value)
    assert message.startswith(f"SUDOKU_DATABASE_URL='{mask_url(url)}': {problem}")
    assert "sqlite:///PATH or postgresql://USER:PASSWORD@HOST:5432/DATABASE" in message
    assert "s3cret" not in message


def test_a_sqlite_url_with_two_slashes_is_one_line_naming_the_three_slash_form() -> None:
    """`sqlite://sudoku.db` (a host, not a file: a common slip) ends `status` in one line, exit
    2, saying what to write instead, not in SQLAlchemy's traceback."""
    env = {**os.environ, "SUDOKU_DATABASE_URL": "sqlite://sudoku.db"}
    done = subprocess.run(
        [sys.executable, "-m", "worker", "status"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: SUDOKU_DATABASE_URL='sqlite://sudoku.db': ")
    assert "write sqlite:///sudoku.db (three slashes)" in line


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///sudoku.db",
        "sqlite:////abs/x.db",
        "sqlite://",
        "postgres://u@h/d",
        "postgresql://h/d",
    ],
)
def test_sqlite_and_postgresql_urls_are_taken(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """The two databases, in the forms SQLAlchemy and psql users write them."""
    monkeypatch.setenv("SUDOKU_DATABASE_URL", url)
    assert database_url() == url


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/0", "rediss://h:6380/1", "amqp://guest:guest@h:5672//"]
)
def test_redis_and_rabbitmq_broker_urls_are_taken(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    """Redis and RabbitMQ, the two brokers the workers are tested on."""
    monkeypatch.setenv("SUDOKU_BROKER_URL", url)
    assert broker_url() == url


@pytest.mark.parametrize("url", ["localhost:6379", "sqs://key:s3cret@"])
def test_another_broker_url_is_refused_with_the_forms_it_takes(
    monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    """Not a URL or another transport: refused, the password masked, the two forms shown."""
    monkeypatch.setenv("SUDOKU_BROKER_URL", url)
    with pytest.raises(SettingsError, match=r"^SUDOKU_BROKER_URL=.*redis://HOST:6379/DB or amqp"):
        broker_url()


@pytest.mark.parametrize("value", ["0", "10001"])
def test_a_batch_size_outside_what_the_option_allows_names_the_limits(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """SUDOKU_BATCH_SIZE is held to the same 1 to 10,000 as --batch-size."""
    monkeypatch.setenv("SUDOKU_BATCH_SIZE", value)
    with pytest.raises(SettingsError, match=rf"^SUDOKU_BATCH_SIZE='{value}' is out of range"):
        batch_size()


def test_ratings_are_exact_within_the_default_work_budgets_unless_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a setting, SE's chains are tried within solver.work's budgets; each budget and
    SUDOKU_RATING=fast (chains off) are taken as given."""
    for name in ("SUDOKU_RATING", *BUDGETS):
        monkeypatch.delenv(name, raising=False)
    assert rating_plan() == RatingPlan(bulk=work.BULK, batch=work.BATCH, deep=work.DEEP)
    assert Settings.from_env().rating.exact
    monkeypatch.setenv("SUDOKU_RATING", " Fast ")
    monkeypatch.setenv("SUDOKU_WORK_BUDGET", "1000")
    monkeypatch.setenv("SUDOKU_BATCH_WORK_BUDGET", f"{work.MAX_BUDGET}")
    monkeypatch.setenv("SUDOKU_DEEP_WORK_BUDGET", "5000")
    plan = rating_plan()
    assert (plan.exact, plan.bulk, plan.batch, plan.deep) == (False, 1000, work.MAX_BUDGET, 5000)


BUDGETS = ("SUDOKU_WORK_BUDGET", "SUDOKU_BATCH_WORK_BUDGET", "SUDOKU_DEEP_WORK_BUDGET")


@pytest.mark.parametrize("name", BUDGETS)
@pytest.mark.parametrize("value", ["0", f"{work.MAX_BUDGET + 1}"])
def test_a_work_budget_out_of_range_names_the_limits(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """Each work budget is held to 1 to solver.work.MAX_BUDGET (SUDOKU_RATING=fast, not a budget
    of 0, turns SE's chains off)."""
    monkeypatch.setenv(name, value)
    expected = rf"^{name}='{value}' is out of range: expected 1 to {work.MAX_BUDGET}"
    with pytest.raises(SettingsError, match=expected):
        rating_plan()


def test_an_unknown_rating_mode_is_refused_with_the_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SUDOKU_RATING takes exact or fast, and says so."""
    monkeypatch.setenv("SUDOKU_RATING", "quick")
    with pytest.raises(SettingsError, match=r"^SUDOKU_RATING='quick': expected one of exact, fast"):
        Settings.from_env()


def test_the_retired_chain_budget_is_refused_with_what_replaced_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SUDOKU_CHAIN_BUDGET, set for an earlier release, is not silently ignored: the message
    says ratings are exact by default now and which settings took its place."""
    monkeypatch.setenv("SUDOKU_CHAIN_BUDGET", "1000")
    with pytest.raises(
        SettingsError, match=r"^SUDOKU_CHAIN_BUDGET is no longer read: .*SUDOKU_RATING=fast"
    ):
        Settings.from_env()
