"""Event standings over several games (SPEC "Tournaments": Standings), the metrics registry, the totals
function, holes won and the match state as a pure function."""

from __future__ import annotations

import json

import pytest

from scoring.rules import (
    METRICS,
    PRESETS,
    PlayedHole,
    RulesError,
    compute_match_state,
    holes_won,
    low_scorers,
    rank_event,
    rank_players,
    sum_totals,
)
from scoring.rules.ruleset import TIEBREAKERS

OFFICIAL_CHAIN = ["countback", "most_holes_won", "sudden_death"]


def _table(table: str, rounds: list[dict[str, int]], playoff: bool = False) -> list[PlayedHole]:
    return [PlayedHole(n, scores, playoff, table) for n, scores in enumerate(rounds, start=1)]


def test_the_registry_holds_the_specs_tiebreakers() -> None:
    assert set(METRICS) == set(TIEBREAKERS)
    assert [METRICS[name].label for name in TIEBREAKERS] == [
        "Countback",
        "Most holes won",
        "Sudden death",
        "Shared",
    ]


def test_a_tie_on_total_is_broken_by_holes_won_at_each_players_own_table() -> None:
    # ann (table A) and bob (table B) both total 6 with the same scores (0, 3, 3), so countback is
    # level. ann had the lowest score at her table twice, bob once: ann ranks above.
    holes = _table("A", [{"ann": 0, "cy": 5}, {"ann": 3, "cy": 4}, {"ann": 3, "cy": 1}]) + _table(
        "B", [{"bob": 0, "dee": 0}, {"bob": 3, "dee": 2}, {"bob": 3, "dee": 2}]
    )
    standings = rank_event(["bob", "ann", "cy", "dee"], holes, OFFICIAL_CHAIN)
    rows = {row.player: row for row in standings.rows}
    assert [row.player for row in standings.rows] == ["dee", "ann", "bob", "cy"]
    assert [row.rank for row in standings.rows] == [1, 2, 3, 4]
    assert (rows["ann"].holes_won, rows["bob"].holes_won, rows["dee"].holes_won) == (2, 1, 3)
    assert rows["ann"].why_above == "most holes won: 2 against 1"
    assert rows["bob"].why_above == ""  # cy's total is higher: no tie to explain
    assert dict(rows["ann"].columns) == {"countback": "0, 3, 3", "most_holes_won": "2", "sudden_death": ""}
    assert [step.method for step in standings.steps] == ["countback", "most_holes_won"]
    assert not any(row.playoff for row in standings.rows)


def test_a_tie_for_first_is_left_to_a_playoff_until_playoff_holes_decide() -> None:
    holes = _table("A", [{"ann": 1, "cy": 4}, {"ann": 4, "cy": 4}]) + _table(
        "B", [{"bob": 4, "dee": 4}, {"bob": 1, "dee": 5}]
    )
    pending = rank_event(["ann", "bob", "cy", "dee"], holes, OFFICIAL_CHAIN)
    assert [(row.player, row.rank, row.playoff) for row in pending.rows] == [
        ("ann", 1, True),
        ("bob", 1, True),
        ("cy", 3, False),
        ("dee", 4, False),
    ]
    assert pending.rows[0].why_above == ""
    assert "sudden death: no playoff hole has a single lowest score yet" in pending.steps[-1].explanation
    level = _table("playoff", [{"ann": 3, "bob": 3}], playoff=True)
    assert rank_event(["ann", "bob", "cy", "dee"], holes + level, OFFICIAL_CHAIN).rows[0].playoff
    decided = _table("playoff", [{"ann": 3, "bob": 3}, {"ann": 5, "bob": 2}], playoff=True)
    standings = rank_event(["ann", "bob", "cy", "dee"], holes + decided, OFFICIAL_CHAIN)
    assert [(row.player, row.rank, row.playoff) for row in standings.rows][:2] == [
        ("bob", 1, False),
        ("ann", 2, False),
    ]
    assert standings.rows[0].why_above == "sudden death: 2 on playoff hole 2 against 5"
    assert standings.rows[0].total == 5  # playoff holes never count in totals
    assert dict(standings.rows[0].columns)["sudden_death"] == "3, 2"


