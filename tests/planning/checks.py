"""Checks shared by the planner's tests: a plan is a valid seating, repeats recounted directly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import combinations

from tournaments.planning import table_sizes

Rounds = Sequence[Sequence[Sequence[Hashable]]]


def assert_valid(rounds: Rounds, players: Sequence[Hashable]) -> None:
    """Everyone in `players` exactly once a round, nobody else, table sizes by the SPEC."""
    for tables in rounds:
        seats = [player for table in tables for player in table]
        assert sorted(map(repr, seats)) == sorted(map(repr, players))
        assert len(set(seats)) == len(seats)
        assert sorted(len(table) for table in tables) == sorted(table_sizes(len(players)))


def recount(rounds: Rounds) -> int:
    """Repeats by the SPEC's words: over pairs, (times at one table - 1) where positive."""
    met = Counter(frozenset(pair) for tables in rounds for table in tables for pair in combinations(table, 2))
    return sum(times - 1 for times in met.values() if times > 1)


def seats_at_three(rounds: Rounds) -> Counter[Hashable]:
    """How often each player sat at a table of 3."""
    return Counter(player for tables in rounds for table in tables if len(table) == 3 for player in table)
