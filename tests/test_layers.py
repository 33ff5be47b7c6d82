"""Each layer imports only what tests/layers.py lets it: the pure solver nothing but the standard
library, db no worker, the files layer no Celery, the Celery worker no command line, the client
no command line. Read from the sources with `ast`, so nothing is imported to check it."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.layers import ANY, EXCEPTIONS, LAYERS, PACKAGES, ROOT, Layer, layer_of, reachable


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    """Whether `name` is a first-party module or package of the checkout."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported(path: Path) -> Iterator[str]:
    """Every module the file at `path` imports: `from a import b` is `a.b` when b is a module."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                yield f"{source}.{alias.name}" if is_module(f"{source}.{alias.name}") else source


def outside_allowed(layer: Layer, package: str) -> bool:
    """Whether the layer may import the top-level `package` that is not the project's."""
    standard = package in sys.stdlib_module_names or package == "__future__"
    return standard or layer.outside == ANY or package in layer.outside


def crossings(layer: Layer) -> list[tuple[str, str]]:
    """(module, import) for every import of the layer's modules that the layer may not make."""
    found = []
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            module = module_name(path)
            if layer_of(module) != layer:
                continue
            for target in imported(path):
                first = target.split(".")[0]
                if first in PACKAGES:
                    allowed = layer_of(target).name in {layer.name, *reachable(layer)}
                else:
                    allowed = outside_allowed(layer, first)
                if not allowed and (module, target) not in EXCEPTIONS:
                    found.append((module, target))
    return found


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.name)
def test_a_layer_imports_only_the_layers_and_packages_it_may(layer: Layer) -> None:
    """No module of the layer imports a layer above it, or an outside package it is not given."""
    assert crossings(layer) == []


def test_each_exception_is_still_an_import_the_code_makes() -> None:
    """An allowed crossing the code no longer makes is dropped from the list, not kept."""
    for module, target in EXCEPTIONS:
        path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
        assert target in set(imported(path)), (module, target)
