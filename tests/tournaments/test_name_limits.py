"""A name longer than its limit is refused with the limit and its length, never cut (issue 31 item 4):
an event's name (120 characters) and a player's (40), on the pages and the API. The live game's
start page, API and rename are covered by tests/test_limits.py."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.helpers import event, user
from tournaments.models import Entrant, Tournament

EVENT_NAME = "Spring Open " + "x" * 118  # 130 characters
PLAYER_NAME = "Annabelle " + "y" * 37  # 47 characters


@pytest.fixture
def dora_api() -> APIClient:
    api = APIClient()
    api.force_authenticate(user("dora"))
    return api


@pytest.fixture
def dora_page() -> Client:
    client = Client()
    client.force_login(user("dora"))
    return client


def _messages(answer) -> str:
    return " ".join(e["message"] for e in answer.json()["errors"])


@pytest.mark.django_db
def test_the_api_refuses_an_event_name_one_past_its_limit_saying_both(dora_api) -> None:
    answer = dora_api.post(
        "/api/v1/tournaments/", {"name": EVENT_NAME, "ruleset": "official", "rounds": 3}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["where"] == "name"
    assert "at most 120 characters; this one has 130" in _messages(answer)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_api_refuses_an_over_long_rename_of_an_event(dora_api) -> None:
    tournament = event(4)
    etag = dora_api.get(f"/api/v1/tournaments/{tournament.pk}/")["ETag"]
    answer = dora_api.patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"name": EVENT_NAME}, format="json", HTTP_IF_MATCH=etag
    )
    assert answer.status_code == 400
    assert "at most 120 characters; this one has 130" in _messages(answer)
    tournament.refresh_from_db()
    assert tournament.name == "Spring Open"


@pytest.mark.django_db
def test_the_event_form_refuses_an_over_long_name_and_does_not_let_the_browser_cut_it(dora_page) -> None:
    form = dora_page.get("/tournaments/new/").content.decode()
    assert 'maxlength="120"' not in form  # the browser would cut a pasted name silently
    page = dora_page.post("/tournaments/new/", {"name": EVENT_NAME, "ruleset": "official", "rounds": "3"})
    assert page.status_code in (200, 400)
    assert "At most 120 characters; this one has 130." in page.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_api_refuses_an_over_long_player_name_alone_and_in_a_csv(dora_api) -> None:
    tournament = event(4)
    players = f"/api/v1/tournaments/{tournament.pk}/players/"
    answer = dora_api.post(players, {"name": PLAYER_NAME}, format="json")
    assert answer.status_code == 400
    assert "at most 40 characters; this one has 47" in _messages(answer)
    csv = f"name\nBea\n{PLAYER_NAME}\n"
    answer = dora_api.post(f"/api/v1/tournaments/{tournament.pk}/players/", csv, content_type="text/csv")
    assert answer.status_code == 400
    assert any(
        e["where"] == "line 3" and "at most 40 characters; this one has 47" in e["message"]
        for e in answer.json()["errors"]
    )
    assert Entrant.objects.filter(tournament=tournament).count() == 4


@pytest.mark.django_db
def test_the_players_page_refuses_an_over_long_name_with_its_length(dora_page) -> None:
    tournament = event(4)
    page = dora_page.post(f"/tournaments/{tournament.pk}/players/add/", {"name": PLAYER_NAME})
    assert page.status_code == 400
    assert "At most 40 characters; this one has 47." in page.content.decode()
    assert 'maxlength="40"' not in page.content.decode()
    assert Entrant.objects.filter(tournament=tournament).count() == 4
