"""`POST /api/v1/games/` with `club` and `members` (SPEC "Clubs API contract"): a club's game, its
seats linked to members, everything checked before anything is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import ClubGame, SeatMember
from scoring.models import Game
from tests.clubs.factories import make_club, make_members, make_owner

pytestmark = pytest.mark.django_db

URL = "/api/v1/games/"


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _post(client: APIClient, body: dict[str, Any], key: str | None = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(URL, json.dumps(body), content_type="application/json", **headers)


def _wheres(response: Any) -> list[str]:
    return [error["where"] for error in response.json()["errors"]]


@pytest.fixture
def owner() -> Any:
    return make_owner("olga")


@pytest.fixture
def club(owner: Any) -> Any:
    return make_club("Friday Golf", owner)


def test_a_club_game_links_its_members_in_seat_order_and_guests_stay_unlinked(owner, club):
    ann, bob = make_members(club, "Ann", "Bob")
    body = {"players": ["Ann", "Guest", "Bob"], "club": club.pk, "members": [ann.pk, None, bob.pk]}
    response = _post(_client(owner), body)
    assert response.status_code == 201, response.content
    game = Game.objects.get(edit_token=response.json()["edit_token"])
    assert game.followed_by == "clubs.game"
    assert ClubGame.objects.get(game=game).club == club
    assert dict(SeatMember.objects.filter(game=game).values_list("seat", "member")) == {0: ann.pk, 2: bob.pk}


def test_club_without_members_makes_a_club_game_that_links_nobody(owner, club):
    response = _post(_client(owner), {"players": ["Ann", "Bob"], "club": club.pk})
    assert response.status_code == 201
    game = Game.objects.get()
    assert ClubGame.objects.filter(game=game, club=club).exists()
    assert not SeatMember.objects.exists()


def test_a_game_without_club_is_an_ordinary_game(owner):
    response = _post(_client(owner), {"players": ["Ann", "Bob"]})
    assert response.status_code == 201
    assert Game.objects.get().followed_by == ""
    assert not ClubGame.objects.exists()


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"members": [None, None]}, "club"),  # members without a club
        ({"club": "3"}, "club"),
        ({"club": 0}, "club"),
        ({"members": "1,2"}, "members"),
        ({"members": [None]}, "members"),  # one per player
        ({"members": [None, None, None]}, "members"),
        ({"members": [None, "x"]}, "members[2]"),
        ({"members": [None, True]}, "members[2]"),
    ],
)
def test_bad_link_fields_answer_400_naming_the_field_and_write_nothing(owner, club, extra, where):
    body = {"players": ["Ann", "Bob"], "club": club.pk, **extra}
    if "members" in extra and where == "club" and "club" not in extra:
        body.pop("club")
    response = _post(_client(owner), body)
    assert response.status_code == 400, response.content
    assert where in _wheres(response)
    assert not Game.objects.exists()


def test_members_must_be_current_members_of_that_club_each_once(owner, club):
    ann, _bob, old = make_members(club, "Ann", "Bob", "Old")
    old.retired_at = timezone.now()
    old.save()
    (stranger,) = make_members(make_club("Other", owner), "Stranger")
    players = ["Ann", "Ann again", "Stranger", "Old", "Bob"]
    members = [ann.pk, ann.pk, stranger.pk, old.pk, None]
    response = _post(_client(owner), {"players": players, "club": club.pk, "members": members})
    assert response.status_code == 400
    assert _wheres(response) == ["members[2]", "members[3]", "members[4]"]
    assert not Game.objects.exists() and not SeatMember.objects.exists()


def test_a_private_club_of_someone_else_is_a_404_and_a_public_one_a_403(club):
    make_members(club, "Ann")
    mallory = make_owner("mallory")
    body = {"players": ["Ann", "Bob"], "club": club.pk, "members": [None, None]}
    assert _post(_client(mallory), body).status_code == 404
    assert _post(_client(), body).status_code == 404
    club.is_public = True
    club.save()
    assert _post(_client(mallory), body).status_code == 403
    assert _post(_client(), body).status_code == 403
    assert _post(_client(mallory), {**body, "club": 10**9}).status_code == 404
    assert not Game.objects.exists()


def test_a_replay_with_the_same_key_answers_the_first_game_and_writes_nothing(owner, club):
    ann, bob = make_members(club, "Ann", "Bob")
    body = {"players": ["Ann", "Bob"], "club": club.pk, "members": [ann.pk, bob.pk]}
    client = _client(owner)
    first = _post(client, body, key="club-game-key-1")
    again = _post(client, body, key="club-game-key-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.has_header("Idempotent-Replayed")
    assert Game.objects.count() == ClubGame.objects.count() == 1
    assert SeatMember.objects.count() == 2
    other = _post(client, {**body, "members": [bob.pk, ann.pk]}, key="club-game-key-1")
    assert other.status_code == 422


def test_the_schema_documents_club_and_members(client):
    schema = client.get("/api/schema/?format=json")
    if schema.status_code != 200:
        pytest.skip("no schema route")
    text = schema.content.decode()
    assert '"members"' in text and "a member's id or null" in text
