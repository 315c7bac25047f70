"""Pure properties of the clubs' results and ratings, against the independent oracle
(tests/clubs/ratings_oracle.py), over many random tables and a few hundred random games each."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.services.ratings import MODEL, _rate
from scoring.rules import resolve_ruleset
from scoring.rules.holes import PlayedHole
from scoring.selectors.final_places import seat_records
from tests.clubs import ratings_oracle

SCORES = st.sampled_from([-2, 0, 1, 1, 2, 3, 5])
CHAINS = {"home": ("basic", ratings_oracle.HOME), "official": ("official", ratings_oracle.OFFICIAL)}


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, dict[str, list[int]], list[dict[str, int]]]:
    """A chain, each player's regular hole scores, and playoff holes among the leaders."""
    kind = draw(st.sampled_from(sorted(CHAINS)))
    players = draw(st.integers(2, 6))
    holes = draw(st.integers(1, 5))
    scores = {f"P{i}": draw(st.lists(SCORES, min_size=holes, max_size=holes)) for i in range(players)}
    playoff: list[dict[str, int]] = []
    leaders = [n for n, p in ratings_oracle.places(scores, CHAINS[kind][1]).items() if p == 1]
    if kind == "official" and len(leaders) > 1:
        for _ in range(draw(st.integers(0, 3))):
            playoff.append({name: draw(st.sampled_from([1, 2, 3])) for name in leaders})
    return kind, scores, playoff


@settings(max_examples=300, deadline=None)
@given(tables())
def test_places_low_holes_and_best_hole_are_the_oracles(table):
    kind, scores, playoff = table
    holes = len(next(iter(scores.values())))
    ruleset = resolve_ruleset({"preset": CHAINS[kind][0], "holes": holes})
    played = [PlayedHole(n + 1, {name: s[n] for name, s in scores.items()}) for n in range(holes)]
    played += [PlayedHole(n + 1, hole, True) for n, hole in enumerate(playoff)]
    records, _finished = seat_records(ruleset, list(scores), played)
    places = ratings_oracle.places(scores, CHAINS[kind][1], playoff)
    won = ratings_oracle.holes_won(scores)
    for name, line in scores.items():
        record = records[name]
        assert record.place == places[name]
        assert (record.total_points, record.holes_played) == (sum(line), holes)
        assert record.low_hole_score == won[name]
        assert record.best_hole_score == min(line)


@st.composite
def histories(draw: st.DrawFn) -> list[list[tuple[int, int]]]:
    """A few hundred games of 1 to 5 of 10 members, each (member, place) by member id; level
    scores share a place."""
    games = []
    for _ in range(draw(st.integers(100, 300))):
        members = sorted(draw(st.sets(st.integers(1, 10), min_size=1, max_size=5)))
        totals = {m: draw(st.integers(0, 4)) for m in members}
        games.append([(m, 1 + sum(t < totals[m] for t in totals.values())) for m in members])
    return games


def rows_of(games: list[list[tuple[int, int]]], first_id: int = 1) -> list[tuple]:
    """The results' rows as the recompute reads them (stored ratings all 0: every one rewritten)."""
    rows, next_id = [], first_id
    for game_id, game in enumerate(games, 1):
        for member, place in game:
            rows.append((next_id, game_id, member, place, 0.0, 0.0, 0.0, 0.0))
            next_id += 1
    return rows


@settings(max_examples=20, deadline=None)
@given(histories(), st.data())
def test_rating_a_history_equals_openskill_and_resuming_from_any_game_changes_no_digit(games, data):
    rows = rows_of(games)
    updates, rated = _rate(rows, {}, {})
    assert rated == sum(len(game) >= 2 for game in games)
    stored: dict[int, list[tuple]] = {}
    for (_id, _game, member, *_rest), update in zip(rows, updates, strict=True):
        stored.setdefault(member, []).append(update[1:])
    assert stored == ratings_oracle.ratings(games)
    # From any game on, starting from the stored floats (as `recompute_from` does): the same numbers.
    cut = data.draw(st.integers(0, len(games)))
    before = sum(len(game) for game in games[:cut])
    state = {}
    for (_id, _game, member, *_rest), update in zip(rows[:before], updates[:before], strict=True):
        state[member] = MODEL.rating(mu=update[3], sigma=update[4])
    resumed, _rated = _rate(rows[before:], state, {})
    assert resumed == updates[before:]
