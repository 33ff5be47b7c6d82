"""Building the project's wheel from a clean copy of the checkout, as a user's pip would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What a source checkout may hold besides the sources: left out of the copy that is built.
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.so", ".*_cache",
    ".hypothesis", "*.db", "tests", "benchmarks",
)  # fmt: skip


def build_wheel(tmp_path: Path, compiler: str | None) -> Path:
    """A wheel of a copy of the project, built with ``compiler`` as CC (pip, no isolation)."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    env = {**os.environ, "PIP_NO_INPUT": "1"}
    if compiler:
        env["CC"] = compiler
    command = [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps"]
    command += ["--no-build-isolation", "--no-index", "-q", "-w", str(tmp_path / "dist")]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = (tmp_path / "dist").glob("sudoku_batch-*.whl")
    return wheel
