"""Table sizes by the SPEC (rule 6.1): as many tables of 4 as possible, the rest at tables of 3.

Pure Python (no Django): `tournaments.seating` re-exports both names from here.
"""

from __future__ import annotations

__all__ = ["SeatingError", "table_sizes"]


class SeatingError(ValueError):
    """The players cannot be seated as asked (too few, unknown mode, a player listed twice)."""


def table_sizes(players: int) -> list[int]:
    """Table sizes for `players`: as many tables of 4 as possible, the rest at tables of 3; 5 at one
    table of 5 (9 = 3+3+3, 10 = 4+3+3, 13 = 4+3+3+3). Raises `SeatingError` below 3 players."""
    if players < 3:
        raise SeatingError(f"{players} players cannot be seated: a table needs at least 3.")
    if players == 5:
        return [5]
    threes = -players % 4
    return [4] * ((players - 3 * threes) // 4) + [3] * threes
