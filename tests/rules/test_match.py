"""Matches (SPEC "Matches, standings and tiebreaks"): dealing order, match end, standings, rule 4.2."""

from __future__ import annotations

import json

import pytest

from scoring.rules import (
    PRESETS,
    RulesError,
    dealer_for_hole,
    first_player_for_hole,
    match_over,
    rank_players,
    resolve_ruleset,
)

OFFICIAL_TIES = PRESETS["official"].tiebreakers


@pytest.mark.parametrize(
    ("hole", "dealer", "first"),
    [(1, 2, 3), (2, 3, 0), (3, 0, 1), (4, 1, 2), (5, 2, 3)],
)
def test_it_passes_the_deal_clockwise_and_the_dealers_left_plays_first(
    hole: int, dealer: int, first: int
) -> None:
    # seed 001 part 1 step 13: "Whoever sat left of the dealer in the last round is the new dealer ...
    # The person sitting left of the current dealer always goes first."
    assert dealer_for_hole(2, hole, 4) == dealer
    assert first_player_for_hole(2, hole, 4) == first
    assert first_player_for_hole(2, hole, 4) == dealer_for_hole(2, hole + 1, 4)


def test_it_deals_every_hole_to_a_single_player() -> None:
    assert dealer_for_hole(0, 7, 1) == first_player_for_hole(0, 7, 1) == 0


@pytest.mark.parametrize(
    ("first_dealer", "hole", "players", "where"),
    [(0, 1, 0, "players"), (4, 1, 4, "first_dealer"), (-1, 1, 4, "first_dealer"), (0, 0, 4, "hole_number")],
)
def test_it_rejects_impossible_seats(first_dealer: int, hole: int, players: int, where: str) -> None:
    with pytest.raises(RulesError) as error:
        dealer_for_hole(first_dealer, hole, players)
    assert error.value.problems[0].where == where


def test_it_ends_the_match_after_its_holes() -> None:
    assert match_over(PRESETS["official"], 8, {"a": 30, "b": 40}) == (False, "1 hole to play.")
    over, reason = match_over(PRESETS["official"], 9, {"a": 30, "b": 40})
    assert over
    assert reason == "All 9 holes are played (rule 2.5)."
    assert match_over(PRESETS["official-quick"], 6, {"a": 1})[0]
    assert not match_over(PRESETS["official-extended"], 9, {"a": 1})[0]


def test_it_ends_the_match_when_anyone_reaches_the_target_score() -> None:
    # seed 001 part 1 step 13: "A player reaches 100 points, 200 points ..."
    ruleset = resolve_ruleset({"preset": "basic", "holes": None, "target_score": 100})
    assert match_over(ruleset, 12, {"a": 99, "b": 80}) == (
        False,
        "The match ends after a hole in which anyone reaches 100.",
    )
    over, reason = match_over(ruleset, 13, {"a": 104, "b": 100, "c": 70})
    assert over
    assert reason == "a (104) and b (100) reach the target score of 100 (seed 001)."


def test_it_ends_at_the_target_even_before_the_last_hole() -> None:
    ruleset = resolve_ruleset({"preset": "basic", "target_score": 100})
    assert match_over(ruleset, 4, {"a": 100})[0]
    assert not match_over(ruleset, 4, {"a": 99})[0]


def test_it_never_ends_a_match_without_holes_or_target_by_itself() -> None:
    ruleset = resolve_ruleset({"preset": "basic", "holes": None})
    assert match_over(ruleset, 50, {"a": 500}) == (
        False,
        "The match has no set length: it ends when the players decide.",
    )


def test_it_ranks_the_whole_field_lowest_total_first() -> None:
    outcome = rank_players({"ann": [5, 6], "bob": [2, 3], "cy": [9, 9], "dee": [4, 4]}, OFFICIAL_TIES)
    assert outcome.order == (("bob",), ("dee",), ("ann",), ("cy",))
    assert outcome.status == "won"
    assert outcome.winners == ("bob",)
    assert dict(outcome.totals) == {"ann": 11, "bob": 5, "cy": 18, "dee": 8}
    assert outcome.steps == ()
    assert outcome.explanation[-1] == "bob wins."


