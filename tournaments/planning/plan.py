"""`plan_rounds`: the seating plan of an event's rounds still to seat (SPEC "Seating plans").

The plan is made on indexes 0..n-1 (the players still to seat, in the order given). A fresh event
(no round seated yet) takes a known schedule without repeats when `designs.known_schedule` has one
for that many players and rounds; when it knows fewer rounds, its rounds are kept and the rest is
searched. Otherwise the whole schedule is searched (`search.Search`). Then, for a fresh event, the
players are put in the plan's places at random from the seed (so round 1 is random), and every
table's seat order is a seeded shuffle.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tournaments.planning.bounds import count_repeats, least_possible
from tournaments.planning.known import known_rounds, start_rounds
from tournaments.planning.search import TABLES_PER_STEP, Search
from tournaments.planning.sizes import SeatingError, table_sizes

__all__ = ["Plan", "plan_rounds"]

IndexRounds = list[list[list[int]]]

# The search's budget (never wall-clock, so a seed gives one plan on any machine): at most STEPS
# steps and at most WORK swaps looked at (a step looks at up to 2 x 192 of them): 0.3 to 0.8 s
# on this machine when the bound is out of reach (twice the budget lowered the repeats by ~1%).
STEPS = 20_000
WORK = 1_200_000
#: The smallest field that takes a schedule without repeats before a strict rotation of the seats at
#: tables of 3 (see `fresh_plan`).
_LOOSE_FROM = 40


@dataclass(frozen=True)
class Plan[P: Hashable]:
    """The new rounds (tables in seat order) and the whole event's repeats against the bound."""

    rounds: tuple[tuple[tuple[P, ...], ...], ...]
    repeats: int
    least_possible: int


def plan_rounds[P: Hashable](
    players: Sequence[P], *, rounds: int, seed: int, seated: Sequence[Sequence[Sequence[P]]] = ()
) -> Plan[P]:
    """Plan rounds len(seated)+1 .. rounds for `players` (the players to seat from now on, in the
    event's order). `seated` are the rounds already seated (frozen; they may hold players no longer
    in `players`, and players may be missing from them: late entries). Table sizes by the SPEC
    (`table_sizes`). Deterministic for a seed. With seated == (), the plan is made on indexes and
    the players put in its places at random from the seed (so round 1 stays random)."""
    players = list(players)
    if len(set(players)) != len(players):
        raise SeatingError("A player is listed twice.")
    table_sizes(len(players))  # raises below 3 players
    if rounds < 0:
        raise SeatingError(f"{rounds} rounds cannot be planned.")
    if rounds < len(seated):
        raise SeatingError(f"{len(seated)} rounds are seated already: more than the {rounds} planned.")
    bound = least_possible(players, rounds=rounds, seated=seated)
    rng = random.Random(f"plan:{seed}:{len(players)}:{rounds}:{len(seated)}")
    if seated:
        index = {player: i for i, player in enumerate(players)}
        fixed = [[[index[p] for p in table if p in index] for table in tables] for tables in seated]
        turns = _turns_at_three(seated, index)
        internal = bound - count_repeats(seated) + count_repeats(fixed)
        planned = _search(len(players), rounds - len(seated), fixed, turns, internal, rng)
        places = players
    else:
        planned = fresh_plan(len(players), rounds, seed)
        places = list(players)
        random.Random(f"places:{seed}:{len(players)}").shuffle(places)
    new = tuple(
        tuple(tuple(places[i] for i in _seat_order(table, rng)) for table in _ordered(tables))
        for tables in planned
    )
    return Plan(rounds=new, repeats=count_repeats([*seated, *new]), least_possible=bound)


def fresh_plan(n: int, rounds: int, seed: int) -> IndexRounds:
    """The plan of a fresh event on indexes 0..n-1, deterministic from (n, rounds, seed): a known
    schedule; else the known rounds kept and the rest searched, and when that misses the bound, a
    search of all the rounds starting from the known ones (the better of the two kept); else a
    search from ghosts that do not rotate; else from a larger known schedule (`start_rounds`) and
    from random rounds, the better kept."""
    prefix = known_rounds(n, rounds)
    if len(prefix) == rounds:
        return prefix
    loose = known_rounds(n, rounds, rotating=False) if n % 4 and n >= _LOOSE_FROM else []
    if len(loose) == rounds and _turns_spread(loose, n) <= 3:
        # From 40 players on (at most 3 tables of 3 among 10 or more), a schedule with no repeat at
        # all is taken even when a few players then sit at a table of 3 up to 3 times more or less
        # than others: levelling them to one apart costs repeats (41 x 13 and 50 x 16 would have
        # 6). In smaller fields the tables of 3 are many and their strict rotation comes first.
        return loose
    rng = random.Random(f"fresh:{seed}:{n}:{rounds}")
    bound = least_possible(range(n), rounds=rounds)
    plans = []
    if prefix:
        target = least_possible(range(n), rounds=rounds, seated=prefix)
        turns = _turns_at_three(prefix, {player: player for player in range(n)})
        kept = random.Random(f"fresh:{seed}:{n}:{rounds}:kept")
        plans.append(prefix + _search(n, rounds - len(prefix), prefix, turns, target, kept))
        if count_repeats(plans[0]) <= bound:
            return plans[0]
    # Ghosts that never meet but leave some players at tables of 3 too often are a start that the
    # search levels (a few cross-size swaps), then improves. A start from a larger schedule with
    # broken tables re-formed helps near the limit and can hurt below it: a random start runs too.
    starts = [prefix or (known_rounds(n, rounds, rotating=False) if n % 4 else [])]
    if not starts[0]:
        starts = [start_rounds(n, rounds), []] if start_rounds(n, rounds) else [[]]
    for start in starts:
        # The random start has the same seeded stream whatever else was tried before it.
        stream = random.Random(f"fresh:{seed}:{n}:{rounds}:{len(start)}") if start else rng
        plans.append(_search(n, rounds, [], [0] * n, bound, stream, start=start))
        if count_repeats(plans[-1]) <= bound:
            break
    return min(plans, key=count_repeats)


