"""Seating a tournament round: pure Python, seeded, testable (no Django).

The product rules (SPEC "Tournaments", rule 6.1 of the official reference): tables of 4, the rest
at tables of 3 (never 1 or 2: 9 = 3+3+3, 10 = 4+3+3, 13 = 4+3+3+3); 5 players sit at one table
of 5; fewer than 3 cannot be seated. Round 1 is random from the event's recorded seed, so the
same seed and players give the same seating. Later rounds are `random`, `fewest_repeats` (a
seeded local search that lowers the number of pairs who met before) or `standings` (leaders
together). In `random` and `fewest_repeats`, who sits at a table of 3 rotates (the players who
sat at one least often go there first), and at every table the first deal goes to the player
who dealt first least often.

Players are any hashable ids (the tournament's player ids); nothing here reads a database.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.planning.sizes import SeatingError, table_sizes

__all__ = [
    "MODES",
    "Seating",
    "SeatingError",
    "first_dealers",
    "pairs_met",
    "repeat_pairs",
    "seat_round",
    "table_sizes",
]

MODES = ("random", "fewest_repeats", "standings")
# How hard the local search tries, per player: enough to settle 1,000 players well within 2 s.
_SWAPS_PER_PLAYER = 40

Player = Hashable
Table = tuple[Player, ...]


@dataclass(frozen=True)
class Seating:
    """A round's tables, each in seat order (clockwise) with the seat index of its first dealer,
    and how many pairs of players at the same table had already met in earlier rounds."""

    tables: tuple[Table, ...]
    first_dealers: tuple[int, ...]
    repeat_pairs: int
    mode: str
    seed: int
    round_number: int
    sizes: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", tuple(len(table) for table in self.tables))


def pairs_met(rounds: Sequence[Sequence[Sequence[Player]]]) -> Counter[frozenset[Player]]:
    """How often each pair of players sat at one table in `rounds` (tables of players)."""
    met: Counter[frozenset[Player]] = Counter()
    for tables in rounds:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def repeat_pairs(tables: Sequence[Sequence[Player]], met: Mapping[frozenset[Player], int]) -> int:
    """How many pairs sitting together have met before (a pair met twice counts twice)."""
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2))


def seat_round(
    players: Sequence[Player],
    *,
    seed: int,
    round_number: int,
    mode: str = "random",
    earlier_rounds: Sequence[Sequence[Sequence[Player]]] = (),
    standings: Sequence[Player] = (),
    first_deals: Mapping[Player, int] | None = None,
) -> Seating:
    """Seat `players` for round `round_number` (1-based) of an event with `seed`.

    `earlier_rounds` are the tables of the rounds already seated (players in seat order), which
    give the pairs that met and who sat at tables of 3; `standings` orders the players for the
    `standings` mode (leaders first; players not listed come after, in the order given);
    `first_deals` counts how often each player dealt first (from `earlier_rounds` when omitted,
    taking seat 0 as the first dealer). Round 1 is always random.
    """
    if mode not in MODES:
        raise SeatingError(f"Unknown seating {mode!r}: use one of {', '.join(MODES)}.")
    if len(set(players)) != len(players):
        raise SeatingError("A player is listed twice.")
    sizes = table_sizes(len(players))
    rng = random.Random(f"{seed}:{round_number}")
    met = pairs_met(earlier_rounds)
    at_three: Counter[Player] = Counter()
    dealt: Counter[Player] = Counter(first_deals or {})
    for tables in earlier_rounds:
        for table in tables:
            if len(table) == 3:
                at_three.update(table)
            if first_deals is None and table:
                dealt[table[0]] += 1
    effective = "random" if round_number <= 1 else mode
    if effective == "standings":
        ranked = [p for p in standings if p in set(players)]
        ordered = ranked + [p for p in players if p not in set(ranked)]
        groups = _chunk(ordered, _sizes_rotating_threes(ordered, sizes, at_three))
    else:
        groups = _chunk(_rotated_for_threes(players, sizes, at_three, rng), sizes)
        if effective == "fewest_repeats":
            groups = _fewer_repeats(groups, met, rng, at_three)
    tables = []
    for group in groups:
        table = list(group)
        rng.shuffle(table)  # seat order around the table
        tables.append(tuple(table))
    dealers = _least_dealt_seats(tables, dealt)
    return Seating(
        tables=tuple(tables),
        first_dealers=tuple(dealers),
        repeat_pairs=repeat_pairs(tables, met),
        mode=effective,
        seed=seed,
        round_number=round_number,
    )


def first_dealers(
    tables: Sequence[Sequence[Player]], earlier_rounds: Sequence[Sequence[Sequence[Player]]] = ()
) -> tuple[int, ...]:
    """The seat index of each table's first dealer: the player who dealt first least often in
    `earlier_rounds` (seat 0 of each earlier table), the earlier seat among equals."""
    dealt: Counter[Player] = Counter(table[0] for tables_ in earlier_rounds for table in tables_ if table)
    return _least_dealt_seats(tables, dealt)


def _least_dealt_seats(tables: Sequence[Sequence[Player]], dealt: Counter[Player]) -> tuple[int, ...]:
    return tuple(min(range(len(table)), key=lambda i: (dealt[table[i]], i)) for table in tables)


def _sizes_rotating_threes(
    ordered: Sequence[Player], sizes: Sequence[int], at_three: Counter[Player]
) -> list[int]:
    """The table sizes in standings order with the tables of 3 placed where their players sat at a
    table of 3 least often (lower in the standings among equals): leaders stay together while the
    seats at tables of 3 move round by round. A small dynamic programme over (tables, threes)."""
    threes = sum(1 for size in sizes if size == 3)
    if not threes or threes == len(sizes):
        return list(sizes)
    tables = len(sizes)
    # best[i][j]: (cost, -positions of the threes) and the sizes of the first i tables with j threes.
    best: dict[tuple[int, int], tuple[tuple[int, int], list[int]]] = {(0, 0): ((0, 0), [])}
    for i in range(tables):
        for j in range(min(i, threes) + 1):
            if (i, j) not in best:
                continue
            (cost, late), chosen = best[(i, j)]
            start = 4 * (i - j) + 3 * j
            options = [((cost, late), 4, j)]
            if j < threes:
                seats = sum(at_three[p] for p in ordered[start : start + 3])
                options.append(((cost + seats, late - i), 3, j + 1))
            for key, size, used in options:
                if (i - used + 1) > tables - threes:
                    continue  # more tables of 4 than there are
                current = best.get((i + 1, used))
                if current is None or key < current[0]:
                    best[(i + 1, used)] = (key, [*chosen, size])
    return best[(tables, threes)][1]


def _chunk(ordered: Sequence[Player], sizes: Sequence[int]) -> list[list[Player]]:
    groups, start = [], 0
    for size in sizes:
        groups.append(list(ordered[start : start + size]))
        start += size
    return groups


def _rotated_for_threes(
    players: Sequence[Player], sizes: Sequence[int], at_three: Counter[Player], rng: random.Random
) -> list[Player]:
    """The players shuffled, then ordered so that those who sat at a table of 3 least often come
    last (the tables of 3 are the last sizes): the seats at tables of 3 rotate round by round."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    seats_at_three = sum(size for size in sizes if size == 3)
    if not seats_at_three:
        return shuffled
    by_turn = sorted(shuffled, key=lambda p: -at_three[p])  # stable: random among equals
    at_fours, at_threes = by_turn[: len(players) - seats_at_three], by_turn[len(players) - seats_at_three :]
    rng.shuffle(at_fours)  # no grouping by how often one sat at a table of 3
    rng.shuffle(at_threes)
    return at_fours + at_threes