def test_it_breaks_a_tie_by_countback_lowest_hole_first() -> None:
    # rule 4.2 "Lowest Single Hole": the lower best hole wins; if equal, the second lowest, and so on.
    outcome = rank_players({"ann": [3, 5, 7], "bob": [4, 4, 7], "cy": [10, 10, 10]}, OFFICIAL_TIES)
    assert outcome.order == (("ann",), ("bob",), ("cy",))
    assert outcome.winners == ("ann",)
    (step,) = outcome.steps
    assert (step.method, step.players, step.decided) == ("countback", ("ann", "bob"), True)
    assert dict(step.values) == {"ann": "3, 5, 7", "bob": "4, 4, 7"}
    assert "rule 4.2" in step.explanation


def test_it_goes_to_the_second_lowest_hole_when_the_lowest_are_equal() -> None:
    outcome = rank_players({"ann": [2, 6, 4], "bob": [2, 5, 5]}, ["countback"])
    assert outcome.winners == ("ann",)  # 2, 4, 6 against 2, 5, 5


def test_it_counts_holes_won_against_the_whole_field_with_shared_lowest_for_each() -> None:
    # ann and bob tie on 6 with the same holes; cy takes hole 1, bob hole 2, ann and bob share hole 3.
    hole_scores = {"ann": [1, 5, 0], "bob": [5, 1, 0], "cy": [0, 3, 4]}
    outcome = rank_players(hole_scores, ["countback", "most_holes_won"])
    most = next(step for step in outcome.steps if step.method == "most_holes_won")
    assert dict(most.values) == {"ann": "1", "bob": "2"}
    assert outcome.order == (("bob",), ("ann",), ("cy",))
    assert outcome.winners == ("bob",)


def test_it_breaks_ties_below_first_place_too() -> None:
    hole_scores = {"ann": [1, 5], "bob": [5, 1], "cy": [0, 3], "dee": [2, 4]}
    # cy 3 wins; ann, bob and dee tie on 6. Countback (1, 5 / 1, 5 / 2, 4) puts dee last; cy took
    # hole 1 and bob hole 2, so most holes won puts bob ahead of ann.
    outcome = rank_players(hole_scores, OFFICIAL_TIES)
    assert outcome.order == (("cy",), ("bob",), ("ann",), ("dee",))
    assert outcome.status == "won"
    assert [step.method for step in outcome.steps] == ["countback", "most_holes_won"]
    level = rank_players(hole_scores, ["countback"])
    assert level.order == (("cy",), ("ann", "bob"), ("dee",))
    assert level.status == "won"
    assert level.places() == [(1, "cy"), (2, "ann"), (2, "bob"), (4, "dee")]


def test_it_calls_for_sudden_death_until_playoff_holes_decide() -> None:
    hole_scores = {"ann": [3, 5], "bob": [5, 3], "cy": [1, 10]}
    outcome = rank_players(hole_scores, ["countback", "sudden_death"])
    assert outcome.status == "sudden_death"
    assert outcome.contenders == ("ann", "bob")
    assert outcome.winners == ()
    assert outcome.order == (("ann", "bob"), ("cy",))
    level = rank_players(hole_scores, ["countback", "sudden_death"], {"ann": [4], "bob": [4]})
    assert level.status == "sudden_death"
    decided = rank_players(hole_scores, ["countback", "sudden_death"], {"ann": [4, 6], "bob": [4, 3]})
    assert decided.status == "won"
    assert decided.winners == ("bob",)
    assert decided.order == (("bob",), ("ann",), ("cy",))
    assert dict(decided.totals) == {"ann": 8, "bob": 8, "cy": 11}  # playoff holes never change totals
    assert "bob scores lowest on playoff hole 2" in decided.steps[-1].explanation


def test_it_needs_one_contender_strictly_lowest_in_a_playoff_hole() -> None:
    hole_scores = {"ann": [4], "bob": [4], "cy": [4]}
    two_low = rank_players(hole_scores, ["sudden_death"], {"ann": [2], "bob": [2], "cy": [9]})
    assert two_low.status == "sudden_death"
    assert two_low.contenders == ("ann", "bob", "cy")
    one_low = rank_players(hole_scores, ["sudden_death"], {"ann": [2, 5], "bob": [2, 1], "cy": [9, 0]})
    assert one_low.winners == ("cy",)


def test_it_ignores_playoff_holes_not_every_contender_has_played() -> None:
    outcome = rank_players({"ann": [4], "bob": [4]}, ["sudden_death"], {"ann": [3], "bob": []})
    assert outcome.status == "sudden_death"