def test_countback_says_which_hole_decided() -> None:
    holes = _table("A", [{"ann": 2, "bob": 3}, {"ann": 6, "bob": 5}]) + _table(
        "B", [{"cy": 3, "dee": 3}, {"cy": 4, "dee": 5}]
    )
    rows = rank_event(["ann", "bob", "cy", "dee"], holes, ["countback"]).rows
    # cy 7; ann, bob and dee 8: ann's 2 beats their 3; bob and dee (3, 5 each) stay level.
    assert [(row.player, row.rank) for row in rows] == [("cy", 1), ("ann", 2), ("bob", 3), ("dee", 3)]
    assert rows[0].why_above == ""  # cy's total is lower: no tie to explain
    assert rows[1].why_above == "countback: 2 on their best hole against 3"
    assert rows[2].why_above == ""  # level with dee
    no_chain = rank_event(["a", "b"], _table("A", [{"a": 1, "b": 1}, {"a": 4, "b": 3}, {"a": 2, "b": 3}]), [])
    assert no_chain.rows[0].rank == no_chain.rows[1].rank == 1  # no chain: level players share the rank
    second = rank_event(
        ["a", "b"], _table("A", [{"a": 1, "b": 1}, {"a": 3, "b": 4}, {"a": 5, "b": 4}]), ["countback"]
    )
    assert second.rows[0].player == "a"
    assert second.rows[0].why_above == "countback: 3 on their 2nd best hole against 4"


def test_penalty_points_enter_the_total_but_no_hole_score() -> None:
    holes = _table("A", [{"ann": 2, "bob": 3}, {"ann": 3, "bob": 3}])
    standings = rank_event(["ann", "bob"], holes, OFFICIAL_CHAIN, {"ann": 2})
    assert [(row.player, row.total, row.penalty_points, row.holes_won) for row in standings.rows] == [
        ("bob", 6, 0, 1),
        ("ann", 7, 2, 2),
    ]
    assert holes[0].scores == {"ann": 2, "bob": 3}
    assert dict(standings.rows[1].columns)["countback"] == "2, 3"
    totals = sum_totals(["ann", "bob"], holes, {"ann": 2})
    assert (totals["ann"].total, totals["ann"].hole_points, totals["ann"].penalty_points) == (7, 5, 2)


def test_shared_ties_share_a_rank_and_the_next_rank_skips() -> None:
    holes = _table("A", [{"ann": 3, "bob": 3, "cy": 9}])
    rows = rank_event(["ann", "bob", "cy"], holes, ["countback", "shared"]).rows
    assert [(row.player, row.rank, row.shared) for row in rows] == [
        ("ann", 1, True),
        ("bob", 1, True),
        ("cy", 3, False),
    ]
    assert rank_event(["ann", "bob", "cy"], holes, ["countback", "shared"]).steps[-1].explanation == (
        "ann and bob tie and share the victory (rule 4.2)."
    )


def test_sudden_death_applies_below_first_place_only_when_asked() -> None:
    holes = _table("A", [{"ann": 1, "bob": 4, "cy": 4}])
    below = rank_event(["ann", "bob", "cy"], holes, ["sudden_death"])
    assert [(row.rank, row.playoff) for row in below.rows] == [(1, False), (2, False), (2, False)]
    every = rank_event(["ann", "bob", "cy"], holes, ["sudden_death"], every_place=True)
    assert [(row.rank, row.playoff) for row in every.rows] == [(1, False), (2, True), (2, True)]


def test_it_serialises_the_standings() -> None:
    holes = _table("A", [{"ann": 1, "bob": 2}])
    data = json.loads(json.dumps(rank_event(["ann", "bob"], holes, OFFICIAL_CHAIN).to_dict()))
    assert data["rows"][0] == {
        "rank": 1,
        "player": "ann",
        "total": 1,
        "penalty_points": 0,
        "holes_played": 1,
        "holes_won": 1,
        "columns": {"countback": "1", "most_holes_won": "1", "sudden_death": ""},
        "playoff": False,
        "shared": False,
        "why_above": "",
    }


