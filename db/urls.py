"""Database URLs: the driver they are opened with, and how they are shown.

Passwords never leave here unmasked: print or log `mask_url(url)`, never the URL itself.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.engine import make_url


def normalize_url(url: str) -> str:
    """The URL with `postgresql://` (or `postgres://`) pointed at the psycopg 3 driver."""
    parsed = make_url(url)
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def mask_url(url: str) -> str:
    """The URL with its password replaced by `***`, fit for logs and screens."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
