"""Schedules at tables of 4 with no repeated meeting, from mathematics or stored solutions.

Pure Python (no Django). Three sources, each built at call time in at most a few milliseconds
(64 players, the slowest, about 3 ms) and cached:

* **Affine geometry over GF(4)**: the points of AG(d, 4) are the 4**d players, the lines (4 points
  each) grouped by direction are the rounds. AG(2, 4) seats 16 players in 5 rounds and AG(3, 4)
  64 players in 21 rounds, everyone meeting everyone exactly once (a round robin).
* **Developed base rounds** (`design_data`): players are the points Z_m x {0, ..., k-1} plus a few
  fixed points ("infinity"); a stored base round (one partition of the players into tables) is
  shifted by t = 0 .. m-1 on the Z_m part (fixed points stay put) to make round t + 1. The base
  rounds were found by an offline search (`tools/design_search.py`) so that the differences between
  the points of its tables are all distinct, which is exactly "no two players meet twice".
* **Published schedules** (`design_published`): a few solutions printed in the literature, stored
  as printed (32 players x 10 rounds).

See docs/seating.md, "Where the round robins come from", for the mathematics and the sources.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from tournaments.planning.design_data import CYCLIC
from tournaments.planning.design_published import PUBLISHED

__all__ = ["affine_rounds", "develop", "known_schedule", "max_known_rounds", "round_robin_sizes"]

Rounds = tuple[tuple[tuple[int, ...], ...], ...]

# GF(4) = {0, 1, w, w + 1} coded 0..3: addition is XOR, multiplication by this table.
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)

_AFFINE_DIMENSION = {16: 2, 64: 3}


def _scale(scalar: int, point: int, dimension: int) -> int:
    """`scalar` (in GF(4)) times the vector `point` (base-4 digits are its coordinates)."""
    out = 0
    for digit in range(dimension):
        coordinate = (point >> (2 * digit)) & 3
        out |= _GF4_MUL[scalar][coordinate] << (2 * digit)
    return out


def _directions(dimension: int) -> list[int]:
    """One nonzero vector per direction (per point of PG(d-1, 4)): highest nonzero digit is 1."""
    out = []
    for vector in range(1, 4**dimension):
        top = (vector.bit_length() - 1) // 2
        if (vector >> (2 * top)) & 3 == 1:
            out.append(vector)
    return out


def affine_rounds(dimension: int) -> Rounds:
    """The lines of AG(dimension, 4), one round per direction (a parallel class of lines)."""
    size = 4**dimension
    rounds = []
    for direction in _directions(dimension):
        multiples = [_scale(scalar, direction, dimension) for scalar in range(4)]
        seen = [False] * size
        tables = []
        for point in range(size):
            if seen[point]:
                continue
            line = tuple(sorted(point ^ step for step in multiples))
            for member in line:
                seen[member] = True
            tables.append(line)
        rounds.append(tuple(tables))
    return tuple(rounds)


def develop(modulus: int, base: Sequence[Sequence[int]], rounds: int) -> Rounds:
    """Rounds 0 .. rounds-1 of a base round developed mod `modulus`.

    With n players and f = n % modulus fixed points (f < modulus), point p < n - f is
    (x, i) = (p % modulus, p // modulus) and moves to (x + t, i) in round t; points from n - f on
    stay put.
    """
    players = sum(len(table) for table in base)
    finite = players - players % modulus
    out = []
    for shift in range(rounds):
        tables = []
        for table in base:
            moved = [
                (point - point % modulus + (point + shift) % modulus) if point < finite else point
                for point in table
            ]
            tables.append(tuple(moved))
        out.append(tuple(tables))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _full_schedule(players: int) -> Rounds | None:
    """Every round known for `players` (cached; immutable)."""
    if players in (4, 8, 12):  # a second round would repeat a pair (4 players from 3 tables)
        return (tuple(tuple(range(start, start + 4)) for start in range(0, players, 4)),)
    if players in _AFFINE_DIMENSION:
        return affine_rounds(_AFFINE_DIMENSION[players])
    if players in CYCLIC:
        modulus, base = CYCLIC[players]
        return develop(modulus, base, modulus)
    if players in PUBLISHED:
        return parse_published(*PUBLISHED[players])
    return None


def parse_published(alphabet: str, text: str) -> Rounds:
    """Rounds written one a line, tables as words, player i written as alphabet[i]."""
    return tuple(
        tuple(tuple(sorted(alphabet.index(mark) for mark in word)) for word in line.split())
        for line in text.strip().splitlines()
    )


def max_known_rounds(players: int) -> int:
    """The most rounds `known_schedule` answers for `players` (0 when none)."""
    if players <= 0 or players % 4:
        return 0
    full = _full_schedule(players)
    return len(full) if full else 0


def known_schedule(players: int, rounds: int) -> list[list[list[int]]] | None:
    """`rounds` rounds over players 0..players-1, every table of 4, no two players at one table twice.

    Deterministic: the first `rounds` rounds of the known schedule. None when players is not a
    positive multiple of 4, when nothing is known for it, or when `rounds` exceeds what is known.
    """
    if players <= 0 or players % 4 or rounds < 0 or rounds > max_known_rounds(players):
        return None
    full = _full_schedule(players) or ()
    return [[list(table) for table in one_round] for one_round in full[:rounds]]


def round_robin_sizes() -> list[int]:
    """The player counts whose known schedule is a round robin (everyone meets everyone once)."""
    return [n for n in range(4, 1000, 4) if max_known_rounds(n) * 3 == n - 1]