@pytest.mark.parametrize(
    ("players", "holes", "chain", "penalties", "where"),
    [
        (["ann", "ann"], [], [], None, "players"),
        (["ann"], [PlayedHole(1, {"zed": 1})], [], None, "holes.0.zed"),
        (["ann"], [PlayedHole(1, {"ann": "1"})], [], None, "holes.0.ann"),
        (["ann"], [], ["coin_toss"], None, "tiebreakers"),
        (["ann"], [], [], {"zed": 1}, "penalties.zed"),
        (["ann"], [], [], {"ann": 1.5}, "penalties.ann"),
    ],
)
def test_it_rejects_bad_event_input(players, holes, chain, penalties, where) -> None:
    with pytest.raises(RulesError) as error:
        rank_event(players, holes, chain, penalties)
    assert error.value.problems[0].where == where


def test_rank_players_takes_penalties_too() -> None:
    outcome = rank_players({"ann": [1, 2], "bob": [2, 2]}, ["countback"], penalties={"ann": 2})
    assert dict(outcome.totals) == {"ann": 5, "bob": 4}
    assert outcome.winners == ("bob",)
    with pytest.raises(RulesError):
        rank_players({"ann": [1]}, ["countback"], penalties={"zed": 1})


def test_low_scorers_and_holes_won_are_one_definition() -> None:
    assert low_scorers({"a": 2, "b": 2, "c": 5}) == {"a", "b"}
    assert low_scorers({}) == frozenset()
    holes = [
        PlayedHole(1, {"a": 2, "b": 2, "c": 5}, table="A"),
        PlayedHole(1, {"d": 9, "e": 10}, table="B"),  # 9 wins at its own table
        PlayedHole(1, {"a": 0, "d": 1}, playoff=True),  # playoff holes are not holes won
    ]
    assert holes_won(holes, ["a", "b", "c", "d", "e"]) == {"a": 1, "b": 1, "c": 0, "d": 1, "e": 0}


def test_sum_totals_leaves_playoff_holes_apart() -> None:
    holes = [PlayedHole(1, {"a": 3, "b": 4}), PlayedHole(1, {"a": 1, "b": 2}, playoff=True)]
    totals = sum_totals(["a", "b", "c"], holes)
    assert (totals["a"].total, totals["a"].holes_played, totals["a"].playoff_total) == (3, 1, 1)
    assert (totals["c"].total, totals["c"].holes_played) == (0, 0)


def test_the_match_state_is_a_pure_function_of_the_holes() -> None:
    ruleset = PRESETS["official-quick"]  # 6 holes, official tiebreakers
    regular = [PlayedHole(n, {"ann": 3, "bob": 3}) for n in range(1, 7)]
    state = compute_match_state(ruleset, ["ann", "bob"], regular[:5])
    assert (state.over, state.status, state.regular_holes, state.totals["ann"].total) == (
        False,
        "in_progress",
        5,
        15,
    )
    tied = compute_match_state(ruleset, ["ann", "bob"], regular)
    assert (tied.status, tied.contenders, tied.winners) == ("sudden_death", ("ann", "bob"), ())
    playoff = [PlayedHole(1, {"ann": 2, "bob": 5}, playoff=True)]
    done = compute_match_state(ruleset, ["ann", "bob"], list(reversed(regular)) + playoff)
    assert (done.status, done.winners, done.playoff_holes, done.playoff_stale) == (
        "finished",
        ("ann",),
        1,
        False,
    )
    assert done.totals["ann"].playoff_total == 2
    assert done.hole_scores == {"ann": (3,) * 6, "bob": (3,) * 6}
    stale = compute_match_state(ruleset, ["ann", "bob"], regular[:5] + playoff)
    assert stale.playoff_stale
