"""Database URLs: which ones the storage layer takes, the driver they are opened with, and
how they are shown.

Passwords never leave here unmasked: print or log `mask_url(url)`, never the URL itself.
SQLAlchemy is imported only to open a URL, so checking or showing one stays cheap.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

# The dialects (and drivers) the bulk writes are written for: SQLite's and psycopg 3's.
SUPPORTED = {
    "sqlite": "sqlite",
    "sqlite+pysqlite": "sqlite",
    "postgresql": "postgresql",
    "postgres": "postgresql",
    "postgresql+psycopg": "postgresql",
}
FORMS = "sqlite:///PATH or postgresql://USER:PASSWORD@HOST:5432/DATABASE"
IN_MEMORY = ("", ":memory:")  # a SQLite URL's database part that names no file


def in_memory(database: str | None) -> bool:
    """Whether a SQLite URL's database part (`make_url(url).database`) is in its process's
    memory, or may be (a `file:` URI): no other process can open it, nor browse it."""
    name = database or ""
    return name in IN_MEMORY or name.startswith("file:")


def database_url_problem(url: str) -> str | None:
    """Why `url` cannot name a sudoku-batch database, None when it can."""
    scheme, separator, rest = url.partition("://")
    if not separator or not scheme:
        return f"not a database URL: expected {FORMS}"
    if scheme.lower() not in SUPPORTED:
        return f"{scheme}:// is not supported: expected {FORMS}"
    if SUPPORTED[scheme.lower()] == "sqlite" and rest and not rest.startswith("/"):
        return (
            f"{scheme}://{rest} names a host, not a file: write {scheme}:///{rest} (three "
            "slashes) for a path relative to the current directory, or four for an absolute one"
        )
    return None


def normalize_url(url: str) -> str:
    """The URL with `postgresql://` (or `postgres://`) pointed at the psycopg 3 driver."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def mask_url(url: str) -> str:
    """The URL with its password replaced by `***`, fit for logs and screens."""
    try:
        parts = urlsplit(url)
        password = parts.password
        port = parts.port
    except ValueError:
        return "<unparseable URL>"
    if password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if port is not None:
        host = f"{host}:{port}"
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
