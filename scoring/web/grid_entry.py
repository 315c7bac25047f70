"""The card-keypad grid-entry component, server side: cell names, reading typed cards, per-cell errors.

The component is `templates/scoring/_grid_entry.html` (one grid of text inputs, plus a `#keypad`
partial) and `static/js/grid-entry.js` (tap a cell, tap a card). Any page can render several grids:

    entry = build_grid_entry("cell-2", rows=2, cols=3, tokens=read_tokens(request.GET, "cell-2", 2, 3),
                             problems=problems, where="grids.Ann", label="Ann")
    {% include "scoring/_grid_entry.html" with grid=entry %}
    {% include "scoring/_grid_entry.html#keypad" %}

Each cell is an input named `<prefix>-<row>-<col>` (1-based, row 1 on top, column 1 on the left, rule 1.4),
so the grid also works as a plain form with JavaScript off. Nothing here scores a grid: that is the rules
engine's job; this module only moves tokens between the request and the engine and maps the engine's
problems back to the cells they name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.rules import CardError, Problem, parse_card

# The engine names a cell "<where>[row][col]", 1-based: "grid[2][3]", "grids.Ann[1][2]".
_CELL_WHERE = re.compile(r"^(?P<where>.*)\[(?P<row>\d+)\]\[(?P<col>\d+)\]$")
# A typed token is at most "10♠" or " jk "; longer input is cut so a pasted essay cannot reach the engine.
MAX_TOKEN_LENGTH = 8


@dataclass(frozen=True, slots=True)
class Cell:
    """One card slot of a grid-entry: its input name and id, position, typed token and error."""

    name: str
    id: str
    row: int
    col: int
    value: str
    label: str
    error: str = ""

    @property
    def error_id(self) -> str:
        """The id of this cell's error message (for aria-describedby)."""
        return f"{self.id}-error"


@dataclass(frozen=True, slots=True)
class GridEntry:
    """Everything `_grid_entry.html` needs to draw one grid: see the module docstring."""

    prefix: str
    label: str
    rows: tuple[tuple[Cell, ...], ...]
    errors: tuple[str, ...] = ()
    show_label: bool = True
    label_input_id: str = ""

    @property
    def n_rows(self) -> int:
        """Rows in the grid."""
        return len(self.rows)

    @property
    def n_cols(self) -> int:
        """Columns in the grid."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def columns(self) -> range:
        """Column numbers 1..n, for the column headings."""
        return range(1, self.n_cols + 1)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell, row by row."""
        return tuple(cell for row in self.rows for cell in row)

    @property
    def invalid_names(self) -> tuple[str, ...]:
        """Input names of the cells that have an error."""
        return tuple(cell.name for cell in self.cells if cell.error)

    @property
    def tokens(self) -> list[list[str]]:
        """The typed tokens, row by row (blank for an empty cell)."""
        return [[cell.value for cell in row] for row in self.rows]


def cell_name(prefix: str, row: int, col: int) -> str:
    """The input name of a cell: `<prefix>-<row>-<col>`, 1-based."""
    return f"{prefix}-{row}-{col}"


def read_tokens(data: Mapping[str, str], prefix: str, rows: int, cols: int) -> list[list[str]]:
    """The tokens typed into a rows x cols grid (blank strings for empty cells), trimmed."""
    return [
        [
            str(data.get(cell_name(prefix, r, c), "") or "").strip()[:MAX_TOKEN_LENGTH]
            for c in range(1, cols + 1)
        ]
        for r in range(1, rows + 1)
    ]


def filled_count(tokens: Sequence[Sequence[str]]) -> int:
    """How many cells hold something."""
    return sum(1 for row in tokens for token in row if token)


def is_blank(tokens: Sequence[Sequence[str]]) -> bool:
    """True when no cell holds anything."""
    return filled_count(tokens) == 0


def is_complete(tokens: Sequence[Sequence[str]]) -> bool:
    """True when every cell holds something (not necessarily a valid card)."""
    return all(token for row in tokens for token in row)


def token_problems(
    tokens: Sequence[Sequence[str]], where: str = "grid", jokers: bool = True
) -> list[Problem]:
    """The engine's complaint about each filled cell that names no card; empty cells are skipped.
    `jokers` False: the messages do not offer jokers (the ruleset plays without them).

    Used while a grid is being filled in, so a typo shows at once without "missing card" noise.
    """
    problems: list[Problem] = []
    for r, row in enumerate(tokens, start=1):
        for c, token in enumerate(row, start=1):
            if not token:
                continue
            try:
                parse_card(token, f"{where}[{r}][{c}]", jokers)
            except CardError as error:
                problems.extend(error.problems)
    return problems


def names_a_cell(problem: Problem) -> bool:
    """True when the engine's problem points at one cell ("grid[1][3]"), so the grid shows it there."""
    return _CELL_WHERE.match(problem.where) is not None


def split_problems(problems: Iterable[Problem], where: str) -> tuple[dict[tuple[int, int], str], list[str]]:
    """The problems that belong to grid `where`: those naming a cell, by 1-based (row, col), and the rest.

    Problems of other grids or of the ruleset are left out.
    """
    by_cell: dict[tuple[int, int], str] = {}
    general: list[str] = []
    for problem in problems:
        match = _CELL_WHERE.match(problem.where)
        if match and match["where"] == where:
            key = (int(match["row"]), int(match["col"]))
            by_cell[key] = f"{by_cell[key]} {problem.message}" if key in by_cell else problem.message
        elif problem.where == where or problem.where.startswith(f"{where}["):
            general.append(problem.message)
    return by_cell, general


def build_grid_entry(
    prefix: str,
    rows: int,
    cols: int,
    tokens: Sequence[Sequence[str]] | None = None,
    problems: Iterable[Problem] = (),
    where: str = "grid",
    label: str = "",
    show_label: bool = True,
    label_input_id: str = "",
) -> GridEntry:
    """A GridEntry of rows x cols cells named after `prefix`, filled with `tokens` where they exist.

    `tokens` may have another shape (a grid being reshaped): cells outside it start empty, tokens outside
    the new shape are dropped. `problems` are the engine's (any grid); those whose `where` is
    `<where>[r][c]` are shown on their cell, other problems about `<where>` under the grid.
    `label` names the grid (a player's name; "Your grid" when blank) for screen readers and the keypad's
    status line; it is shown as the grid's heading unless `show_label` is False (the page shows it already).
    `label_input_id` names an input (a player-name field) whose value, or placeholder, the keypad's status
    line uses instead, so a name typed a moment ago shows at once.
    """
    tokens = tokens or []
    by_cell, general = split_problems(problems, where)
    grid_rows = []
    for r in range(1, rows + 1):
        row_tokens = tokens[r - 1] if r <= len(tokens) else []
        cells = []
        for c in range(1, cols + 1):
            name = cell_name(prefix, r, c)
            cells.append(
                Cell(
                    name=name,
                    id=f"id-{name}",
                    row=r,
                    col=c,
                    value=row_tokens[c - 1] if c <= len(row_tokens) else "",
                    label=_("Row %(row)d, column %(col)d") % {"row": r, "col": c},
                    error=by_cell.get((r, c), ""),
                )
            )
        grid_rows.append(tuple(cells))
    return GridEntry(
        prefix=prefix,
        label=label,
        rows=tuple(grid_rows),
        errors=tuple(general),
        show_label=show_label and bool(label),
        label_input_id=label_input_id,
    )
