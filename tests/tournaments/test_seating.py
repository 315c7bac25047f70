"""Seating (`tournaments/seating.py`): legal tables for every count, reproducible from the seed,
fewer repeat meetings than random seatings, and rotation of the tables of 3 and the first deal."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tournaments.seating import SeatingError, repeat_pairs, seat_round, table_sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, [3]), (4, [4]), (5, [5]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (10, [4, 3, 3]),
     (13, [4, 3, 3, 3]), (16, [4, 4, 4, 4])],
)  # fmt: skip
def test_it_sizes_tables_as_the_spec_says(players: int, sizes: list[int]) -> None:
    assert table_sizes(players) == sizes


def test_it_refuses_fewer_than_three_players_and_unknown_modes() -> None:
    for count in (0, 1, 2):
        with pytest.raises(SeatingError, match="at least 3"):
            table_sizes(count)
    with pytest.raises(SeatingError, match="Unknown seating"):
        seat_round(range(8), seed=1, round_number=2, mode="alphabetical")
    with pytest.raises(SeatingError, match="twice"):
        seat_round([1, 2, 3, 3], seed=1, round_number=1)


def test_every_count_from_3_to_400_gets_legal_tables() -> None:
    for count in range(3, 401):
        sizes = table_sizes(count)
        assert sum(sizes) == count
        if count == 5:
            assert sizes == [5]
        else:
            assert set(sizes) <= {3, 4} and sizes.count(3) == -count % 4  # as many 4s as possible


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 120), seed=st.integers(0, 2**32), round_number=st.integers(1, 5))
def test_the_same_seed_and_players_give_the_same_seating(count: int, seed: int, round_number: int) -> None:
    players = list(range(count))
    first = seat_round(players, seed=seed, round_number=round_number, mode="fewest_repeats")
    again = seat_round(players, seed=seed, round_number=round_number, mode="fewest_repeats")
    assert first == again
    assert sorted(p for table in first.tables for p in table) == players  # everyone once
    assert list(first.sizes) == table_sizes(count)
    assert all(
        0 <= dealer < len(table) for dealer, table in zip(first.first_dealers, first.tables, strict=True)
    )


def test_another_seed_gives_another_first_round() -> None:
    players = list(range(40))
    assert (
        seat_round(players, seed=1, round_number=1).tables
        != seat_round(players, seed=2, round_number=1).tables
    )


@settings(max_examples=15, deadline=None)
@given(count=st.integers(8, 60), seed=st.integers(0, 2**32))
# Found by hypothesis when only tables of one size could swap (a table of 4 and two of 3).
@example(count=10, seed=1)
@example(count=13, seed=3956964216)
def test_fewest_repeats_is_never_worse_than_the_median_random_seating(count: int, seed: int) -> None:
    players = list(range(count))
    earlier = [seat_round(players, seed=seed, round_number=1).tables]
    earlier.append(seat_round(players, seed=seed + 1, round_number=2, earlier_rounds=earlier).tables)
    spread = seat_round(players, seed=seed, round_number=3, mode="fewest_repeats", earlier_rounds=earlier)
    randoms = [
        seat_round(players, seed=other, round_number=3, mode="random", earlier_rounds=earlier).repeat_pairs
        for other in range(seed + 10, seed + 31)
    ]
    assert spread.repeat_pairs <= statistics.median(randoms)


def test_repeat_pairs_counts_each_earlier_meeting() -> None:
    met = {frozenset((1, 2)): 2, frozenset((3, 4)): 1}
    assert repeat_pairs([(1, 2, 3), (4, 5, 6)], met) == 2
    assert repeat_pairs([(1, 2, 3, 4)], met) == 3


def test_the_tables_of_three_rotate_across_rounds() -> None:
    players = list(range(13))  # 4 + 3 + 3 + 3: nine seats at tables of 3 each round
    earlier: list[tuple[tuple[int, ...], ...]] = []
    for round_number in (1, 2, 3):
        earlier.append(seat_round(players, seed=7, round_number=round_number, earlier_rounds=earlier).tables)
    at_three = {p: sum(p in t for tables in earlier for t in tables if len(t) == 3) for p in players}
    assert max(at_three.values()) - min(at_three.values()) <= 1  # nobody twice before all once


def test_the_first_deal_rotates_at_every_table() -> None:
    players = list(range(8))
    earlier = [((0, 1, 2, 3), (4, 5, 6, 7))]  # players 0 and 4 dealt first in round 1
    seating = seat_round(players, seed=3, round_number=2, mode="random", earlier_rounds=earlier)
    dealers = {table[dealer] for table, dealer in zip(seating.tables, seating.first_dealers, strict=True)}
    assert not dealers & {0, 4}


def test_standings_seat_the_leaders_together() -> None:
    players = list(range(12))
    order = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    seating = seat_round(players, seed=5, round_number=2, mode="standings", standings=order)
    assert [set(table) for table in seating.tables] == [{11, 10, 9, 8}, {7, 6, 5, 4}, {3, 2, 1, 0}]
    assert seat_round(players, seed=5, round_number=1, mode="standings", standings=order).mode == "random"


def test_standings_rotate_who_sits_at_a_table_of_three() -> None:
    players = list(range(10))  # tables of 4, 3 and 3
    order = list(range(10))  # the same standings every round: the rotation alone must move the threes
    earlier: list[tuple[tuple[int, ...], ...]] = [seat_round(players, seed=9, round_number=1).tables]
    at_three: dict[int, int] = dict.fromkeys(players, 0)
    for number in (2, 3, 4):
        seating = seat_round(
            players, seed=9, round_number=number, mode="standings", earlier_rounds=earlier, standings=order
        )
        for table in seating.tables:
            if len(table) == 3:
                for player in table:
                    at_three[player] += 1
        earlier.append(seating.tables)
        # Leaders together: each table holds players next to each other in the standings.
        for table in seating.tables:
            assert max(table) - min(table) == len(table) - 1
    assert max(at_three.values()) <= 2  # nobody sat at a table of 3 in all three rounds
