"""The standings read a fixed number of queries whatever the event's size (issue 8: at most 15).

The selector is measured directly; the standings page and the API's standings through the test
client."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import resolve

from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Penalty, Tournament
from tournaments.services.events import bump_version
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db

MAX_QUERIES = 15


def played(players: int, rounds: int, *, live_round: bool = False) -> Tournament:
    """An event of `players` over `rounds` finalized rounds (and one more in play with `live_round`),
    with a drop and a penalty, so that every part of the standings has something to read."""
    tournament = event(players, rounds=rounds + live_round)
    for number in range(1, rounds + 1):
        play_round(tournament)
        services.finalize_round(tournament, number)
        if number == 1:
            services.drop_entrant(tournament, tournament.entrants.get(name="P03").pk)
    if live_round:
        play_round(tournament, confirm=False)
    Penalty.objects.create(
        tournament=tournament,
        entrant=tournament.entrants.get(name="P02"),
        round_number=1,
        offence="time",
        step="points",
        points=2,
    )
    return tournament


def queries(call) -> int:
    """How many queries `call()` makes."""
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


@pytest.mark.parametrize("live", [True, False], ids=["live", "after-round"])
def test_the_selector_reads_the_same_few_queries_at_two_sizes(live: bool) -> None:
    small = played(8, 1, live_round=True)  # both read one round in play, the rest kept
    large = played(40, 3, live_round=True)
    few = queries(lambda: compute_standings(small, live=live))
    many = queries(lambda: compute_standings(large, live=live))
    assert few == many <= MAX_QUERIES
    assert len(compute_standings(large, live=live).lines) == 40


@pytest.mark.parametrize(
    ("path", "view_name"),
    [
        ("/tournaments/{id}/standings/", "tournaments:standings"),
        ("/api/v1/tournaments/{id}/standings/", "api-tournament-standings"),
    ],
    ids=["page", "api"],
)
def test_the_page_and_the_api_read_the_same_few_queries_at_two_sizes(path: str, view_name: str) -> None:
    assert resolve(path.format(id=1)).view_name == view_name  # the standings' own view, not another
    small = played(8, 1, live_round=True)  # both read one round in play, the rest kept
    large = played(40, 3, live_round=True)
    client = Client()
    client.force_login(user("dora"))
    for tournament in (small, large):  # warm: sessions, caches of the first request
        assert client.get(path.format(id=tournament.pk)).status_code == 200
    # As it comes (the shared cache answers: the version has not moved since the warm-up) ...
    few = queries(lambda: client.get(path.format(id=small.pk)))
    many = queries(lambda: client.get(path.format(id=large.pk)))
    assert few == many <= MAX_QUERIES
    # ... and after a change (a new version, as after any hole: computed again and cached).
    for tournament in (small, large):
        bump_version(tournament.pk)
    few_fresh = queries(lambda: client.get(path.format(id=small.pk)))
    many_fresh = queries(lambda: client.get(path.format(id=large.pk)))
    assert few_fresh == many_fresh <= MAX_QUERIES
    assert few < few_fresh  # the cache did answer the first pair
