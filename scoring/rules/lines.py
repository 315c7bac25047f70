"""Candidate match lines of a grid shape: which groups of positions can form a match."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations


@dataclass(frozen=True, slots=True)
class Line:
    """Positions (flat cell indexes, row by row) that form a match when their cards are of equal rank."""

    kind: str  # "column" | "row" | "diagonal" | "anywhere"
    cells: tuple[int, ...]
    mask: int
    rule: str  # the citation of the rule that makes this line cancel


def _line(kind: str, cells: tuple[int, ...], rule: str) -> Line:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return Line(kind, cells, mask, rule)


@cache
def candidate_lines(rows: int, cols: int, match_lines: frozenset[str]) -> tuple[Line, ...]:
    """Every line that may cancel in a rows x cols grid under `match_lines` (SPEC "How a grid scores" 1).

    2-row grids: pairs (a column; any two cards of a row; a diagonal on 2x2). 3x3: full lines of three.
    "anywhere": any two cards of the grid."""
    cell = lambda r, c: r * cols + c  # noqa: E731
    lines: list[Line] = []
    if "anywhere" in match_lines:
        return tuple(_line("anywhere", pair, "seed 001") for pair in combinations(range(rows * cols), 2))
    if rows == 2:
        if "columns" in match_lines:
            lines += [_line("column", (cell(0, c), cell(1, c)), "2.3") for c in range(cols)]
        if "rows" in match_lines:
            for r in range(2):
                lines += [
                    _line("row", (cell(r, a), cell(r, b)), "9.1") for a, b in combinations(range(cols), 2)
                ]
        if "diagonals" in match_lines and cols == 2:
            lines += [_line("diagonal", (0, 3), "seed 001"), _line("diagonal", (1, 2), "seed 001")]
        return tuple(lines)
    if "columns" in match_lines:
        lines += [_line("column", tuple(cell(r, c) for r in range(rows)), "seed 001") for c in range(cols)]
    if "rows" in match_lines:
        lines += [_line("row", tuple(cell(r, c) for c in range(cols)), "seed 001") for r in range(rows)]
    if "diagonals" in match_lines and rows == cols:
        lines.append(_line("diagonal", tuple(cell(i, i) for i in range(rows)), "seed 001"))
        lines.append(_line("diagonal", tuple(cell(i, cols - 1 - i) for i in range(rows)), "seed 001"))
    return tuple(lines)


@cache
def block_cells(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The cells of every two adjacent columns of a 2-row grid (where a four-of-a-kind block can sit)."""
    if rows != 2:
        return ()
    return tuple((c, c + 1, cols + c, cols + c + 1) for c in range(cols - 1))
