"""Grids drawn as text: the box-drawing 9x9 grid `solve` and `browse` show."""

from __future__ import annotations

TOP, MIDDLE, BOTTOM = (
    "┌───────┬───────┬───────┐",
    "├───────┼───────┼───────┤",
    "└───────┴───────┴───────┘",
)


def boxed(text: str) -> list[str]:
    """The lines of a 9x9 grid drawn with box-drawing characters ('.' for an empty cell)."""
    lines = [TOP]
    for r in range(9):
        row = text[r * 9 : r * 9 + 9]
        boxes = (" ".join(row[b : b + 3]) for b in (0, 3, 6))
        lines.append("│ " + " │ ".join(boxes) + " │")
        if r in (2, 5):
            lines.append(MIDDLE)
    lines.append(BOTTOM)
    return lines


def side_by_side(left: list[str], right: list[str], gap: str = "   ") -> str:
    """Two blocks of equal height printed next to each other."""
    return "\n".join(a + gap + b for a, b in zip(left, right, strict=True))
