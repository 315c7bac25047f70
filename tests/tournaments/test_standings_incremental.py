"""The cached standings after holes change (`tournaments.standings_cache`: only the changed tables
read again, only their players ranked again) equal the standings computed from scratch
(`compute_standings`), live and as released, on random events played through the services:
penalty points, round and event disqualifications, a drop, tables of 3, a round in play whose
tables are at different holes, corrections in finalized rounds, new holes, deleted holes, and
penalties given in between (a full computation, after which holes are followed again)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services as scoring_services
from tests.tournaments.helpers import event
from tests.tournaments.test_standings import record, seat
from tournaments import services, standings_cache, standings_store
from tournaments.models import Penalty, PenaltyStep, Table, Tournament
from tournaments.services.events import bump_version
from tournaments.standings import cached_standings, compute_standings

STEPS = [PenaltyStep.POINTS, PenaltyStep.ROUND_DQ, PenaltyStep.EVENT_DQ]


@st.composite
def events(draw) -> dict:
    """An event's shape (players, rounds, holes, scores, penalties, a drop), how far each table of
    the last round is when it is left in play, and the changes made afterwards."""
    players = draw(st.integers(min_value=5, max_value=11))  # tables of 3 (and of 5 at 5 players)
    rounds = draw(st.integers(min_value=1, max_value=3))
    holes = draw(st.integers(min_value=1, max_value=3))
    change = st.tuples(
        st.sampled_from(["correct", "correct", "record", "record", "delete", "penalty"]),
        st.integers(0, 10**6),  # which round, table, hole or player
        st.integers(-3, 6),  # a score, or penalty points
        st.sampled_from(STEPS),
    )
    return {
        "players": players,
        "rounds": rounds,
        "holes": holes,
        "scores": draw(st.lists(st.integers(-2, 4), min_size=200, max_size=200)),  # small: many ties
        "penalties": draw(st.lists(st.tuples(st.integers(1, players), st.sampled_from(STEPS)), max_size=2)),
        "drop": draw(st.none() | st.integers(1, players)) if rounds > 1 else None,
        "live": draw(st.sampled_from([True, True, False])),
        # How far each table of the round in play is (mostly past its first hole, so that a change
        # at one table leaves the holes every player has played as they are).
        "played": draw(st.lists(st.integers(1, holes) | st.just(0), min_size=4, max_size=4)),
        "changes": draw(st.lists(change, min_size=1, max_size=6)),
        # Each call from a process that holds nothing of the entry (another app server) or not.
        "cold": draw(st.booleans()),
    }


def build(shape: dict) -> Tournament:
    """Play the event the shape describes through the services."""
    tournament = event(shape["players"], rounds=shape["rounds"], holes=shape["holes"])
    scores = shape["scores"]

    def score(round_number: int, hole: int, name: str) -> int:
        return scores[(round_number * 31 + hole * 7 + int(name[1:])) % len(scores)]

    for number in range(1, shape["rounds"] + 1):
        round_ = seat(tournament)
        if number == shape["rounds"] and shape["live"]:
            tables = Table.objects.filter(round=round_).select_related("game").order_by("number")
            for index, table in enumerate(tables):
                for _hole in range(shape["played"][index % 4]):
                    _record_hole(table, shape["scores"], index)
        else:
            record(tournament, round_, score)
        if number == 1 and shape["drop"] is not None:
            services.drop_entrant(tournament, tournament.entrants.get(name=f"P{shape['drop']:02d}").pk)
    for who, step in shape["penalties"]:
        _penalty(tournament, who, step, 2, shape["rounds"])
    tournament.refresh_from_db()  # the services moved its version: as a request reads it
    return tournament


def _record_hole(table: Table, scores: list[int], salt: int) -> None:
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    holes = table.game.holes.count()
    entries = {name: scores[(salt * 13 + holes * 5 + i) % len(scores)] for i, name in enumerate(names)}
    scoring_services.hole_record(table.game, entries=entries, ender=None, capabilities={"view", "score"})


def _penalty(tournament: Tournament, who: int, step: str, points: int, round_number: int) -> None:
    """A live penalty, its version moved as the penalties service moves it."""
    entrant = tournament.entrants.get(name=f"P{who:02d}")
    if (
        step == PenaltyStep.EVENT_DQ
        and Penalty.objects.filter(entrant=entrant, step=step, rescinded_at__isnull=True).exists()
    ):
        return  # one active event DQ a player, held by the database
    Penalty.objects.create(
        tournament=tournament,
        entrant=entrant,
        round_number=round_number,
        offence="illegal_move",
        step=step,
        points=points if step == PenaltyStep.POINTS else 0,
        rescinded_at=None if step != PenaltyStep.ROUND_DQ or points % 2 else timezone.now(),
    )
    bump_version(tournament.pk)


def change(tournament: Tournament, what: tuple, scores: list[int]) -> None:
    """One change: a hole corrected, recorded or deleted at a table, or a penalty given."""
    kind, pick, value, step = what
    tables = list(
        Table.objects.filter(round__tournament=tournament, round__status__in=["published", "finalized"])
        .select_related("game")
        .order_by("round__number", "number")
    )
    if kind == "penalty":
        _penalty(tournament, 1 + pick % tournament.entrants.count(), step, abs(value), 1)
        return
    if kind == "record":
        playing = [t for t in tables if t.round.status == "published"]
        if playing:
            table = playing[pick % len(playing)]
            if table.game.holes.count() < tournament.ruleset["holes"]:
                _record_hole(table, scores, pick)
        return
    table = tables[pick % len(tables)] if tables else None
    holes = list(table.game.holes.order_by("number")) if table else []
    if not holes:
        return
    hole = holes[pick % len(holes)]
    if kind == "delete":
        if table.round.status == "published":
            scoring_services.hole_delete(table.game, holes[-1].number, capabilities=None, reason="test")
        return
    # Kept within what a hole can score (-8 to 60 here): corrections in a row could drift below it.
    entries = {
        name: max(-4, min(10, score + value))
        for name, score in hole.entries.values_list("seat__name", "score")
    }
    scoring_services.hole_update(
        table.game, hole.number, expected_version=None, entries=entries, ender=None, capabilities=None
    )


@pytest.mark.django_db
@given(shape=events())
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
def test_the_cached_standings_after_each_change_equal_a_computation_from_scratch(shape: dict) -> None:
    tournament = build(shape)
    for live in (True, False):
        assert cached_standings(tournament, live=live) == compute_standings(tournament, live=live)
    for what in shape["changes"]:
        change(tournament, what, shape["scores"])
        tournament.refresh_from_db()
        for live in (True, False):
            if shape["cold"]:
                standings_store.forget()
            assert cached_standings(tournament, live=live) == compute_standings(tournament, live=live), what


@pytest.mark.django_db
def test_after_a_hole_only_that_table_is_read_again(monkeypatch) -> None:
    tournament = event(12, rounds=3, holes=2)
    for _number in (1, 2):
        round_ = seat(tournament)
        record(tournament, round_, lambda r, h, name: (r * 7 + h * 3 + int(name[1:])) % 9 - 2)
    round_ = seat(tournament)  # in play, every table at hole 1
    tables = list(Table.objects.filter(round=round_).select_related("game").order_by("number"))
    for index, table in enumerate(tables):
        _record_hole(table, [3, -1, 0, 2, 5, 1, 4], index)
    tournament.refresh_from_db()
    assert cached_standings(tournament) == compute_standings(tournament)
    read: list[list[int]] = []
    seats_and_scores = standings_cache.seats_and_scores
    monkeypatch.setattr(
        standings_cache,
        "seats_and_scores",
        lambda games: read.append(list(games)) or seats_and_scores(games),
    )
    _record_hole(tables[1], [9, 8, 7, 6], 5)  # the second table's hole 2: the others are at hole 1
    tournament.refresh_from_db()
    assert cached_standings(tournament) == compute_standings(tournament)
    assert read == [[tables[1].game_id]]
    # A correction at a finalized round's table: that table alone, again.
    first = Table.objects.filter(round__tournament=tournament, round__number=1).select_related("game")[0]
    hole = first.game.holes.get(number=1)
    entries = {name: score + 5 for name, score in hole.entries.values_list("seat__name", "score")}
    scoring_services.hole_update(first.game, 1, expected_version=None, entries=entries, ender=None)
    tournament.refresh_from_db()
    assert cached_standings(tournament) == compute_standings(tournament)
    assert read[1:] == [[first.game_id]]
