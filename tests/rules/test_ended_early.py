"""The engine's match state when the players end a match before its set end (issue 31 item 8):
over after the holes played, ranked exactly as `rank_players` ranks those holes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import compute_match_state, resolve_ruleset
from scoring.rules.holes import PlayedHole
from scoring.rules.match import rank_players

NAMES = ("Ann", "Bob", "Cy", "Dee")
TIEBREAK_CHAINS = (
    ["countback", "most_holes_won"],
    ["most_holes_won", "shared"],
    ["sudden_death"],
    ["shared"],
)


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=4),
    played=st.integers(min_value=1, max_value=8),
    chain=st.sampled_from(TIEBREAK_CHAINS),
    data=st.data(),
)
def test_an_ended_match_is_ranked_as_rank_players_ranks_the_holes_played(players, played, chain, data):
    ruleset = resolve_ruleset({"preset": "official", "holes": 9, "tiebreakers": chain})
    names = NAMES[:players]
    scores = {
        name: data.draw(st.lists(st.integers(-4, 12), min_size=played, max_size=played)) for name in names
    }
    holes = [PlayedHole(n + 1, {name: scores[name][n] for name in names}) for n in range(played)]

    running = compute_match_state(ruleset, names, holes)
    assert not running.over and running.status == "in_progress" and not running.ended_early

    ended = compute_match_state(ruleset, names, holes, ended_early=True)
    expected = rank_players(scores, ruleset.tiebreakers)
    assert ended.over and ended.ended_early and ended.outcome == expected
    assert f"after hole {played} of 9" in ended.reason
    if expected.status == "sudden_death":
        assert ended.status == "sudden_death" and ended.contenders == expected.contenders
    else:
        assert ended.status == "finished" and ended.winners == (expected.winners or expected.order[0])


def test_ending_has_no_effect_before_any_hole_or_once_the_match_is_over():
    ruleset = resolve_ruleset({"preset": "official", "holes": 2})
    nothing = compute_match_state(ruleset, NAMES[:2], [], ended_early=True)
    assert not nothing.over and not nothing.ended_early and nothing.status == "in_progress"
    full = [PlayedHole(1, {"Ann": 1, "Bob": 2}), PlayedHole(2, {"Ann": 1, "Bob": 2})]
    over = compute_match_state(ruleset, NAMES[:2], full, ended_early=True)
    assert over.over and not over.ended_early and over.winners == ("Ann",)
    assert over.reason == compute_match_state(ruleset, NAMES[:2], full).reason
