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

from tournaments.planning.sizes import table_sizes

try:  # written by the "designs" helper; without it nothing is known and the planner searches
    import tournaments.planning.designs as _designs
except ModuleNotFoundError as missing:  # pragma: no cover - only before the designs module lands
    if missing.name != "tournaments.planning.designs":
        raise  # the module is there but broken: say so rather than plan without it
    _designs = None  # type: ignore[assignment]

__all__ = ["known_rounds", "start_rounds"]

IndexRounds = list[list[list[int]]]

# Ghost sets looked at per window of rounds, and windows looked at: bounds the time (< 0.1 s).
_GHOST_SETS = 3_000
_WINDOWS = 4
_ROTATION_CHECKS = 40


def known_rounds(n: int, rounds: int, *, rotating: bool = True) -> IndexRounds:
    """As many of `rounds` rounds over players 0..n-1 (SPEC table sizes) without a repeated meeting
    as the known schedules give (possibly none: an empty list). With `rotating=False` the ghosts
    need not leave the seats at tables of 3 rotating (a start for the search, which levels them)."""
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
        chosen = _ghosts(window, n + ghosts, ghosts, rotating)
        if chosen is not None:
            return _without(window, chosen)
    return _apart_rounds(full, n + ghosts, ghosts, most, rotating)


def _apart_rounds(full: IndexRounds, size: int, count: int, most: int, rotating: bool) -> IndexRounds:
    """`most` of the known rounds, in order, in which `count` ghosts never share a table, the ghosts
    taken out; [] when no ghost set leaves that many rounds. In a round robin any two players meet
    once, so two ghosts cost one round: 50 players play 16 of the 52-player round robin's 17 rounds
    (the bound) with no repeat."""
    table_of = [{p: index for index, table in enumerate(tables) for p in table} for tables in full]
    checked = 0  # rotation checks cost a few ms each: a few dozen at most
    for tried, chosen in enumerate(combinations(range(size - 1, -1, -1), count)):
        if tried > _GHOST_SETS or checked > _ROTATION_CHECKS:
            return []
        kept = [
            tables
            for tables, at in zip(full, table_of, strict=True)
            if len({at[ghost] for ghost in chosen}) == count
        ]
        if len(kept) < most:
            continue
        if rotating:
            checked += 1
            if not _rotating_set(kept[:most], size, chosen):
                continue
        return _without(kept[:most], chosen)
    return []


def _rotating_set(window: IndexRounds, size: int, chosen: tuple[int, ...]) -> bool:
    """Whether taking `chosen` out of `window` leaves the seats at tables of 3 rotating."""
    met = _met_bits(window, size)
    ghosts = sum(1 << ghost for ghost in chosen)
    return _rotates([met[ghost] for ghost in chosen], ((1 << size) - 1) & ~ghosts)


def _met_bits(window: IndexRounds, size: int) -> list[int]:
    """`met[p]`: the players p sits with in `window` (p left out), as bits."""
    met = [0] * size
    for tables in window:
        for table in tables:
            bits = sum(1 << player for player in table)
            for player in table:
                met[player] |= bits
    return [bits & ~(1 << player) for player, bits in enumerate(met)]


def start_rounds(n: int, rounds: int) -> IndexRounds:
    """A start for the search when nothing better is known for n players: the first `rounds` rounds
    of a known schedule of up to 8 players more, the extra players taken out (players who never
    meet in those rounds when some are found) and the tables they broke re-formed into the SPEC's
    sizes (a few repeats there, which the search removes); an empty list when none is known."""
    if _designs is None or rounds < 1 or 5 in table_sizes(n):
        return []
    for size in range(n + (-n % 4 or 4), n + 9, 4):
        if _designs.max_known_rounds(size) >= rounds:
            window = _designs.known_schedule(size, rounds) or []
            extra = size - n
            gone = _ghosts(window, size, extra, False) or tuple(range(size - 1, n - 1, -1))
            return _repacked(_without(window, gone), n)
    return []


def _repacked(rounds: IndexRounds, n: int) -> IndexRounds:
    """Each round's whole tables of 4 kept (as many as the SPEC has), the other players pooled and
    seated in order at the SPEC's remaining tables."""
    sizes = table_sizes(n)
    fours, threes = sizes.count(4), sizes.count(3)
    out = []
    for tables in rounds:
        whole = [table for table in tables if len(table) == 4]
        pool = [player for table in tables if len(table) < 4 for player in table]
        while len(whole) > fours:
            pool.extend(whole.pop())
        for size in [4] * (fours - len(whole)) + [3] * threes:
            whole.append(pool[:size])
            pool = pool[size:]
        out.append(whole)
    return out


def _window_starts(known: int, wanted: int) -> list[int]:
    """Where the windows of `wanted` consecutive rounds start among the `known` rounds."""
    starts = list(range(known - wanted + 1))
    step = max(1, len(starts) // _WINDOWS)
    return starts[::step][:_WINDOWS]


def _ghosts(window: list[list[list[int]]], size: int, count: int, rotating: bool) -> tuple[int, ...] | None:
    """`count` players who never meet in `window` (and leave the seats at tables of 3 rotating)."""
    met = _met_bits(window, size)
    everyone = (1 << size) - 1
    for tried, chosen in enumerate(combinations(range(size - 1, -1, -1), count)):
        if tried > _GHOST_SETS:
            return None
        ghosts = sum(1 << ghost for ghost in chosen)
        if any(met[ghost] & ghosts for ghost in chosen):
            continue
        if not rotating or _rotates([met[ghost] for ghost in chosen], everyone & ~ghosts):
            return chosen
    return None


def _rotates(neighbours: list[int], real: int) -> bool:
    """Whether the players in `real` sit next to the ghosts (whose tablemates are `neighbours`, as
    bits) equally often, give or take one: no player k times and another k + 2 times or more."""
    at_least = [real]  # at_least[k]: the players next to k ghosts or more
    for k in range(1, len(neighbours) + 1):
        at_least.append(real & _any_of([_all_of(group) for group in combinations(neighbours, k)]))
    return all(not (at_least[k + 2] and at_least[k] & ~at_least[k + 1]) for k in range(len(neighbours) - 1))


def _all_of(masks: tuple[int, ...]) -> int:
    out = -1
    for mask in masks:
        out &= mask
    return out


def _any_of(masks: list[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _without(window: list[list[list[int]]], ghosts: tuple[int, ...]) -> IndexRounds:
    """The window's rounds with the ghosts taken out and the others numbered 0..n-1."""
    gone = set(ghosts)
    number: dict[int, int] = {}
    for player in range(sum(len(table) for table in window[0])):
        if player not in gone:
            number[player] = len(number)
    return [[[number[p] for p in table if p not in gone] for table in tables] for tables in window]
