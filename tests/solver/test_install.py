"""Installing without a C compiler works: the wheel has no compiled core, and the solver falls
back to the reference with one warning line. Checked on real wheels and in fresh processes."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.wheels import ROOT, build_wheel

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVE = f"""
import solver
print(solver.backend(), "+".join(solver.available()), solver.solve({PUZZLE!r}).status)
"""
# Preludes that hide the core the editable install built: as if it was never built (None in
# sys.modules makes its import a ModuleNotFoundError), or as if it was built but cannot load.
NOT_BUILT = "import sys; sys.modules['solver._core'] = None\n"
BROKEN = """
import sys
from importlib.abc import MetaPathFinder
class Broken(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "solver._core":
            raise ImportError("undefined symbol: sudoku_core_solve")
sys.meta_path.insert(0, Broken())
"""


def run_from(wheel: Path, tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter that sees only the unpacked wheel and the standard
    library (-S: no site-packages, so not the editable install either)."""
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    prelude = f"import sys; sys.path.insert(0, {str(unpacked)!r})\n"
    command = [sys.executable, "-S", "-c", prelude + code]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def core_files(wheel: Path) -> list[str]:
    """The compiled core's files in a wheel (``solver/_core.<tag>.so``)."""
    with zipfile.ZipFile(wheel) as archive:
        return [n for n in archive.namelist() if n.startswith("solver/_core")]


def test_a_wheel_built_without_a_c_compiler_has_no_core_and_solves_in_python(
    tmp_path: Path,
) -> None:
    """CC=false: the wheel still builds, holds no solver._core, and solves with the reference
    after one warning line."""
    wheel = build_wheel(tmp_path, compiler="false")
    assert core_files(wheel) == []
    done = run_from(wheel, tmp_path, SOLVE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "python", "solved"]
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "compiled core not available" in done.stderr


@pytest.mark.slow
def test_a_wheel_built_with_a_c_compiler_holds_the_core_and_uses_it(tmp_path: Path) -> None:
    """The same build with the compiler: the core is in the wheel, loads, and is used."""
    wheel = build_wheel(tmp_path, compiler=None)
    assert len(core_files(wheel)) == 1
    done = run_from(wheel, tmp_path, SOLVE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["native", "native+python", "solved"]
    assert done.stderr == ""


def run_hidden(prelude: str, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter of this environment, after ``prelude`` hid the core."""
    command = [sys.executable, "-c", prelude + code]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.parametrize(
    ("prelude", "why"),
    [
        (NOT_BUILT, "solver._core was not built (no C compiler at install time?)"),
        (BROKEN, "solver._core does not load: undefined symbol: sudoku_core_solve"),
    ],
    ids=["not built", "does not load"],
)
def test_without_the_core_import_warns_once_and_the_reference_solves(
    prelude: str, why: str
) -> None:
    """import solver logs one line saying why; backend() is python and solve works."""
    code = SOLVE + "solver.solve_many([" + repr(PUZZLE) + "] * 3, node_budget=1000)\n"
    done = run_hidden(prelude, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "python", "solved"]
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0] == (
        f"solver: compiled core not available ({why}); using the pure-Python solver "
        "(same results, much slower: see docs/guide/compiled-core.md)"
    )


def test_asking_for_the_missing_core_says_why() -> None:
    """use_backend('native') without the core: ValueError naming the reason."""
    code = """
import solver
try:
    solver.use_backend("native")
except ValueError as exc:
    print(exc)
"""
    done = run_hidden(NOT_BUILT, code)
    assert done.returncode == 0, done.stderr
    assert "solver backend 'native' is not available" in done.stdout
    assert "was not built" in done.stdout
