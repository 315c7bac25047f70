"""The range of grid scores of a ruleset (scoring/rules/score_range.py) and the refusal of typed hole
totals outside it (issue 31 item 4: a typed 99 was saved under the official rules, whose worst grid
scores 60)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    RANKS,
    GridError,
    PlayerEntry,
    Ruleset,
    resolve_ruleset,
    score_grid,
    score_hole,
    score_range,
)
from scoring.rules.score_range import grid_score_range

from .test_grid_properties import rulesets


def _engine_score(grid: tuple[tuple[str, ...], ...], ruleset: Ruleset, decks: int) -> int:
    """The engine's score of a grid, which must also hold no more cards of a rank than the packs."""
    players = next(n for n in range(2, 64) if ruleset.decks_for(n) >= decks)
    return score_grid([list(row) for row in grid], ruleset, players=players).total


@contextlib.contextmanager
def _searched_to_the_end() -> Iterator[None]:
    """House rulesets searched without the time bound, as presets always are: these tests are about
    the search's answers, which a loaded CI machine must not turn into the per-cell bound."""
    score_range._cached_range.cache_clear()
    with patch.object(score_range, "RANGE_SEARCH_SECONDS", None):
        yield
    score_range._cached_range.cache_clear()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_has_an_exact_range_reached_by_real_grids(preset: str) -> None:
    ruleset = resolve_ruleset(preset)
    for decks in sorted({ruleset.decks_for(2), ruleset.decks_for(12)}):
        span = grid_score_range(ruleset, decks)
        assert span.exact
        assert _engine_score(span.low_grid, ruleset, decks) == span.low
        assert _engine_score(span.high_grid, ruleset, decks) == span.high


def test_the_official_rules_score_from_minus_8_to_60() -> None:
    span = grid_score_range(resolve_ruleset("official"), 1)
    # Four 2s (one pack): a pair of 2s (-4) and two 2s over kings; six ten-pointers in no column pair.
    assert (span.low, span.high) == (-8, 60)


def test_a_2x2_range_equals_the_brute_force_over_every_grid() -> None:
    """Every one of the 14^4 grids scored by the engine: the range is exactly their lowest and highest."""
    for spec in (
        {"preset": "official-quick"},
        {"preset": "four-card", "jokers": 2, "jokers_wild": True, "negative_matches": "zero"},
        {"preset": "official-quick", "match_lines": ["anywhere"], "values": {"K": -5, "Q": -3}},
    ):
        ruleset = resolve_ruleset(spec)
        ranks = [rank for rank in RANKS if rank != "X" or ruleset.jokers]
        decks = ruleset.decks_for(2)
        scores = set()
        for cells in itertools.product(ranks, repeat=4):
            if any(cells.count(r) > (ruleset.jokers if r == "X" else 4) * decks for r in set(cells)):
                continue
            scores.add(score_grid([list(cells[:2]), list(cells[2:])], ruleset).total)
        with _searched_to_the_end():
            span = grid_score_range(ruleset, decks)
        assert (span.low, span.high) == (min(scores), max(scores)), spec


@st.composite
def ruleset_decks_and_grid(draw: st.DrawFn) -> tuple[Ruleset, int, tuple[tuple[str, ...], ...]]:
    ruleset = draw(rulesets(blocks=True))
    decks = draw(st.integers(1, 3))
    counts: dict[str, int] = {}
    rows = []
    for _ in range(ruleset.rows):
        row = []
        for _ in range(ruleset.cols):
            allowed = [r for r in RANKS if counts.get(r, 0) < (ruleset.jokers if r == "X" else 4) * decks]
            rank = draw(st.sampled_from(allowed))
            counts[rank] = counts.get(rank, 0) + 1
            row.append(rank)
        rows.append(tuple(row))
    return ruleset, decks, tuple(rows)


@settings(max_examples=25, deadline=None)
@given(ruleset_decks_and_grid())
def test_the_range_is_sound_and_tight_for_random_rulesets(case: tuple) -> None:
    """No grid scores outside the range (sound); the range's ends are scores of real grids (tight)."""
    ruleset, decks, grid = case
    span = grid_score_range(ruleset, decks)
    assert span.low <= _engine_score(grid, ruleset, decks) <= span.high
    low, high = _engine_score(span.low_grid, ruleset, decks), _engine_score(span.high_grid, ruleset, decks)
    assert span.low <= low <= high <= span.high
    if span.exact:
        assert (low, high) == (span.low, span.high)


