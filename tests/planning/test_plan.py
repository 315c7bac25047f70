"""The seating planner (`tournaments.planning`): valid plans, determinism, the counts it reports."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.planning import SeatingError, count_repeats, least_possible, plan_rounds, table_sizes
from tournaments.planning import plan as plan_module

from .checks import assert_valid, recount, seats_at_three


@pytest.fixture(autouse=True, scope="module")
def _short_search() -> Iterator[None]:
    """The properties here hold whatever the budget: a short search keeps the module fast (the
    numbers reached with the real budget are tested in test_headlines.py)."""
    steps, plan_module.STEPS = plan_module.STEPS, 2_000
    yield
    plan_module.STEPS = steps


def test_table_sizes_by_the_spec() -> None:
    assert table_sizes(3) == [3]
    assert table_sizes(5) == [5]
    assert table_sizes(9) == [3, 3, 3]
    assert table_sizes(10) == [4, 3, 3]
    assert table_sizes(13) == [4, 3, 3, 3]
    assert table_sizes(16) == [4, 4, 4, 4]
    for count in (0, 1, 2):
        with pytest.raises(SeatingError, match="at least 3"):
            plan_rounds(list(range(count)), rounds=2, seed=1)


def test_a_player_listed_twice_or_too_many_seated_rounds() -> None:
    with pytest.raises(SeatingError, match="twice"):
        plan_rounds([1, 2, 3, 3], rounds=2, seed=1)
    with pytest.raises(SeatingError, match="seated already"):
        plan_rounds([1, 2, 3], rounds=1, seed=1, seated=[[[1, 2, 3]], [[1, 2, 3]]])


def test_count_repeats_is_the_spec_measure() -> None:
    rounds = [[["a", "b", "c", "d"]], [["a", "b", "c", "e"]], [["a", "b", "x"]]]
    # a-b three times (2), a-c, b-c twice (1 each)
    assert count_repeats(rounds) == 4
    assert count_repeats([]) == 0


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 45), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_every_plan_is_a_valid_seating(players: int, rounds: int, seed: int) -> None:
    names = [f"p{i}" for i in range(players)]
    plan = plan_rounds(names, rounds=rounds, seed=seed)
    assert len(plan.rounds) == rounds
    assert_valid(plan.rounds, names)
    assert plan.repeats == recount(plan.rounds)
    assert plan.least_possible <= plan.repeats
    assert plan.least_possible == least_possible(names, rounds=rounds)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 30), rounds=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_deterministic_for_a_seed(players: int, rounds: int, seed: int) -> None:
    names = list(range(100, 100 + players))
    first = plan_rounds(names, rounds=rounds, seed=seed)
    assert plan_rounds(names, rounds=rounds, seed=seed) == first
    seated = first.rounds[:1]
    again = plan_rounds(names, rounds=rounds, seed=seed, seated=seated)
    assert again == plan_rounds(names, rounds=rounds, seed=seed, seated=seated)


def test_round_one_depends_on_the_seed() -> None:
    names = list(range(40))
    firsts = {plan_rounds(names, rounds=3, seed=seed).rounds[0] for seed in range(5)}
    assert len(firsts) == 5


def test_seat_order_is_shuffled() -> None:
    plan = plan_rounds(list(range(200)), rounds=2, seed=3)
    assert any(list(table) != sorted(table) for table in plan.rounds[0])


def test_pairs_meet_in_the_plan_as_counted() -> None:
    plan = plan_rounds(list(range(24)), rounds=6, seed=5)
    met = Counter(
        frozenset(pair) for tables in plan.rounds for table in tables for pair in combinations(table, 2)
    )
    assert plan.repeats == sum(times - 1 for times in met.values())


@settings(max_examples=25, deadline=None)
@given(players=st.integers(6, 41), rounds=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_who_sits_at_a_table_of_three_rotates(players: int, rounds: int, seed: int) -> None:
    plan = plan_rounds(list(range(players)), rounds=rounds, seed=seed)
    turns = seats_at_three(plan.rounds)
    counts = [turns[player] for player in range(players)]
    # From 40 players a schedule with no repeat may leave them up to 3 apart (plan._LOOSE_FROM).
    assert max(counts) - min(counts) <= (1 if players < 40 else 3)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(6, 40),
    rounds=st.integers(3, 7),
    done=st.integers(1, 2),
    leaving=st.integers(0, 2),
    joining=st.integers(0, 2),
    seed=st.integers(0, 10**6),
)
def test_replanning_after_drops_and_late_entries(
    players: int, rounds: int, done: int, leaving: int, joining: int, seed: int
) -> None:
    names = [f"p{i}" for i in range(players)]
    seated = plan_rounds(names, rounds=rounds, seed=seed).rounds[:done]
    now = names[leaving:] + [f"late{i}" for i in range(joining)]
    plan = plan_rounds(now, rounds=rounds, seed=seed, seated=seated)
    assert len(plan.rounds) == rounds - done
    assert_valid(plan.rounds, now)
    assert plan.repeats == recount([*seated, *plan.rounds])
    assert least_possible(now, rounds=rounds, seated=seated) == plan.least_possible <= plan.repeats
    if not leaving and not joining:
        turns = seats_at_three([*seated, *plan.rounds])
        counts = [turns[player] for player in now]
        assert max(counts) - min(counts) <= 1


def test_nothing_left_to_plan() -> None:
    seated = plan_rounds(list(range(12)), rounds=2, seed=4).rounds
    plan = plan_rounds(list(range(12)), rounds=2, seed=4, seated=seated)
    assert plan.rounds == ()
    assert plan.repeats == recount(seated)


def test_five_players_sit_at_one_table() -> None:
    plan = plan_rounds("abcde", rounds=3, seed=1)
    assert all(len(tables) == 1 and len(tables[0]) == 5 for tables in plan.rounds)
    assert plan.repeats == plan.least_possible == 20  # 10 pairs, met 3 times each
