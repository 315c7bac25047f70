"""Whole-schedule local search: swaps inside a round that lower the repeated meetings.

Players are indexes 0..n-1. The state is every round to plan (a list of tables, each a list of
indexes), the meeting counts of every pair in one flat list (`met[a * n + b]`, kept symmetric,
including the frozen rounds' meetings: `base`), and the set of pairs that repeat because of a
planned round (the conflicts).

A step follows the conflict-directed swap search of Dotu and Van Hentenryck ("Scheduling social
golfers locally", CPAIOR 2005): take a random conflict (two players who meet again) and a round
where they meet, and find the best swap of either player with a player of another table of that
round (a swap's change of cost is counted from the two tables alone, by bit counts; above 48
tables a seeded sample of 48 is looked at). The two players just swapped stay put in that round
for a few steps (tabu) unless a swap beats the best schedule so far. Unlike their tabu search,
which always makes the best move, a swap that adds d repeats is made only with probability
exp(-d / 0.3), as in simulated annealing at a fixed temperature: measured on 24 to 80 players,
this reaches fewer repeats per step, and looking at both players of the conflict fewer per second.
The budget is a number of steps, so a seed gives one result on any machine; the best schedule
seen is kept.

Who sits at a table of 3 rotates: players swap between a table of 4 and a table of 3 only when the
one going to the table of 3 has sat at one exactly once less than the one leaving it, which keeps
the multiset of those counts (their spread) as it was.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

__all__ = ["Search"]

# Candidate tables examined per step (all of them up to this many; a seeded sample above).
TABLES_PER_STEP = 48
# Steps a player just swapped stays put in that round (plus up to as many again, at random).
TENURE = 3
# A swap that adds d repeats is still made with probability exp(-d / TEMPERATURE).
TEMPERATURE = 0.3


class Search:
    """A schedule being improved: `rounds` is the current one, `result()` the best seen. The best is
    copied only when the search is about to leave it for a worse schedule."""

    def __init__(self, n: int, rounds: list[list[list[int]]], base: list[int], turns: list[int]) -> None:
        self.n = n
        self.base = base
        self.base_turns = turns
        self.tabu = [[0] * n for _ in rounds]
        self.load(rounds)

    def load(self, rounds: list[list[list[int]]]) -> None:
        """Take `rounds` as the current schedule and recount everything from the frozen counts."""
        n = self.n
        self.rounds = [[list(table) for table in tables] for tables in rounds]
        self.where = [[0] * n for _ in rounds]
        self.masks = [[_mask(table) for table in tables] for tables in self.rounds]
        self.met = list(self.base)
        self.once, self.twice = [0] * n, [0] * n
        self.cost = 0
        for a in range(n):
            row = self.base[a * n : a * n + n]
            if any(row):
                self.once[a] = _mask(b for b, times in enumerate(row) if times > 0)
                self.twice[a] = _mask(b for b, times in enumerate(row) if times > 1)
                self.cost += sum(times - 1 for b, times in enumerate(row) if times > 1 and b > a)
        self.turns = list(self.base_turns)
        self.conflicts: list[int] = []
        self.slot: dict[int, int] = {}
        for r, tables in enumerate(self.rounds):
            where = self.where[r]
            for t, table in enumerate(tables):
                for i, a in enumerate(table):
                    where[a] = t
                    if len(table) == 3:
                        self.turns[a] += 1
                    for b in table[i + 1 :]:
                        self._meet(a, b, 1)
        self.best: list[list[list[int]]] = []
        self.best_cost = self.cost
        self.saved = False

    def _meet(self, a: int, b: int, step: int) -> None:
        """Add (step 1) or take away (step -1) one meeting of a and b."""
        n, met = self.n, self.met
        key = a * n + b if a < b else b * n + a
        before = met[key]
        after = before + step
        met[key] = met[b * n + a if a < b else a * n + b] = after
        if (before > 0) != (after > 0):
            self.once[a] ^= 1 << b
            self.once[b] ^= 1 << a
        if (before > 1) != (after > 1):
            self.twice[a] ^= 1 << b
            self.twice[b] ^= 1 << a
            self.cost += step
        elif after > 1:
            self.cost += step
        was = before > 1 and before > self.base[key]
        now = after > 1 and after > self.base[key]
        if was != now:
            if now:
                self.slot[key] = len(self.conflicts)
                self.conflicts.append(key)
            else:
                index = self.slot.pop(key)
                last = self.conflicts.pop()
                if last != key:
                    self.conflicts[index] = last
                    self.slot[last] = index

    def swap(self, r: int, a: int, b: int) -> None:
        """Swap players a and b (at different tables) in round r."""
        where, tables, masks = self.where[r], self.rounds[r], self.masks[r]
        ta, tb = where[a], where[b]
        table_a, table_b = tables[ta], tables[tb]
        for x in table_a:
            if x != a:
                self._meet(a, x, -1)
                self._meet(b, x, 1)
        for y in table_b:
            if y != b:
                self._meet(b, y, -1)
                self._meet(a, y, 1)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        flip = (1 << a) | (1 << b)
        masks[ta] ^= flip
        masks[tb] ^= flip
        where[a], where[b] = tb, ta
        if len(table_a) != len(table_b):
            step = 1 if len(table_b) == 3 else -1
            self.turns[a] += step
            self.turns[b] -= step

    def best_swap(self, r: int, a: int, rng: random.Random, step: int) -> tuple[int, int]:
        """The best partner b for a in round r and the swap's change of cost (b = -1 when none).
        A b that is tabu at this step is taken only when the swap makes a new best schedule.
        Counts are bit counts: `once[p]` and `twice[p]` are the sets of players p met at least
        once and at least twice, `masks[r][t]` the players at table t of round r."""
        n, met, tables, masks = self.n, self.met, self.rounds[r], self.masks[r]
        once, twice, turns, tabu = self.once, self.twice, self.turns, self.tabu[r]
        ta = self.where[r][a]
        mine = masks[ta] ^ (1 << a)
        once_a, an = once[a], a * n
        leave_a = (twice[a] & mine).bit_count()
        size = len(tables[ta])
        others = range(len(tables))
        if len(tables) > TABLES_PER_STEP:
            others = rng.sample(others, TABLES_PER_STEP)
        aspire = self.best_cost - self.cost
        best, best_delta, ties = -1, 1 << 30, 0
        for tb in others:
            if tb == ta:
                continue
            theirs, mask = tables[tb], masks[tb]
            need = -1
            if len(theirs) != size:
                need = turns[a] + 1 if len(theirs) == 3 else turns[a] - 1
            join_a = (once_a & mask).bit_count() - leave_a
            for b in theirs:
                if need >= 0 and turns[b] != need:
                    continue
                delta = (
                    join_a - (met[an + b] > 0) + (once[b] & mine).bit_count() - (twice[b] & mask).bit_count()
                )
                if delta > best_delta or (tabu[b] > step and delta >= aspire):
                    continue
                if delta < best_delta:
                    best, best_delta, ties = b, delta, 1
                else:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best = b
        return best, best_delta

    def level(self) -> None:
        """Swap players between tables of 3 and of 4 until the seats at tables of 3 rotate (counts
        apart by at most one), each time the cheapest swap moving a player who sat at one most
        often with one who sat there at least two times less (a start from ghosts needs a few)."""
        turns, where_by_round = self.turns, self.where
        while max(turns) - min(turns) > 1:
            high = max(turns)
            best: tuple[int, int, int, int] | None = None
            for r, tables in enumerate(self.rounds):
                where = where_by_round[r]
                highest = [p for p in range(self.n) if turns[p] == high and len(tables[where[p]]) == 3]
                for a in highest if self.n <= 200 else highest[:3]:  # bounds the work for large fields
                    for b in range(self.n):
                        if turns[b] <= high - 2 and len(tables[where[b]]) != 3:
                            delta = self.delta(r, a, b)
                            if best is None or delta < best[0]:
                                best = (delta, r, a, b)
            if best is None:
                break
            self.swap(*best[1:])
        self.best_cost, self.saved = self.cost, False

    def delta(self, r: int, a: int, b: int) -> int:
        """The change of cost if a and b (at different tables of round r) swapped."""
        where, masks, once, twice = self.where[r], self.masks[r], self.once, self.twice
        mine, theirs = masks[where[a]] ^ (1 << a), masks[where[b]] ^ (1 << b)
        return (
            (once[a] & theirs).bit_count()
            - (twice[a] & mine).bit_count()
            + (once[b] & mine).bit_count()
            - (twice[b] & theirs).bit_count()
        )

    def run(self, rng: random.Random, *, steps: int, target: int) -> None:
        """At most `steps` steps, stopping as soon as the cost reaches `target`."""
        n, where_by_round = self.n, self.where
        accept = [math.exp(-delta / TEMPERATURE) for delta in range(64)]
        for step in range(steps):
            if self.cost <= target or not self.conflicts:
                return
            p, q = divmod(self.conflicts[rng.randrange(len(self.conflicts))], n)
            together = [r for r, where in enumerate(where_by_round) if where[p] == where[q]]
            r = together[rng.randrange(len(together))]
            tabu = self.tabu[r]
            moves = []
            for a in (p, q) if rng.random() < 0.5 else (q, p):
                if tabu[a] <= step:
                    b, delta = self.best_swap(r, a, rng, step)
                    if b >= 0:
                        moves.append((delta, a, b))
            if not moves:
                continue
            delta, a, b = min(moves, key=lambda move: move[0])
            if delta > 0 and rng.random() >= accept[min(delta, 63)]:
                continue
            if delta > 0 and self.cost == self.best_cost and not self.saved:
                self.best, self.saved = self.copy(), True
            self.swap(r, a, b)
            tabu[a] = step + TENURE + rng.randrange(TENURE)
            tabu[b] = step + TENURE + rng.randrange(TENURE)
            if self.cost < self.best_cost:
                self.best_cost, self.saved = self.cost, False

    def result(self) -> list[list[list[int]]]:
        """The best schedule seen (a copy of the current one when that is as good)."""
        return self.copy() if self.cost <= self.best_cost else self.best

    def copy(self) -> list[list[list[int]]]:
        """A copy of the current schedule."""
        return [[list(table) for table in tables] for tables in self.rounds]


def _mask(players: Iterable[int]) -> int:
    """The set of `players` as the bits of an int."""
    out = 0
    for player in players:
        out |= 1 << player
    return out
