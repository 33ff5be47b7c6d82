"""The layers of the code and which may import which, declared once: tests/test_layers.py holds
the code to them (its real imports, read with `ast`), and tests/test_docs_facts.py holds the
architecture page's table of layers to them.

A layer is a set of modules, named by their dotted prefixes; a module belongs to the layer
with the longest prefix of its name. It may import its own modules, those of every layer its
arrows reach (`below`, followed down), the standard library, and only the outside packages
it names (`ANY`: whatever it likes). An import inside a function counts too: it is a
dependency all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "db", "migrations", "worker")  # where the layers' modules live
ANY = ("*",)  # the outside packages of a layer that may import whatever it needs


@dataclass(frozen=True)
class Layer:
    """One row of the architecture page's table of layers, and its arrows in the drawing."""

    name: str
    modules: tuple[str, ...]
    below: tuple[str, ...]  # the layers its arrows point to, by name
    outside: tuple[str, ...]  # the outside (not standard library) packages it may import


LAYERS = (
    Layer("cli", ("worker.cli", "worker.__main__"), ("bulk", "client"), ANY),
    Layer("bulk", ("worker.bulk",), ("files",), ("sqlalchemy",)),
    Layer("client", ("worker.client",), ("worker",), ("celery", "kombu", "sqlalchemy")),
    Layer("worker", ("worker",), ("files",), ("celery", "kombu", "redis", "sqlalchemy")),
    Layer("files", ("worker.files",), ("shared",), ("pyarrow",)),
    Layer("shared", ("worker.errors", "worker.exits", "worker.setting", "worker.settings",
          "worker.database", "worker.batch", "worker.handover"), ("db",), ("sqlalchemy",)),
    Layer("migrations", ("migrations",), ("db",), ("alembic", "sqlalchemy")),
    Layer("db", ("db",), ("solver",), ("alembic", "psycopg", "sqlalchemy")),
    Layer("solver", ("solver",), (), ()),
)  # fmt: skip
NAMED = {layer.name: layer for layer in LAYERS}

# Imports across layers that the table allows one module alone, each with its reason.
EXCEPTIONS = {
    ("migrations.env", "worker.settings"): "the database URL, when `alembic` is run by hand",
}


def layer_of(module: str) -> Layer:
    """The layer a first-party module belongs to: the one with the longest prefix of its name."""
    owners = [
        (len(prefix), layer)
        for layer in LAYERS
        for prefix in layer.modules
        if module == prefix or module.startswith(prefix + ".")
    ]
    return max(owners, key=lambda owner: owner[0])[1]


def reachable(layer: Layer) -> set[str]:
    """The names of the layers `layer` may import: those its arrows reach, followed down."""
    found: set[str] = set()
    todo = list(layer.below)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(NAMED[name].below)
    return found
