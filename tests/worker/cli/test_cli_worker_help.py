"""`sudoku-batch worker --help` shows the Celery worker options it passes through."""

from __future__ import annotations

from click.testing import CliRunner

from worker.cli import main


def worker_help() -> str:
    result = CliRunner().invoke(
        main, ["worker", "--help"], prog_name="sudoku-batch", catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_the_worker_help_lists_celery_worker_options_by_group() -> None:
    """Concurrency, log level, queues, hostname: Celery's options, grouped as Celery does."""
    shown = worker_help()
    for option in ("--concurrency", "--loglevel", "--queues", "--hostname", "--pool"):
        assert option in shown, option
    for group in ("Worker Options:", "Pool Options:", "Queue Options:"):
        assert group in shown, group


def test_the_worker_help_says_what_it_checks_and_which_settings_it_reads() -> None:
    """The worker's own words come first: the start-up check and the settings."""
    shown = worker_help()
    assert shown.startswith("Usage: sudoku-batch worker [CELERY WORKER OPTIONS]")
    assert "refuses to start" in shown
    assert "SUDOKU_BROKER_URL" in shown
    assert shown.count("--help") == 1
