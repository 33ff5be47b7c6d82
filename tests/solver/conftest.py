"""Fixtures of the solver tests: the compiled core, when it was built.

Locally a missing core skips the tests that need it, with the reason; under CI=true (where
the package is built with a C compiler) a missing core fails them.
"""

from __future__ import annotations

from types import ModuleType

import pytest

import solver
from solver import backends
from tests.conftest import missing


@pytest.fixture(scope="session")
def native() -> ModuleType:
    """``solver.native``: the compiled core behind the solver's API."""
    if backends.native is None:
        missing(f"the compiled core is not available: {solver.unavailable_reason()}")
    return backends.native


@pytest.fixture(scope="session")
def core(native: ModuleType) -> ModuleType:
    """``solver._core``: the extension module itself, called raw."""
    return native._core  # type: ignore[no-any-return]
