"""A tournament's club (the director must own it) and its players' links to members: name matches
offered at CSV import and on the links page, confirmed by the director, cleared, set by hand; the
settings API's `club`."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.errors import NotAnOwner, NotFoundInClub
from tests.clubs.factories import make_club, make_members, make_owner
from tests.tournaments.helpers import event, user
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entrant
from tournaments.services import club_links

pytestmark = pytest.mark.django_db


@pytest.fixture
def dora_club():
    club = make_club("Friday Golf", user("dora"))
    make_members(club, "P01", "P02", "p03", "Zed")
    return club


def _linked(tournament) -> dict[str, str]:
    rows = Entrant.objects.filter(tournament=tournament, member__isnull=False)
    return dict(rows.values_list("name", "member__name"))


def test_only_a_club_the_director_owns_can_be_the_tournaments(dora_club):
    tournament = event(4)
    club_links.set_tournament_club(tournament, dora_club.pk)
    tournament.refresh_from_db()
    assert tournament.club == dora_club
    with pytest.raises(NotFoundInClub):
        club_links.set_tournament_club(tournament, make_club("Private", make_owner("x")).pk)
    with pytest.raises(NotAnOwner):
        club_links.set_tournament_club(tournament, make_club("Open", make_owner("y"), public=True).pk)


def test_name_matches_are_offered_and_linked_only_once_confirmed(dora_club):
    tournament = event(4)
    club_links.set_tournament_club(tournament, dora_club.pk)
    offered = {
        link.entrant.name: link.suggestion.name
        for link in club_links.entrant_links(tournament)
        if link.suggestion
    }
    assert offered == {"P01": "P01", "P02": "P02", "P03": "p03"}  # names compare as the app compares them
    assert _linked(tournament) == {}
    p02 = tournament.entrants.get(name="P02")
    assert club_links.confirmed_suggestions(tournament, [p02.pk]) == 1
    assert _linked(tournament) == {"P02": "P02"}
    assert club_links.confirmed_suggestions(tournament) == 2
    assert _linked(tournament) == {"P01": "P01", "P02": "P02", "P03": "p03"}


def test_a_member_plays_one_player_and_must_be_of_the_club(dora_club):
    tournament = event(4)
    club_links.set_tournament_club(tournament, dora_club.pk)
    p01, p04 = tournament.entrants.get(name="P01"), tournament.entrants.get(name="P04")
    zed = dora_club.members.get(name="Zed")
    club_links.link_entrants(tournament, {p04.pk: zed.pk})
    with pytest.raises(TournamentError) as refused:
        club_links.link_entrants(tournament, {p01.pk: zed.pk})
    assert refused.value.problems[0].where == f"players[{p01.pk}]"
    (stranger,) = make_members(make_club("Other", user("dora")), "P01")
    with pytest.raises(TournamentError):
        club_links.link_entrants(tournament, {p01.pk: stranger.pk})
    club_links.link_entrants(tournament, {p04.pk: None, p01.pk: zed.pk})  # moved in one change
    assert _linked(tournament) == {"P01": "Zed"}


def test_another_club_clears_the_links(dora_club):
    tournament = event(4)
    club_links.set_tournament_club(tournament, dora_club.pk)
    club_links.confirmed_suggestions(tournament)
    club_links.set_tournament_club(tournament, make_club("Second", user("dora")).pk)
    assert _linked(tournament) == {}


def test_csv_import_offers_the_matches_on_the_links_page(dora_club):
    tournament = services.create_tournament(director=user("dora"), name="Open", seed=1)
    club_links.set_tournament_club(tournament, dora_club.pk)
    client = Client()
    client.force_login(user("dora"))
    answer = client.post(f"/tournaments/{tournament.pk}/players/import/", {"text": "name\nP01\nP02\nNew"})
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/club/"
    page = client.get(answer["Location"])
    assert page.status_code == 200 and "2 players" in page.content.decode()
    assert _linked(tournament) == {}
    assert client.post(answer["Location"], {"action": "confirm_all"}).status_code == 302
    assert _linked(tournament) == {"P01": "P01", "P02": "P02"}
    p01 = tournament.entrants.get(name="P01")
    client.post(answer["Location"], {"action": f"clear:{p01.pk}"})
    assert _linked(tournament) == {"P02": "P02"}
    new = tournament.entrants.get(name="New")
    zed = dora_club.members.get(name="Zed")
    client.post(answer["Location"], {"action": "link", "player": str(new.pk), "member": str(zed.pk)})
    assert _linked(tournament) == {"P02": "P02", "New": "Zed"}
    refused = client.post(
        answer["Location"], {"action": "link", "player": str(p01.pk), "member": str(zed.pk)}
    )
    assert refused.status_code == 400 and "already linked" in refused.content.decode()


def test_the_club_page_sets_the_club_and_refuses_a_club_of_someone_else(dora_club):
    tournament = event(2)
    client = Client()
    client.force_login(user("dora"))
    url = f"/tournaments/{tournament.pk}/club/"
    assert client.post(url, {"action": "club", "club": str(dora_club.pk)}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.club == dora_club
    other = make_club("Private", make_owner("x"))
    assert client.post(url, {"action": "club", "club": str(other.pk)}).status_code == 404
    assert client.post(url, {"action": "club", "club": ""}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.club is None
    stranger = Client()
    stranger.force_login(make_owner("mallory"))
    assert stranger.get(url).status_code in (403, 404)


def test_the_settings_api_takes_and_shows_the_club(dora_club):
    tournament = event(2)
    api = APIClient()
    api.force_login(user("dora"))
    url = f"/api/v1/tournaments/{tournament.pk}/"
    etag = api.get(url)["ETag"]
    answer = api.patch(
        url, json.dumps({"club": dora_club.pk}), content_type="application/json", HTTP_IF_MATCH=etag
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["club"] == dora_club.pk
    other = make_club("Private", make_owner("x"))
    etag = answer["ETag"]
    refused = api.patch(
        url, json.dumps({"club": other.pk}), content_type="application/json", HTTP_IF_MATCH=etag
    )
    assert refused.status_code == 404
    bad = api.patch(url, json.dumps({"club": "x"}), content_type="application/json", HTTP_IF_MATCH=etag)
    assert bad.status_code == 400 and bad.json()["errors"][0]["where"] == "club"
    cleared = api.patch(url, json.dumps({"club": None}), content_type="application/json", HTTP_IF_MATCH=etag)
    assert cleared.status_code == 200 and cleared.json()["club"] is None