def _fewer_repeats(
    groups: list[list[Player]],
    met: Counter[frozenset[Player]],
    rng: random.Random,
    at_three: Counter[Player] | None = None,
) -> list[list[Player]]:
    """Seeded local search: swap two players when it lowers the repeat pairs; stops after a fixed
    budget. Players of tables of different sizes swap only when they sat at a table of 3 equally
    often, so who sits at a table of 3 keeps its rotation."""
    turns = at_three or Counter()
    if not met or len(groups) < 2:
        return groups
    where = {player: index for index, group in enumerate(groups) for player in group}

    def cost(player: Player, group: Sequence[Player]) -> int:
        return sum(met.get(frozenset((player, other)), 0) for other in group if other != player)

    players = list(where)
    for _ in range(_SWAPS_PER_PLAYER * len(players)):
        a = rng.choice(players)
        b = rng.choice(players)
        ga, gb = where[a], where[b]
        if ga == gb or (len(groups[ga]) != len(groups[gb]) and turns[a] != turns[b]):
            continue
        rest_a = [p for p in groups[ga] if p != a]
        rest_b = [p for p in groups[gb] if p != b]
        before = cost(a, rest_a) + cost(b, rest_b)
        after = cost(b, rest_a) + cost(a, rest_b)
        if after < before:
            groups[ga] = [*rest_a, b]
            groups[gb] = [*rest_b, a]
            where[a], where[b] = gb, ga
    return groups