def _turns_spread(rounds: IndexRounds, n: int) -> int:
    """How far apart the players' seats at tables of 3 are over `rounds` (most - fewest)."""
    turns = [0] * n
    for tables in rounds:
        for table in tables:
            if len(table) == 3:
                for player in table:
                    turns[player] += 1
    return max(turns) - min(turns)


def _search(
    n: int,
    new: int,
    fixed: IndexRounds,
    turns: list[int],
    target: int,
    rng: random.Random,
    start: IndexRounds | None = None,
) -> IndexRounds:
    """`new` rounds over 0..n-1 after the frozen `fixed` rounds (indexes of players still to seat),
    with `turns[p]` seats at tables of 3 so far; searched down to `target` repeats at best. The
    search starts from `start` (its first rounds, seats at tables of 3 levelled first), the rest
    random."""
    if new <= 0:
        return []
    base = [0] * (n * n)
    for tables in fixed:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    base[a * n + b] += 1
                    base[b * n + a] += 1
    begun = [[list(table) for table in tables] for tables in start or []]
    rounds = begun + _initial(n, new - len(begun), _turns_after(begun, turns), rng)
    if len(rounds[0]) < 2:
        return rounds
    search = Search(n, rounds, base, turns)
    if begun:
        search.level()
    per_step = 2 * min(n, 4 * TABLES_PER_STEP)
    search.run(rng, steps=min(STEPS, WORK // per_step), target=target)
    return search.result()


def _initial(n: int, new: int, turns: list[int], rng: random.Random) -> IndexRounds:
    """Random rounds in which the seats at tables of 3 go, round by round, to the players who sat
    at one least often (a seeded order among equals), so who sits there rotates."""
    sizes = table_sizes(n)
    seats_at_three = sum(size for size in sizes if size == 3) if 4 in sizes else 0
    counts = list(turns)
    order = list(range(n))
    rng.shuffle(order)
    rank = {player: i for i, player in enumerate(order)}
    rounds = []
    for _ in range(new):
        by_turn = sorted(range(n), key=lambda p: (counts[p], rank[p]))
        threes, fours = by_turn[:seats_at_three], by_turn[seats_at_three:]
        for p in threes:
            counts[p] += 1
        rng.shuffle(threes)
        rng.shuffle(fours)
        ordered = fours + threes if seats_at_three else order[:]
        if not seats_at_three:
            rng.shuffle(ordered)
        tables, start = [], 0
        for size in sorted(sizes, reverse=True):
            tables.append(ordered[start : start + size])
            start += size
        rounds.append(tables)
    return rounds


def _turns_after(rounds: IndexRounds, turns: list[int]) -> list[int]:
    """`turns` plus the seats at tables of 3 in `rounds`."""
    after = list(turns)
    for tables in rounds:
        for table in tables:
            if len(table) == 3:
                for player in table:
                    after[player] += 1
    return after


def _turns_at_three(seated: Sequence[Sequence[Sequence[Hashable]]], index: dict[Hashable, int]) -> list[int]:
    """How often each player still to seat sat at a table of 3 in the seated rounds."""
    turns = [0] * len(index)
    for tables in seated:
        for table in tables:
            if len(table) == 3:
                for player in table:
                    if player in index:
                        turns[index[player]] += 1
    return turns


def _ordered(tables: list[list[int]]) -> list[list[int]]:
    """Tables of 4 (or the one of 5) first, then tables of 3, as `table_sizes` lists them."""
    return sorted(tables, key=len, reverse=True)


def _seat_order(table: list[int], rng: random.Random) -> list[int]:
    """The seat order around a table: a seeded shuffle."""
    seats = list(table)
    rng.shuffle(seats)
    return seats
