"""The `report` figure: difficulty distribution and recursion-depth histogram (matplotlib)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from solver import LABELS
from worker.errors import MissingExtra, OutputError


def draw_report(
    collection: str, labels: Mapping[Any, int], depths: Mapping[Any, int], out: Path
) -> None:
    """Two bar charts side by side, saved as a PNG."""
    try:
        import matplotlib
    except ImportError:
        raise MissingExtra("the report", "matplotlib", "report") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    names = [label for label in LABELS if label in labels] + sorted(
        str(k) for k in labels if k not in LABELS
    )
    left.bar(names, [labels.get(n, 0) for n in names], color="#4c72b0")
    left.set_title("Difficulty (Sudoku Explainer buckets)")
    left.set_ylabel("puzzles")
    levels = sorted(k for k in depths if k is not None)
    right.bar([str(k) for k in levels], [depths[k] for k in levels], color="#dd8452")
    right.set_title("Recursion depth (0 = solved by elimination)")
    right.set_xlabel("deepest level of nested guesses")
    right.set_ylabel("puzzles")
    fig.suptitle(f"{collection}: {sum(labels.values()):,} puzzles")
    try:
        fig.savefig(out, dpi=110)
    except OSError as exc:  # the folder went away, the disk is full
        raise OutputError(out, exc.strerror or str(exc)) from exc
    finally:
        plt.close(fig)
