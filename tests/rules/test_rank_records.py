"""`rank_records` (records gathered by the caller) ranks exactly as `rank_event` (every hole)."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import PlayedHole, PlayerRecord, RulesError, holes_won, rank_event, rank_records
from tests.rules.test_standings_properties import CHAIN, events

GROUPS = st.dictionaries(
    st.sampled_from([f"t{t}p{p}" for t in range(3) for p in range(4)]), st.integers(0, 3)
)


def records_of(players: list[str], holes: list[PlayedHole]) -> dict[str, PlayerRecord]:
    """What a caller gathers in one pass: each player's scores (any order) and holes won."""
    scores: dict[str, list[int]] = defaultdict(list)
    for hole in reversed(holes):  # the order of the scores does not matter
        for name, score in hole.scores.items():
            scores[name].append(score)
    won = holes_won(holes, players)
    return {name: PlayerRecord(tuple(played), won[name]) for name, played in scores.items()}


@settings(max_examples=200, deadline=None)
@given(
    event=events(),
    chain=CHAIN,
    penalties=st.dictionaries(st.sampled_from(["t0p0", "t0p1", "t1p0"]), st.integers(0, 6)),
    groups=GROUPS,
)
def test_it_ranks_records_exactly_as_holes(event, chain, penalties, groups) -> None:
    players, holes = event
    regular = [hole for hole in holes if not hole.playoff]  # records carry no playoff holes
    penalties = {name: points for name, points in penalties.items() if name in players}
    groups = {name: group for name, group in groups.items() if name in players}
    expected = rank_event(players, regular, chain, penalties, groups=groups)
    got = rank_records(players, records_of(players, regular), chain, penalties, groups=groups)
    assert got == expected


def test_a_player_without_a_record_played_no_hole() -> None:
    standings = rank_records(["ann", "bob"], {"ann": PlayerRecord((3, 1), 1)}, ["countback"])
    assert [(row.player, row.total, row.holes_played) for row in standings.rows] == [
        ("bob", 0, 0),
        ("ann", 4, 2),
    ]


@pytest.mark.parametrize(
    ("records", "where"),
    [
        ({"cy": PlayerRecord((1,))}, "records.cy"),
        ({"ann": PlayerRecord((1, "2"))}, "records.ann"),  # type: ignore[arg-type]
        ({"ann": PlayerRecord((1,), True)}, "records.ann"),
    ],
)
def test_it_names_a_bad_record(records, where) -> None:
    with pytest.raises(RulesError) as refused:
        rank_records(["ann", "bob"], records, ["countback"])
    assert [problem.where for problem in refused.value.problems] == [where]
