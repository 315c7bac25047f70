"""Schedules without a repeat taken from the designs helper's `known_schedule`, for any field.

* **n a multiple of 4**: `designs.known_schedule(n, rounds)` as it is (the round robins 16 x 5,
  28 x 9, 40 x 13, 52 x 17, 64 x 21 and the stored zero-repeat schedules).
* **n = 4k - d (d = 1, 2, 3)**: the SPEC seats such a field at d tables of 3 and the rest at
  tables of 4, which is a schedule of 4k players with d "ghosts" taken out, provided no two ghosts
  ever sit at one table: each ghost leaves a table of 3 behind. Any d players of a known 4k
  schedule who never meet in the rounds used will do; the ones chosen are the first found (in a
  fixed order, so the plan stays deterministic) for which the seats at tables of 3 rotate: every
  player sits at one as often as every other, give or take one. No repeat can appear: the
  schedule is part of one without repeats.

When fewer rounds are known than the event has, the known ones are returned and the planner
searches the rest after them. Pure Python, deterministic.
"""

from __future__ import annotations

from itertools import combinations

try:  # written by the "designs" helper; without it nothing is known and the planner searches
    from tournaments.planning import designs as _designs
except ImportError:  # pragma: no cover - only before the designs module lands
    _designs = None  # type: ignore[assignment]

__all__ = ["known_rounds"]

IndexRounds = list[list[list[int]]]

# Ghost sets looked at per window of rounds, and windows looked at: bounds the time (< 0.1 s).
_GHOST_SETS = 20_000
_WINDOWS = 6


def known_rounds(n: int, rounds: int) -> IndexRounds:
    """As many of `rounds` rounds over players 0..n-1 (SPEC table sizes) without a repeated meeting
    as the known schedules give (possibly none: an empty list)."""
    if _designs is None or rounds < 1:
        return []
    ghosts = -n % 4
    most = min(rounds, _designs.max_known_rounds(n + ghosts))
    if most < 1:
        return []
    full = _designs.known_schedule(n + ghosts, _designs.max_known_rounds(n + ghosts))
    if not full:
        return []
    if not ghosts:
        return [[list(table) for table in tables] for tables in full[:most]]
    for start in _window_starts(len(full), most):
        window = full[start : start + most]
        chosen = _ghosts(window, n + ghosts, ghosts)
        if chosen is not None:
            return _without(window, chosen)
    return []


def _window_starts(known: int, wanted: int) -> list[int]:
    """Where the windows of `wanted` consecutive rounds start among the `known` rounds."""
    starts = list(range(known - wanted + 1))
    step = max(1, len(starts) // _WINDOWS)
    return starts[::step][:_WINDOWS]


def _ghosts(window: list[list[list[int]]], size: int, count: int) -> tuple[int, ...] | None:
    """`count` players who never meet in `window` and leave the seats at tables of 3 rotating."""
    met: list[set[int]] = [set() for _ in range(size)]
    for tables in window:
        for table in tables:
            for player in table:
                met[player].update(table)
    for player in range(size):
        met[player].discard(player)
    for tried, chosen in enumerate(combinations(range(size - 1, -1, -1), count)):
        if tried > _GHOST_SETS:
            return None
        if not any(b in met[a] for a, b in combinations(chosen, 2)) and _rotates(met, chosen, size):
            return chosen
    return None


def _rotates(met: list[set[int]], ghosts: tuple[int, ...], size: int) -> bool:
    """Whether every other player sits next to a ghost (at a table of 3) equally often, +- 1."""
    turns = [0] * size
    for ghost in ghosts:
        for player in met[ghost]:
            turns[player] += 1
    real = [turns[player] for player in range(size) if player not in ghosts]
    return max(real) - min(real) <= 1


def _without(window: list[list[list[int]]], ghosts: tuple[int, ...]) -> IndexRounds:
    """The window's rounds with the ghosts taken out and the others numbered 0..n-1."""
    gone = set(ghosts)
    number: dict[int, int] = {}
    for player in range(sum(len(table) for table in window[0])):
        if player not in gone:
            number[player] = len(number)
    return [[[number[p] for p in table if p not in gone] for table in tables] for tables in window]