def test_it_shares_the_victory_when_the_ruleset_says_so() -> None:
    outcome = rank_players({"ann": [3, 5], "bob": [5, 3], "cy": [9, 9]}, PRESETS["basic"].tiebreakers)
    assert outcome.status == "shared"
    assert outcome.winners == ("ann", "bob")
    assert outcome.order == (("ann", "bob"), ("cy",))
    assert outcome.explanation[-1] == "ann and bob share the victory (rule 4.2)."


def test_it_reports_a_tie_no_method_breaks() -> None:
    outcome = rank_players({"ann": [3, 5], "bob": [5, 3]}, ["countback"])
    assert outcome.status == "tied"
    assert outcome.contenders == ("ann", "bob")
    assert outcome.winners == ()
    assert rank_players({"ann": [3, 5], "bob": [5, 3]}, []).status == "tied"


def test_it_ranks_before_any_hole_is_played() -> None:
    outcome = rank_players({"ann": [], "bob": []}, ["countback", "shared"])
    assert outcome.status == "shared"
    assert dict(outcome.totals) == {"ann": 0, "bob": 0}


def test_it_serialises_the_outcome() -> None:
    outcome = rank_players({"ann": [3, 5, 7], "bob": [4, 4, 7]}, OFFICIAL_TIES)
    data = json.loads(json.dumps(outcome.to_dict()))
    assert data["order"] == [["ann"], ["bob"]]
    assert data["winners"] == ["ann"]
    assert data["steps"][0]["values"] == {"ann": "3, 5, 7", "bob": "4, 4, 7"}


@pytest.mark.parametrize(
    ("hole_scores", "tiebreakers", "playoff", "where"),
    [
        ({}, ["countback"], None, "hole_scores"),
        ({"ann": [1, "2"]}, ["countback"], None, "hole_scores.ann"),
        ({"ann": [1]}, ["coin_toss"], None, "tiebreakers"),
        ({"ann": [1]}, ["sudden_death"], {"zed": [1]}, "playoff_scores.zed"),
        ({"ann": [1]}, ["sudden_death"], {"ann": [1.5]}, "playoff_scores.ann"),
    ],
)
def test_it_rejects_bad_standings_input(
    hole_scores: dict, tiebreakers: list, playoff: dict | None, where: str
) -> None:
    with pytest.raises(RulesError) as error:
        rank_players(hole_scores, tiebreakers, playoff)
    assert error.value.problems[0].where == where


def test_it_explains_a_three_way_tie_step_by_step() -> None:
    # ann, bob and cy all total 9. Countback puts ann (1, 3, 5) ahead of bob and cy (2, 3, 4 each);
    # then bob won hole 3 outright while cy won none (ann took hole 1, dee hole 2).
    hole_scores = {"ann": [1, 3, 5], "bob": [4, 3, 2], "cy": [2, 3, 4], "dee": [3, 1, 8]}
    outcome = rank_players(hole_scores, ["countback", "most_holes_won"])
    assert outcome.order == (("ann",), ("bob",), ("cy",), ("dee",))
    assert outcome.explanation == (
        "Totals, lowest wins (rule 2.5): ann 9, bob 9, cy 9, dee 12.",
        "ann, bob and cy tie; countback compares their hole scores from the lowest "
        "(ann: 1, 3, 5; bob: 2, 3, 4; cy: 2, 3, 4): ann ranks ahead (rule 4.2).",
        "bob and cy tie; most holes won (bob 1, cy 0): bob ranks ahead (rule 4.2).",
        "ann wins.",
    )
    first, second = outcome.steps
    assert (first.players, first.decided, second.players, second.decided) == (
        ("ann", "bob", "cy"),
        True,
        ("bob", "cy"),
        True,
    )


def test_it_says_when_a_method_only_splits_off_the_last() -> None:
    outcome = rank_players({"ann": [2, 4], "bob": [4, 2], "cy": [3, 3]}, ["countback"])
    (step,) = outcome.steps
    assert not step.decided
    assert step.explanation.endswith(": ann and bob stay level ahead (rule 4.2).")
    assert outcome.order == (("ann", "bob"), ("cy",))
    assert outcome.status == "tied"


def test_it_leaves_a_tie_below_first_place_to_share_the_place() -> None:
    outcome = rank_players({"ann": [1], "bob": [5], "cy": [5]}, ["sudden_death", "shared"])
    assert outcome.status == "won"
    assert outcome.order == (("ann",), ("bob", "cy"))
    assert outcome.steps == ()
