"""Every setting of sudoku-batch, read from the environment when it is used.

The Celery app, the CLI and Alembic's environment read this module; the database layer is
handed the URL. No URL or tunable is hard-coded anywhere else. Each setting is read, and
checked, by its own function, so a command reads only the settings it uses: `solve` never
fails on a bad SUDOKU_BATCH_SIZE. A worker uses them all (`Settings.from_env`). A value
that cannot be used raises `SettingsError` naming the variable. URLs are shown only
through `db.urls.mask_url`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from db.tiers import DEFAULT_PLAN, RATING_MODES, RatingPlan
from db.urls import database_url_problem, mask_url
from solver import DEFAULT_NODE_BUDGET, DEFAULT_PROFILE, PROFILES, work
from worker.errors import SettingsError

DEFAULT_DATABASE_URL = "sqlite:///sudoku.db"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"
DEFAULT_QUEUE = "sudoku"
DEEP_QUEUE_SUFFIX = ".deep"  # the deep tier's queue: SUDOKU_QUEUE and this
DEFAULT_BATCH_SIZE = 1_000  # ~50 ms of compiled solving: a message or a commit is small beside it
MAX_BATCH_SIZE = 10_000  # a message of 10,000 puzzles is about 1 MB
# Pushed puzzles (task sudoku.solve) are stored in groups of up to this many puzzles, a group
# waiting at most this long for more messages after its first: one transaction a group.
DEFAULT_GROUP_SIZE = 500
DEFAULT_GROUP_WAIT_MS = 50
SOLVER_BACKENDS = ("auto", "native", "python")
# About how much slower the reference does a unit of work than the compiled core (measured on
# magictour's top 1465: 41 us a unit against about 1).
REFERENCE_SLOWDOWN = 40
# The brokers the workers are tested on (kombu's names for them) and the URL form of each.
BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp")
BROKER_FORMS = "redis://HOST:6379/DB or amqp://USER:PASSWORD@HOST:5672/VHOST"

# Every variable read here, in the order of docs/guide/settings.md.
VARIABLES = (
    "SUDOKU_DATABASE_URL",
    "SUDOKU_BROKER_URL",
    "SUDOKU_QUEUE",
    "SUDOKU_BATCH_SIZE",
    "SUDOKU_GROUP_SIZE",
    "SUDOKU_GROUP_WAIT_MS",
    "SUDOKU_RESULT_BACKEND",
    "SUDOKU_NODE_BUDGET",
    "SUDOKU_RATING",
    "SUDOKU_RATING_PROFILE",
    "SUDOKU_WORK_BUDGET",
    "SUDOKU_BATCH_WORK_BUDGET",
    "SUDOKU_DEEP_WORK_BUDGET",
    "SUDOKU_SOLVER_BACKEND",
    "SUDOKU_WORKER_CONCURRENCY",
    "SUDOKU_TASK_SOFT_TIME_LIMIT",
    "SUDOKU_TASK_TIME_LIMIT",
    "SUDOKU_TASK_MAX_RETRIES",
    "SUDOKU_RETRY_BACKOFF_MAX",
    "SUDOKU_VISIBILITY_TIMEOUT",
    "SUDOKU_UNACKED_RESTORE_INTERVAL",
    "SUDOKU_LOST_BATCH_CHECK_INTERVAL",
)


# Variables of earlier releases that no longer do anything, and what took their place: set, they
# are refused rather than silently ignored.
RETIRED = {
    "SUDOKU_CHAIN_BUDGET": "ratings are exact by default now: SE's chains are tried within a "
    "work budget (SUDOKU_WORK_BUDGET, SUDOKU_DEEP_WORK_BUDGET), and SUDOKU_RATING=fast turns "
    "them off; unset it",
}


def _raw(name: str) -> str | None:
    """The variable's value, None when it is unset or blank (then the default applies)."""
    value = os.environ.get(name, "").strip()
    return value or None


def check_retired() -> None:
    """SettingsError when a variable of an earlier release that does nothing now is set."""
    for name, instead in RETIRED.items():
        if _raw(name) is not None:
            raise SettingsError(f"{name} is no longer read: {instead}")


