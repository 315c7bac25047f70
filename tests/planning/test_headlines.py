"""Issue 34's numbers: round robins, zero repeats, the lower bound reached, 1,000 players fast."""

from __future__ import annotations

import importlib.util
from collections import Counter

import pytest

from tournaments.planning import least_possible, plan_rounds

from .checks import assert_valid, recount

HAS_DESIGNS = importlib.util.find_spec("tournaments.planning.designs") is not None
needs_designs = pytest.mark.skipif(not HAS_DESIGNS, reason="tournaments.planning.designs is not here yet")


@pytest.mark.parametrize(
    ("players", "rounds", "repeats"),
    [(16, 5, 0), (16, 6, 24), (48, 8, 0), (100, 10, 0), (250, 8, 0), (21, 6, 0), (61, 8, 0)],
)
def test_searched_plans_reach_the_bound(players: int, rounds: int, repeats: int) -> None:
    plan = plan_rounds(list(range(players)), rounds=rounds, seed=1)
    assert_valid(plan.rounds, list(range(players)))
    assert plan.repeats == recount(plan.rounds) == repeats == plan.least_possible


def test_16_players_in_5_rounds_meet_everyone_exactly_once() -> None:
    plan = plan_rounds([f"p{i}" for i in range(16)], rounds=5, seed=9)
    met = {
        frozenset((a, b))
        for tables in plan.rounds
        for table in tables
        for a in table
        for b in table
        if a != b
    }
    assert len(met) == 16 * 15 // 2 and plan.repeats == 0


def test_1000_players_8_rounds_no_repeat() -> None:
    # How fast is measured by bench/seating.py (0.08 s here), never by a timed test.
    plan = plan_rounds(list(range(1000)), rounds=8, seed=1)
    assert plan.repeats == 0 == recount(plan.rounds)


@needs_designs
@pytest.mark.parametrize(("players", "rounds"), [(28, 9), (40, 13), (52, 17), (64, 21), (32, 10)])
def test_round_robins_and_known_schedules(players: int, rounds: int) -> None:
    plan = plan_rounds(list(range(players)), rounds=rounds, seed=2)
    assert_valid(plan.rounds, list(range(players)))
    assert plan.repeats == recount(plan.rounds) == 0


@needs_designs
def test_beyond_the_round_robin_the_bound_is_reached() -> None:
    plan = plan_rounds(list(range(28)), rounds=10, seed=2)
    assert plan.repeats == plan.least_possible == least_possible(range(28), rounds=10) == 42


@pytest.mark.parametrize(("players", "rounds"), [(41, 13), (49, 16), (50, 16), (53, 17), (61, 20), (65, 21)])
def test_fields_of_40_and_more_near_the_bound_have_no_repeat(players: int, rounds: int) -> None:
    # A known schedule of 4k players with 1-3 players taken out, in the rounds where those never
    # sit together (any two of a round robin's players meet once: 50 x 16 from 52 x 17).
    plan = plan_rounds(list(range(players)), rounds=rounds, seed=7)
    assert plan.repeats == 0 == plan.least_possible
    seats = Counter(p for tables in plan.rounds for table in tables if len(table) == 3 for p in table)
    counts = [seats[p] for p in range(players)]
    assert max(counts) - min(counts) <= 3  # the seats at tables of 3 still go round
