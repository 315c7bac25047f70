"""Known schedules through `known.py`, with a stand-in for the designs module: the affine plane
AG(2, 4) (16 players in 5 rounds), so that the ghosts (fields of 13 to 15) are tested here
whatever the designs helper's module holds."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from types import SimpleNamespace

import pytest

from tournaments.planning import known, plan_rounds

from .checks import assert_valid, recount, seats_at_three

# GF(4) = {0, 1, w, w + 1} as 0..3: addition is XOR, multiplication by this table.
_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _affine_plane() -> list[list[list[int]]]:
    """The lines of AG(2, 4) grouped by direction: 5 rounds of 4 tables over the 16 points."""
    rounds = []
    for dx, dy in ((0, 1), (1, 0), (1, 1), (1, 2), (1, 3)):
        tables, seen = [], set()
        for x, y in ((x, y) for x in range(4) for y in range(4)):
            if (x, y) not in seen:
                line = {(x ^ _MUL[s][dx], y ^ _MUL[s][dy]) for s in range(4)}
                seen |= line
                tables.append(sorted(4 * a + b for a, b in line))
        rounds.append(tables)
    return rounds


def _stand_in() -> SimpleNamespace:
    plane = _affine_plane()
    return SimpleNamespace(
        max_known_rounds=lambda n: 5 if n == 16 else 0,
        known_schedule=lambda n, r: [[list(t) for t in x] for x in plane[:r]] if n == 16 and r <= 5 else None,
    )


@pytest.fixture
def plane(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(known, "_designs", _stand_in())
    yield


def test_the_stand_in_is_a_round_robin() -> None:
    rounds = _affine_plane()
    pairs = [frozenset(p) for tables in rounds for table in tables for p in combinations(table, 2)]
    assert len(pairs) == len(set(pairs)) == 120


@pytest.mark.usefixtures("plane")
def test_a_known_schedule_is_used_and_continued() -> None:
    assert known.known_rounds(16, 3) == _affine_plane()[:3]
    assert len(known.known_rounds(16, 7)) == 5
    plan = plan_rounds(list(range(16)), rounds=7, seed=3)
    assert plan.repeats == plan.least_possible == 48


@pytest.mark.usefixtures("plane")
def test_fifteen_players_are_the_plane_without_one() -> None:
    rounds = known.known_rounds(15, 5)
    assert len(rounds) == 5
    assert_valid(rounds, list(range(15)))
    assert recount(rounds) == 0
    plan = plan_rounds([f"p{i}" for i in range(15)], rounds=5, seed=8)
    assert plan.repeats == 0
    turns = seats_at_three(plan.rounds)
    assert sorted(turns[f"p{i}"] for i in range(15)) == [1] * 15  # 3 seats a round, everyone once


@pytest.mark.usefixtures("plane")
def test_ghosts_that_would_not_rotate_are_refused() -> None:
    # 13 players: three ghosts that never meet leave a player at tables of 3 every round or never.
    for rounds in range(1, 6):
        for tables in known.known_rounds(13, rounds):
            assert_valid([tables], list(range(13)))
    plan = plan_rounds(list(range(13)), rounds=4, seed=1)
    counts = seats_at_three(plan.rounds)
    assert max(counts[p] for p in range(13)) - min(counts[p] for p in range(13)) <= 1


def test_without_designs_nothing_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(known, "_designs", None)
    assert known.known_rounds(16, 5) == []


@pytest.mark.usefixtures("plane")
@pytest.mark.parametrize(("players", "rounds"), [(13, 4), (14, 4), (14, 3), (13, 2)])
def test_ghosts_that_do_not_rotate_start_the_search(players: int, rounds: int) -> None:
    start = known.known_rounds(players, rounds, rotating=False)
    assert len(start) == rounds and recount(start) == 0
    assert_valid(start, list(range(players)))
    plan = plan_rounds(list(range(players)), rounds=rounds, seed=5)
    assert_valid(plan.rounds, list(range(players)))
    counts = seats_at_three(plan.rounds)
    assert max(counts[p] for p in range(players)) - min(counts[p] for p in range(players)) <= 1
    assert plan.repeats == recount(plan.rounds) >= plan.least_possible


@pytest.mark.usefixtures("plane")
@pytest.mark.parametrize(("players", "rounds"), [(12, 3), (13, 5), (10, 4), (9, 2)])
def test_a_start_from_a_larger_known_schedule(players: int, rounds: int) -> None:
    start = known.start_rounds(players, rounds)
    assert len(start) == rounds
    assert_valid(start, list(range(players)))
    plan = plan_rounds(list(range(players)), rounds=rounds, seed=2)
    assert_valid(plan.rounds, list(range(players)))
    assert plan.repeats == recount(plan.rounds) >= plan.least_possible
