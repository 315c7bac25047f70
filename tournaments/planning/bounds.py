"""Counting repeated meetings, and the lower bound on them that the planner reports.

Repeats (SPEC "Seating plans"): the sum over every pair of players of (times they shared a table
- 1) where positive. Equivalently, total meetings minus distinct pairs met, so that summed over the
players, (meetings of p - distinct players p met) = 2 x repeats.

The lower bound (`least_possible`) for a whole event of `rounds` rounds, given the rounds already
seated (frozen), is the larger of two counting bounds; both count only what the rounds still to
plan can add to the repeats already in the seated rounds:

* **Per player.** A player at a table of 4 meets 3 players, at a table of 3 meets 2 (5 players:
  one table of 5, 4). Over the new rounds player p meets 3 x new - x_p players, where x_p is how
  often p sits at a table of 3; at most `unmet_p` of them (the players still to seat whom p has
  not met yet) are first meetings, so p takes part in at least max(0, 3 x new - x_p - unmet_p)
  new repeats. Each round has a fixed number k of seats at tables of 3, and any x with
  0 <= x_p <= new and sum x_p = k x new can be realised, so the least total is found greedily:
  sum_p e_p - min(k x new, sum_p min(new, e_p)) with e_p = max(0, 3 x new - unmet_p). Every
  repeated meeting involves two players: new repeats >= ceil(that / 2).
* **Pairs.** The new rounds hold T meetings (sum over their tables of size x (size - 1) / 2) and
  at most U of them are first meetings (U = pairs of players still to seat who have not met):
  new repeats >= T - U. (The per-player bound is never weaker; both are kept for clarity.)

For a fresh event (no seated round) at 16 players and 6 rounds: 18 meetings each against 15
others, 3 repeats per player, 16 x 3 / 2 = 24, which the planner reaches. Zero is the bound
whenever 3 x rounds <= players - 1; the bound is not always reachable (20 players in 6 rounds is
open in the literature).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations

from tournaments.planning.sizes import table_sizes

__all__ = ["count_repeats", "least_possible", "pair_counts"]


def pair_counts(rounds: Iterable[Iterable[Sequence[Hashable]]]) -> dict[tuple[int, int], int]:
    """How often each pair met, keyed by the pair of players' first-seen indexes (low, high)."""
    index: dict[Hashable, int] = {}
    counts: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for table in tables:
            ids = sorted(index.setdefault(player, len(index)) for player in table)
            for pair in combinations(ids, 2):
                counts[pair] = counts.get(pair, 0) + 1
    return counts


def count_repeats(rounds: Iterable[Iterable[Sequence[Hashable]]]) -> int:
    """The SPEC's measure: sum over pairs of (times they shared a table - 1) where positive."""
    return sum(times - 1 for times in pair_counts(rounds).values() if times > 1)


def least_possible(
    players: Sequence[Hashable], *, rounds: int, seated: Sequence[Sequence[Sequence[Hashable]]] = ()
) -> int:
    """A lower bound on the repeats of a whole event of `rounds` rounds: the `seated` rounds (frozen,
    they may hold players who left) and then rounds len(seated)+1 .. rounds over `players`.
    See the module's docstring for the two counting bounds."""
    new = rounds - len(seated)
    already = count_repeats(seated)
    if new <= 0:
        return already
    sizes = table_sizes(len(players))
    current = set(players)
    met: dict[Hashable, set[Hashable]] = {player: set() for player in players}
    for tables in seated:
        for table in tables:
            here = [player for player in table if player in current]
            for player in here:
                met[player].update(here)
    unmet = [len(players) - len(met[player] | {player}) for player in players]
    mixed = 4 in sizes and 3 in sizes
    per_round = 3 if mixed else sizes[0] - 1
    at_three = sum(size for size in sizes if size == 3) if mixed else 0
    excess = [max(0, per_round * new - free) for free in unmet]
    relief = min(at_three * new, sum(min(new, e) for e in excess))
    per_player = (sum(excess) - relief + 1) // 2
    meetings = new * sum(size * (size - 1) // 2 for size in sizes)
    pairs = max(0, meetings - sum(unmet) // 2)
    return already + max(per_player, pairs)
