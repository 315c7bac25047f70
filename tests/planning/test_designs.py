"""The known zero-repeat schedules at tables of 4 (tournaments.planning.designs)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.planning import designs

SUPPORTED = [n for n in range(4, 201, 4) if designs.max_known_rounds(n)]
ROUND_ROBINS = [16, 28, 40, 52, 64, 76, 88]


def _meetings(schedule: list[list[list[int]]]) -> dict[tuple[int, int], int]:
    """How many times each pair sat at one table."""
    met: dict[tuple[int, int], int] = {}
    for one_round in schedule:
        for table in one_round:
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return met


def _check_valid(players: int, schedule: list[list[list[int]]]) -> None:
    """Tables of 4 distinct players, everyone once a round, no pair twice."""
    for one_round in schedule:
        assert all(len(table) == 4 == len(set(table)) for table in one_round)
        assert sorted(p for table in one_round for p in table) == list(range(players))
    assert max(_meetings(schedule).values(), default=1) == 1


def test_supported_sizes_include_the_contract() -> None:
    """The round robins and the best known social golfer schedules we promised are there."""
    for players in ROUND_ROBINS:
        assert designs.max_known_rounds(players) == (players - 1) // 3
    assert set(ROUND_ROBINS) <= set(designs.round_robin_sizes())
    best_known_social_golfer = {20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13}
    near_the_bound = {4: 1, 8: 1, 12: 1, 44: 14, 48: 15, 56: 18, 60: 19, 68: 21, 72: 23, 80: 26, 84: 27}
    for players, rounds in {**best_known_social_golfer, **near_the_bound}.items():
        assert designs.max_known_rounds(players) == rounds


@pytest.mark.parametrize(
    ("players", "group"),
    [(24, 3), (32, 2), (36, 3), (44, 2), (48, 3), (56, 2), (60, 3), (72, 3), (80, 2), (84, 3)],
)
def test_group_divisible_designs_miss_only_their_groups(players: int, group: int) -> None:
    """A 4-RGDD of type group^u: the pairs that never meet split the players into groups of that size."""
    schedule = designs.known_schedule(players, designs.max_known_rounds(players))
    met = _meetings(schedule)
    partners: dict[int, set[int]] = {p: {p} for p in range(players)}
    for a, b in itertools.combinations(range(players), 2):
        if (a, b) not in met:
            partners[a].add(b)
            partners[b].add(a)
    assert all(
        len(mates) == group and all(partners[m] == mates for m in mates) for mates in partners.values()
    )


@pytest.mark.parametrize("players", SUPPORTED)
def test_full_schedule_is_valid(players: int) -> None:
    """Every supported size: the longest known schedule has no repeat and agrees with the max."""
    most = designs.max_known_rounds(players)
    schedule = designs.known_schedule(players, most)
    assert schedule is not None and len(schedule) == most
    _check_valid(players, schedule)
    assert designs.known_schedule(players, most + 1) is None


@pytest.mark.parametrize("players", ROUND_ROBINS)
def test_round_robins_meet_every_pair_exactly_once(players: int) -> None:
    """A round robin: every one of the n(n-1)/2 pairs at one table exactly once."""
    schedule = designs.known_schedule(players, (players - 1) // 3)
    assert schedule is not None
    met = _meetings(schedule)
    assert len(met) == players * (players - 1) // 2
    assert set(met.values()) == {1}


@given(players=st.integers(-8, 220), rounds=st.integers(-2, 40))
@settings(max_examples=300, deadline=None)
def test_any_request_is_a_prefix_or_none(players: int, rounds: int) -> None:
    """known_schedule answers exactly up to max_known_rounds, with the first rounds of the full one."""
    most = designs.max_known_rounds(players)
    got = designs.known_schedule(players, rounds)
    if players % 4 or players <= 0:
        assert most == 0
    if players % 4 or players <= 0 or rounds < 0 or rounds > most:
        assert got is None
        return
    assert got == designs.known_schedule(players, most)[:rounds]
    if rounds:
        _check_valid(players, got)


def test_callers_cannot_change_the_cache() -> None:
    """A caller who edits the answer does not change the next answer."""
    first = designs.known_schedule(16, 5)
    first[0][0][0] = 99
    first[1].clear()
    assert designs.known_schedule(16, 5) == designs.known_schedule(16, 5)
    assert designs.known_schedule(16, 5)[0][0][0] != 99


def test_every_size_builds_from_nothing() -> None:
    """Each size's full schedule, built from nothing (how fast is bench/seating.py's, never a timed
    test: CI's machine is shared), is the cached one."""
    for players in SUPPORTED:
        cached = designs.known_schedule(players, designs.max_known_rounds(players))
        designs._full_schedule.cache_clear()
        assert designs.known_schedule(players, designs.max_known_rounds(players)) == cached, players


def test_pure_python() -> None:
    """The designs and their data import nothing from Django (tournaments.planning is pure Python)."""
    import pathlib
    import re

    folder = pathlib.Path(designs.__file__).parent
    for name in ("designs.py", "design_data.py", "design_published.py"):
        assert not re.search(r"^\s*(from|import)\s+django", (folder / name).read_text(), re.MULTILINE)
