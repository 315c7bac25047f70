"""Deleting a tournament takes everything of it, even once a ruling carried a penalty (the
ruling's penalty is PROTECTed, so that a penalty cannot go alone while a ruling points at it)."""

from __future__ import annotations

import pytest
from django.db.models import ProtectedError

from scoring.models import Game, GameChange, Hole
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import (
    Entrant,
    EventLogEntry,
    Penalty,
    Round,
    Ruling,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db


def _event_with_a_ruled_penalty() -> Tournament:
    """An 8-player event, round 1 played, and a ruling on P02 that carried a penalty."""
    tournament = event(8)
    play_round(tournament)
    p02 = tournament.entrants.get(name="P02")
    ruling = services.record_ruling(
        tournament,
        situation="over_time_limit",
        facts={"seconds_over": 90},
        player=p02.pk,
        actor=user("dora"),
    )
    assert ruling.penalty_id is not None
    return tournament


def _nothing_of_the_event_left() -> None:
    for model in (Tournament, Entrant, Round, Table, Penalty, Ruling, EventLogEntry):
        assert not model.objects.exists(), model.__name__
    for model in (Game, Hole, GameChange):
        assert not model.objects.exists(), model.__name__


def test_it_deletes_a_tournament_whose_ruling_carried_a_penalty() -> None:
    tournament = _event_with_a_ruled_penalty()
    services.delete_tournament(tournament, actor=user("dora"))
    _nothing_of_the_event_left()


def test_it_still_refuses_to_delete_a_rulings_penalty_alone() -> None:
    tournament = _event_with_a_ruled_penalty()
    with pytest.raises(ProtectedError):
        Penalty.objects.filter(tournament=tournament).delete()


def test_it_rebuilds_the_demo_tournament_after_a_ruling_with_a_penalty(settings) -> None:
    # The only way a person deletes an event today: `load_demo_tournament --reset` (there is no
    # DELETE /api/v1/tournaments/{id}/ nor a delete page; see the report).
    from django.core.management import call_command

    settings.DEBUG = True
    call_command("load_demo_tournament")
    demo = Tournament.objects.get()
    player = demo.entrants.filter(status="active").first()
    played = Table.objects.filter(round__tournament=demo, seats__entrant=player).first()
    assert played is not None
    ruling = services.record_ruling(
        demo, situation="over_time_limit", facts={"seconds_over": 90}, player=player.pk, actor=demo.director
    )
    assert ruling.penalty_id is not None
    call_command("load_demo_tournament", "--reset")
    assert Tournament.objects.count() == 1
    assert not Ruling.objects.exclude(tournament=Tournament.objects.get()).exists()


def test_it_offers_no_delete_through_the_api_and_keeps_the_event() -> None:
    # No DELETE /api/v1/tournaments/{id}/ exists (405, not a 500); the event stays whole.
    from rest_framework.test import APIClient

    tournament = _event_with_a_ruled_penalty()
    client = APIClient()
    client.force_login(user("dora"))
    answer = client.delete(f"/api/v1/tournaments/{tournament.pk}/")
    assert answer.status_code == 405, answer.content
    assert Tournament.objects.filter(pk=tournament.pk).exists() and Ruling.objects.exists()