@settings(max_examples=25, deadline=None)
@given(rulesets(blocks=True, shapes=[(2, 2)]), st.integers(1, 2))
def test_small_grids_always_get_an_exact_range(ruleset: Ruleset, decks: int) -> None:
    with _searched_to_the_end():
        span = grid_score_range(ruleset, decks)
    assert span.exact
    assert _engine_score(span.low_grid, ruleset, decks) == span.low
    assert _engine_score(span.high_grid, ruleset, decks) == span.high


def test_a_typed_total_no_grid_can_score_is_refused_with_the_range() -> None:
    with pytest.raises(GridError) as caught:
        score_hole({"Ann": 99, "Bob": 3}, resolve_ruleset("official"))
    (problem,) = caught.value.problems
    assert problem.where == "grids.Ann"
    assert "99" in problem.message and "between -8 and 60" in problem.message
    with pytest.raises(GridError, match="between -8 and 60"):
        score_hole({"Ann": -9, "Bob": 3}, resolve_ruleset("official"))


def test_the_ends_of_the_range_are_accepted_and_the_ender_penalty_comes_on_top() -> None:
    ruleset = resolve_ruleset({"preset": "official", "ender_penalty": {"kind": "fixed", "points": 10}})
    hole = score_hole({"Ann": 60, "Bob": -8}, ruleset, ender="Ann")
    assert hole.score_of("Ann") == 70 and hole.score_of("Bob") == -8
    # A total typed with the penalty already in it would count it twice: refused, saying so.
    with pytest.raises(GridError, match="the app adds the ender's penalty"):
        score_hole({"Ann": 70, "Bob": -8}, ruleset, ender="Ann")


def test_a_tie_and_a_playoff_among_some_players_use_the_same_range() -> None:
    ruleset = resolve_ruleset("official")
    assert score_hole({"Ann": 60, "Bob": 60}, ruleset).score_of("Bob") == 60
    with pytest.raises(GridError, match="between -8 and 60"):
        score_hole({"Ann": 61, "Bob": 5}, ruleset, check_decks=False)


def test_blocks_marked_by_hand_move_the_range_by_the_engine_not_by_hand() -> None:
    ruleset = resolve_ruleset({"preset": "basic", "four_of_a_kind_block": {"points": -20, "others_add": 5}})
    with _searched_to_the_end():
        span = grid_score_range(ruleset, ruleset.decks_for(2))
        entries = [PlayerEntry("Ann", total=-20, blocks_marked=1), PlayerEntry("Bob", total=60)]
        hole = score_hole(entries, ruleset)
        with pytest.raises(GridError, match="blocks"):
            score_hole({"Ann": -21, "Bob": 60}, ruleset)
    assert span.low == -20
    assert hole.score_of("Bob") == 65


def test_a_house_rulesets_search_out_of_time_falls_back_to_the_sound_bound_and_presets_never_do() -> None:
    """New house rules cost the search time in every request that brings them (the calculator API is
    open to all): past RANGE_SEARCH_SECONDS the per-cell bound stands, still refusing no real grid;
    a preset is always searched to the end, so its range is the same exact one everywhere."""
    house = resolve_ruleset({"preset": "official", "values": {"K": 7, "Q": -3}})
    official = resolve_ruleset("official")
    score_range._cached_range.cache_clear()
    try:
        with patch.object(score_range, "RANGE_SEARCH_SECONDS", 0.0):
            bounded, preset = grid_score_range(house, 1), grid_score_range(official, 1)
        assert not bounded.exact and (preset.low, preset.high, preset.exact) == (-8, 60, True)
        with _searched_to_the_end():
            exact = grid_score_range(house, 1)
        assert exact.exact and bounded.low <= exact.low and exact.high <= bounded.high
        assert (bounded.low, bounded.high) != (exact.low, exact.high)  # the bound is wider, not the answer
    finally:
        score_range._cached_range.cache_clear()
