"""What an install puts in site-packages: solver, db and worker, typed, with the Alembic
revisions inside db, and nothing under a name another project uses (settings, migrations)."""

from __future__ import annotations

import os
import subprocess
import venv
import zipfile
from pathlib import Path, PurePosixPath

import pytest

from tests.wheels import ROOT, build_wheel

TOP_LEVEL = {"solver", "db", "worker"}
REVISIONS = sorted(path.name for path in (ROOT / "migrations" / "versions").glob("*.py"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once for this module (without the compiled core: faster)."""
    return build_wheel(tmp_path_factory.mktemp("wheel"), compiler="false")


def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def top_level(paths: list[str]) -> set[str]:
    """The first component of each path, leaving out the metadata and scripts outside."""
    first = {path.split("/")[0] for path in paths}
    return {name for name in first if not name.endswith(".dist-info") and name != ".."}


def test_the_wheel_puts_only_solver_db_and_worker_at_the_top_level(wheel: Path) -> None:
    """No top-level settings or migrations: nothing shadows another project's modules."""
    assert top_level(wheel_names(wheel)) == TOP_LEVEL


def test_the_wheel_holds_every_package_of_the_checkout(wheel: Path) -> None:
    """Each package directory of the repository is in the wheel (migrations/ as db/migrations)."""
    in_checkout = set()
    for top in (*TOP_LEVEL, "migrations"):
        for init in (ROOT / top).rglob("__init__.py"):
            package = init.parent.relative_to(ROOT).as_posix()
            in_checkout.add("db/" + package if top == "migrations" else package)
    inits = [PurePosixPath(name) for name in wheel_names(wheel) if name.endswith("/__init__.py")]
    assert {str(init.parent) for init in inits} == in_checkout


def test_the_wheel_carries_the_revisions_and_marks_each_package_typed(wheel: Path) -> None:
    """db/migrations holds env.py, the script template and every revision; py.typed in each."""
    names = set(wheel_names(wheel))
    versions = PurePosixPath("db/migrations/versions")
    revisions = sorted(PurePosixPath(n).name for n in names if PurePosixPath(n).parent == versions)
    assert revisions == REVISIONS
    assert {"db/migrations/env.py", "db/migrations/script.py.mako"} <= names
    assert {f"{package}/py.typed" for package in TOP_LEVEL} <= names


@pytest.mark.slow
def test_the_installed_command_migrates_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    """In a fresh venv and a directory outside the repository: `db upgrade`, then `run` the
    sample into a new SQLite file; nothing resolves from the checkout. The wheel is built with
    the C compiler, as pip does for a user: exact ratings in pure Python take many minutes."""
    wheel = build_wheel(tmp_path / "wheel", compiler=None)
    env_dir, work = tmp_path / "venv", tmp_path / "elsewhere"
    work.mkdir()
    venv.create(env_dir, with_pip=True)
    python, command = env_dir / "bin" / "python", env_dir / "bin" / "sudoku-batch"
    install = [str(python), "-m", "pip", "install", "-q", str(wheel)]
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    env["SUDOKU_DATABASE_URL"] = f"sqlite:///{work / 'fresh.db'}"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=work, env=env, capture_output=True, text=True, timeout=600)

    done = run(*install)
    assert done.returncode == 0, done.stdout + done.stderr
    upgraded = run(str(command), "db", "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr
    assert "at revision" in upgraded.stdout
    ran = run(str(command), "run", str(ROOT / "samples" / "sample.txt"), "--workers", "2")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "compiled core not available" not in ran.stderr
    where = run(str(python), "-c", WHERE)
    assert where.returncode == 0, where.stderr
    site, *found = where.stdout.split()
    assert all(path.startswith(site) for path in found), where.stdout
    installed = run(str(python), "-c", RECORD)
    assert top_level(installed.stdout.split()) == TOP_LEVEL


# Where the installed modules come from (site-packages first); the generic names are absent.
WHERE = """
import importlib.util, sysconfig, db.migrate, solver, worker.settings
print(sysconfig.get_paths()["purelib"], db.migrate.script_location(), solver.__file__,
      worker.settings.__file__)
assert importlib.util.find_spec("settings") is None
assert importlib.util.find_spec("migrations") is None
"""
# Every file the install recorded, relative to site-packages.
RECORD = "import importlib.metadata as m; print(*m.files('sudoku-batch'), sep='\\n')"
