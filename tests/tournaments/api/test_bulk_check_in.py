"""POST /api/v1/tournaments/{id}/players/check-in/: several players at once (a list, or everyone not
yet checked in), all or nothing, with the Idempotency-Key and the tournament's ETag as the other
writes, and in the OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import event
from tournaments import services
from tournaments.live_versions import event_version
from tournaments.models import EventLogEntry, Tournament

pytestmark = pytest.mark.django_db


def _url(tournament: Tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/players/check-in/"


def _pk(tournament: Tournament, name: str) -> int:
    return tournament.entrants.get(name=name).pk


def test_it_checks_in_a_list_and_answers_who_changed_with_the_new_etag(dora: APIClient) -> None:
    tournament = event(4)
    services.set_checked_in(tournament, _pk(tournament, "P01"), True)
    answer = dora.post(
        _url(tournament), {"players": [_pk(tournament, "P01"), _pk(tournament, "P02")]}, format="json"
    )
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["checked_in"] == [{"id": _pk(tournament, "P02"), "name": "P02"}]
    assert body["already"] == [{"id": _pk(tournament, "P01"), "name": "P01"}]
    assert body["action"] == EventLogEntry.objects.get(tournament=tournament, action="players_checked_in").pk
    assert answer["ETag"] == f'"tournament-{tournament.pk}-v{event_version(tournament.pk)}"'


def test_everyone_checks_in_the_active_players_not_yet_in(dora: APIClient) -> None:
    tournament = event(4)
    services.drop_entrant(tournament, _pk(tournament, "P04"))
    answer = dora.post(_url(tournament), {"everyone": True}, format="json")
    assert [p["name"] for p in answer.json()["checked_in"]] == ["P01", "P02", "P03"]
    again = dora.post(_url(tournament), {"everyone": True}, format="json")
    assert again.status_code == 200 and again.json() == {"checked_in": [], "already": [], "action": None}


def test_bad_bodies_are_400_and_a_dropped_player_409_and_nothing_is_written(dora: APIClient) -> None:
    tournament = event(4)
    services.drop_entrant(tournament, _pk(tournament, "P04"))
    for body in ({}, {"players": []}, {"players": [1], "everyone": True}, {"players": ["x"]}, {"players": 3}):
        answer = dora.post(_url(tournament), body, format="json")
        assert answer.status_code == 400, (body, answer.content)
    unknown = dora.post(_url(tournament), {"players": [_pk(tournament, "P01"), 10**9]}, format="json")
    assert unknown.status_code == 400 and "No player 1000000000" in unknown.json()["errors"][0]["message"]
    dropped = dora.post(
        _url(tournament), {"players": [_pk(tournament, "P01"), _pk(tournament, "P04")]}, format="json"
    )
    assert dropped.status_code == 409
    assert (
        dropped.json()["errors"][0]["message"] == "P04 is dropped: bring them back before checking them in."
    )
    assert not tournament.entrants.filter(checked_in=True).exists()


def test_a_replay_with_the_same_idempotency_key_writes_once(dora: APIClient) -> None:
    tournament = event(4)
    body = {"players": [_pk(tournament, "P01")]}
    first = dora.post(_url(tournament), body, format="json", HTTP_IDEMPOTENCY_KEY="bulk-1")
    services.set_checked_in(tournament, _pk(tournament, "P01"), False)
    replay = dora.post(_url(tournament), body, format="json", HTTP_IDEMPOTENCY_KEY="bulk-1")
    assert replay.status_code == first.status_code == 200 and replay.json() == first.json()
    assert EventLogEntry.objects.filter(tournament=tournament, action="players_checked_in").count() == 1
    assert not tournament.entrants.get(name="P01").checked_in  # the replay wrote nothing


def test_a_stale_if_match_is_412_and_writes_nothing(dora: APIClient) -> None:
    tournament = event(4)
    stale = f'"tournament-{tournament.pk}-v{tournament.version}"'
    services.add_entrant(tournament, "Zed")
    answer = dora.post(_url(tournament), {"everyone": True}, format="json", HTTP_IF_MATCH=stale)
    assert answer.status_code == 412
    assert not tournament.entrants.filter(checked_in=True).exists()


def test_the_schema_documents_the_route(dora: APIClient) -> None:
    schema = dora.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/tournaments/{tournament_id}/players/check-in/"]["post"]
    assert operation["summary"] == "Check in several players at once"
    assert {"200", "400", "409", "412"} <= set(operation["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in operation["parameters"])
