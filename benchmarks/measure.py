"""What the identity benchmarks share: benchmarks/solver.py's mix (loaded under another name
than the solver package's) and a CPU timer over batches."""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def solver_benchmark() -> ModuleType:
    """benchmarks/solver.py (its mix), loaded under another name than the package's."""
    spec = importlib.util.spec_from_file_location(
        "solver_benchmark", ROOT / "benchmarks" / "solver.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def cpu_us(call: Callable[[list[str]], object], puzzles: Sequence[str], batch: int) -> float:
    """Mean CPU microseconds a puzzle of ``call`` over the puzzles, in batches."""
    spent = 0.0
    for k in range(0, len(puzzles), batch):
        chunk = list(puzzles[k : k + batch])
        started = time.process_time()
        call(chunk)
        spent += time.process_time() - started
    return spent / len(puzzles) * 1e6