def _integer(name: str, default: int, minimum: int, maximum: int | None = None) -> int:
    raw = _raw(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not an integer") from None
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"at least {minimum}" if maximum is None else f"{minimum} to {maximum}"
        raise SettingsError(f"{name}={raw!r} is out of range: expected {bounds}")
    return value


def database_url() -> str:
    """SUDOKU_DATABASE_URL: a SQLite file or a PostgreSQL database."""
    url = _raw("SUDOKU_DATABASE_URL") or DEFAULT_DATABASE_URL
    if problem := database_url_problem(url):
        raise SettingsError(f"SUDOKU_DATABASE_URL={mask_url(url)!r}: {problem}")
    return url


def broker_url() -> str:
    """SUDOKU_BROKER_URL: Redis or RabbitMQ."""
    url = _raw("SUDOKU_BROKER_URL") or DEFAULT_BROKER_URL
    if problem := broker_url_problem(url):
        raise SettingsError(f"SUDOKU_BROKER_URL={mask_url(url)!r}: {problem}")
    return url


def broker_url_problem(url: str) -> str | None:
    """Why `url` cannot name the broker (Redis or RabbitMQ), None when it can."""
    scheme, separator, _rest = url.partition("://")
    if not separator:
        return f"not a broker URL: expected {BROKER_FORMS}"
    if scheme.lower() not in BROKER_SCHEMES:
        return f"{scheme}:// is not a supported broker: expected {BROKER_FORMS}"
    return None


def queue() -> str:
    """SUDOKU_QUEUE: the name of the queue batches are sent to."""
    return _raw("SUDOKU_QUEUE") or DEFAULT_QUEUE


def deep_queue(bulk_queue: str | None = None) -> str:
    """The deep tier's queue: the bulk queue's name (SUDOKU_QUEUE) and ``.deep``."""
    return (bulk_queue or queue()) + DEEP_QUEUE_SUFFIX


def batch_size() -> int:
    """SUDOKU_BATCH_SIZE: puzzles per batch (one task each)."""
    return _integer("SUDOKU_BATCH_SIZE", DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE)


def result_backend() -> str | None:
    """SUDOKU_RESULT_BACKEND: where workers also put each pushed puzzle's result (a Celery
    result backend URL, e.g. redis://HOST:6379/1); unset, results go to SQL only."""
    url = _raw("SUDOKU_RESULT_BACKEND")
    if url is not None and "://" not in url:
        raise SettingsError(
            f"SUDOKU_RESULT_BACKEND={mask_url(url)!r}: not a URL, expected redis://HOST:6379/DB"
        )
    return url


def node_budget() -> int:
    """SUDOKU_NODE_BUDGET: search nodes per puzzle before it is `gave_up`."""
    return _integer("SUDOKU_NODE_BUDGET", DEFAULT_NODE_BUDGET, 1)


def rating_profile() -> str:
    """SUDOKU_RATING_PROFILE: the ladder puzzles are rated on (classic: Sudoku Explainer;
    sukaku: SukakuExplainer)."""
    raw = _raw("SUDOKU_RATING_PROFILE")
    name = (raw or DEFAULT_PROFILE).lower()
    if name not in PROFILES:
        expected = ", ".join(PROFILES)
        raise SettingsError(f"SUDOKU_RATING_PROFILE={raw!r}: expected one of {expected}")
    return name


def rating_mode() -> str:
    """SUDOKU_RATING: exact (Sudoku Explainer's own ratings, SE's chains tried within the work
    budgets) or fast (SE's chains never tried: ratings past 6.2 are estimates)."""
    check_retired()
    raw = _raw("SUDOKU_RATING")
    name = (raw or RATING_MODES[0]).lower()
    if name not in RATING_MODES:
        raise SettingsError(f"SUDOKU_RATING={raw!r}: expected one of {', '.join(RATING_MODES)}")
    return name


def _budget(name: str, default: int) -> int:
    return _integer(name, default, 1, work.MAX_BUDGET)


def deep_work_budget() -> int:
    """SUDOKU_DEEP_WORK_BUDGET: units of work (solver.work) SE's chains may do on a puzzle rated
    alone: in the deep tier, by `solve` and `explain`."""
    return _budget("SUDOKU_DEEP_WORK_BUDGET", work.DEEP)


def rating_plan() -> RatingPlan:
    """How puzzles are rated: SUDOKU_RATING_PROFILE, SUDOKU_RATING and the work budgets
    (SUDOKU_WORK_BUDGET a puzzle and SUDOKU_BATCH_WORK_BUDGET a batch on the bulk path,
    SUDOKU_DEEP_WORK_BUDGET a puzzle in the deep tier; units of solver.work)."""
    return RatingPlan(
        profile=rating_profile(),
        exact=rating_mode() == "exact",
        bulk=_budget("SUDOKU_WORK_BUDGET", work.BULK),
        batch=_budget("SUDOKU_BATCH_WORK_BUDGET", work.BATCH),
        deep=deep_work_budget(),
    )


def solver_backend() -> str:
    """SUDOKU_SOLVER_BACKEND: auto (the compiled core when it was built), native or python."""
    raw = _raw("SUDOKU_SOLVER_BACKEND")
    name = (raw or "auto").lower()
    if name not in SOLVER_BACKENDS:
        raise SettingsError(
            f"SUDOKU_SOLVER_BACKEND={raw!r}: expected one of " + ", ".join(SOLVER_BACKENDS)
        )
    return name


def use_solver_backend() -> str:
    """Put the configured solver backend in use in this process; returns its name."""
    import solver

    name = solver_backend()
    try:  # SUDOKU_SOLVER_BACKEND=native without a built core
        solver.use_backend(name)
    except ValueError as exc:
        raise SettingsError(f"SUDOKU_SOLVER_BACKEND={name!r}: {exc}") from exc
    log = logging.getLogger("solver")
    log.info("solver backend: %s", solver.backend())
    if solver.backend() == "python" and rating_mode() == "exact":
        log.warning(
            "the pure-Python solver does a unit of SE's chains' work about %dx slower than the "
            "compiled core: exact ratings take that much longer, and a worker's batches may "
            "reach their time limits (SUDOKU_RATING=fast, or smaller work budgets, avoid it)",
            REFERENCE_SLOWDOWN,
        )
    return solver.backend()


@dataclass(frozen=True)
class Settings:
    """Everything a worker uses, typed and checked together. Build one with `from_env()`."""

    database_url: str = DEFAULT_DATABASE_URL
    broker_url: str = DEFAULT_BROKER_URL
    queue: str = DEFAULT_QUEUE
    batch_size: int = DEFAULT_BATCH_SIZE
    group_size: int = DEFAULT_GROUP_SIZE
    group_wait: float = DEFAULT_GROUP_WAIT_MS / 1000  # seconds
    result_backend: str | None = None
    node_budget: int = DEFAULT_NODE_BUDGET
    rating: RatingPlan = DEFAULT_PLAN  # the profile, exact or fast, the work budgets
    worker_concurrency: int = 0  # 0: one process per core
    task_soft_time_limit: int = 240
    task_time_limit: int = 300
    task_max_retries: int = 10
    retry_backoff_max: int = 60
    visibility_timeout: int = 900
    unacked_restore_interval: int = 5
    lost_batch_check_interval: int = 30  # 0: workers never re-send batches the broker lost
    solver_backend: str = "auto"  # auto: the compiled core when it was built

    def __post_init__(self) -> None:
        if not 0 < self.task_soft_time_limit < self.task_time_limit:
            raise SettingsError(
                "SUDOKU_TASK_SOFT_TIME_LIMIT must be positive and below the hard limit"
            )
        if self.visibility_timeout <= self.task_time_limit + self.retry_backoff_max:
            raise SettingsError(
                "SUDOKU_VISIBILITY_TIMEOUT must exceed the hard time limit plus the longest retry "
                "countdown, or a slow batch is delivered twice"
            )

    @classmethod
    def from_env(cls) -> Settings:
        """Every setting, each checked alone, then together."""
        return cls(
            database_url=database_url(),
            broker_url=broker_url(),
            queue=queue(),
            batch_size=batch_size(),
            group_size=_integer("SUDOKU_GROUP_SIZE", DEFAULT_GROUP_SIZE, 1, MAX_BATCH_SIZE),
            group_wait=_integer("SUDOKU_GROUP_WAIT_MS", DEFAULT_GROUP_WAIT_MS, 0, 60_000) / 1000,
            result_backend=result_backend(),
            node_budget=node_budget(),
            rating=rating_plan(),
            worker_concurrency=_integer("SUDOKU_WORKER_CONCURRENCY", cls.worker_concurrency, 0),
            task_soft_time_limit=_integer(
                "SUDOKU_TASK_SOFT_TIME_LIMIT", cls.task_soft_time_limit, 1
            ),
            task_time_limit=_integer("SUDOKU_TASK_TIME_LIMIT", cls.task_time_limit, 1),
            task_max_retries=_integer("SUDOKU_TASK_MAX_RETRIES", cls.task_max_retries, 0),
            retry_backoff_max=_integer("SUDOKU_RETRY_BACKOFF_MAX", cls.retry_backoff_max, 0),
            visibility_timeout=_integer("SUDOKU_VISIBILITY_TIMEOUT", cls.visibility_timeout, 1),
            unacked_restore_interval=_integer(
                "SUDOKU_UNACKED_RESTORE_INTERVAL", cls.unacked_restore_interval, 1
            ),
            lost_batch_check_interval=_integer(
                "SUDOKU_LOST_BATCH_CHECK_INTERVAL", cls.lost_batch_check_interval, 0
            ),
            solver_backend=solver_backend(),
        )


def get_settings() -> Settings:
    """Every setting, for a worker (read afresh, so tests can change the environment)."""
    return Settings.from_env()
