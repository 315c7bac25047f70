"""The live-games API on a managed game (real database): the views pass what the access policy granted
(`capabilities`) and the `reason` in the body to the services, so the manager's hole policy judges
each correction through the API as it does through the services.

The game is managed under the test provider's label (`access_helpers.MANAGED_BY`), with the ready-made
policy `corrections_at_table_until_next_hole` registered for it: the table link corrects a hole until
the next one is recorded; later only an official, with a reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from golfclub.core.limits import MAX_REASON_LENGTH
from scoring import services
from scoring.game_managers import game_managers
from scoring.models import ChangeAction, Game, GameChange, Hole

from .access_helpers import MANAGED_BY, MANAGED_LABEL, staff, table_policy  # noqa: F401  (fixtures)

pytestmark = pytest.mark.usefixtures("staff", "table_policy")

CORRECTED = {"Ann": 13, "Bob": 12, "Cy": 3}


@pytest.fixture
def game(db) -> Game:
    """A managed game of Ann, Bob and Cy with holes 1 and 2 recorded (hole 1 is no longer the last)."""
    game = services.create_game(
        players=["Ann", "Bob", "Cy"], managed_by=MANAGED_BY, managed_label=MANAGED_LABEL
    )
    services.hole_record(game, entries={"Ann": 5, "Bob": 12, "Cy": 3}, ender=None)
    services.hole_record(game, entries={"Ann": 4, "Bob": 6, "Cy": 8}, ender=None)
    return game


@pytest.fixture
def official(db) -> APIClient:
    """Olive, logged in: the test provider makes her an official (view, score, officiate)."""
    client = APIClient()
    client.force_login(get_user_model().objects.create_user("olive", password="pw-12345-long"))
    return client


def hole_url(token: str, number: int) -> str:
    return f"/api/v1/games/{token}/holes/{number}/"


def hole_tag(game: Game, number: int) -> str:
    hole = Hole.objects.get(game=game, number=number, is_playoff=False)
    return f'"hole-{hole.pk}-v{hole.version}"'


def error_wheres(response: Any) -> list[str]:
    return [error["where"] for error in response.json()["errors"]]


def test_the_table_link_cannot_correct_hole_1_after_hole_2(game):
    response = APIClient().put(
        hole_url(game.edit_token, 1),
        {"entries": CORRECTED, "reason": "we misread a card"},
        format="json",
        HTTP_IF_MATCH=hole_tag(game, 1),
    )
    assert response.status_code == 409, response.content
    assert "can no longer be changed at the table" in response.json()["detail"]
    assert "Call an official" in response.json()["detail"]
    assert not GameChange.objects.filter(game=game, action=ChangeAction.UPDATE).exists()


def test_the_table_link_still_corrects_the_last_hole(game):
    response = APIClient().patch(
        hole_url(game.edit_token, 2),
        {"entries": {"Ann": 5}},
        format="json",
        HTTP_IF_MATCH=hole_tag(game, 2),
    )
    assert response.status_code == 200, response.content


def test_an_official_without_a_reason_gets_400_naming_reason(game, official):
    response = official.put(
        hole_url(game.view_token, 1), {"entries": CORRECTED}, format="json", HTTP_IF_MATCH=hole_tag(game, 1)
    )
    assert response.status_code == 400, response.content
    assert error_wheres(response) == ["reason"]
    assert not GameChange.objects.filter(game=game, action=ChangeAction.UPDATE).exists()


def test_an_official_with_a_reason_corrects_and_the_reason_is_kept(game, official):
    response = official.put(
        hole_url(game.view_token, 1) + "?actor=official%20Olive",
        {"entries": CORRECTED, "reason": "  Ann's pair was a Queen and a Jack  "},
        format="json",
        HTTP_IF_MATCH=hole_tag(game, 1),
    )
    assert response.status_code == 200, response.content
    assert [entry["score"] for entry in response.json()["entries"]] == [13, 12, 3]
    change = GameChange.objects.get(game=game, action=ChangeAction.UPDATE)
    assert (change.reason, change.actor) == ("Ann's pair was a Queen and a Jack", "official Olive")


def test_an_official_patches_an_entry_with_a_reason(game, official):
    url = f"/api/v1/games/{game.view_token}/holes/1/entries/0/"
    without = official.put(url, {"total": 13}, format="json", HTTP_IF_MATCH=hole_tag(game, 1))
    assert without.status_code == 400 and error_wheres(without) == ["reason"]
    response = official.put(
        url, {"total": 13, "reason": "Ann's card"}, format="json", HTTP_IF_MATCH=hole_tag(game, 1)
    )
    assert response.status_code == 200, response.content
    assert GameChange.objects.get(game=game, action=ChangeAction.UPDATE).reason == "Ann's card"


def test_deleting_an_earlier_hole_needs_an_official_and_a_reason(game, official):
    table = APIClient().delete(hole_url(game.edit_token, 1), HTTP_IF_MATCH=hole_tag(game, 1))
    assert table.status_code == 409, table.content
    no_body = official.delete(hole_url(game.view_token, 1), HTTP_IF_MATCH=hole_tag(game, 1))
    assert no_body.status_code == 400 and error_wheres(no_body) == ["reason"]
    response = official.delete(
        hole_url(game.view_token, 1),
        {"reason": "dealt twice", "actor": "official Olive"},
        format="json",
        HTTP_IF_MATCH=hole_tag(game, 1),
    )
    assert response.status_code == 204, response.content
    change = GameChange.objects.get(game=game, action=ChangeAction.DELETE)
    assert (change.reason, change.actor) == ("dealt twice", "official Olive")


def test_undo_of_an_earlier_hole_is_refused_at_the_table_and_an_official_gives_a_reason(game, official):
    services.hole_update(
        game, 1, expected_version=None, entries=CORRECTED, ender=None, capabilities=None, reason="set up"
    )
    target = GameChange.objects.get(game=game, action=ChangeAction.UPDATE).pk
    table = APIClient().post(f"/api/v1/games/{game.edit_token}/undo/", {"change": target}, format="json")
    assert table.status_code == 409, table.content
    url = f"/api/v1/games/{game.view_token}/undo/"
    no_reason = official.post(url, {"change": target}, format="json")
    assert no_reason.status_code == 400 and error_wheres(no_reason) == ["reason"]
    undone = official.post(url, {"change": target, "reason": "the first reading was right"}, format="json")
    assert undone.status_code == 200, undone.content
    undo = GameChange.objects.get(game=game, action=ChangeAction.UNDO)
    assert undo.reason == "the first reading was right"
    redone = official.post(
        f"/api/v1/games/{game.view_token}/redo/",
        {"change": undo.pk, "reason": "no, it was not"},
        format="json",
    )
    assert redone.status_code == 200, redone.content
    assert GameChange.objects.get(game=game, action=ChangeAction.REDO).reason == "no, it was not"


def test_the_table_link_cannot_add_a_seat(game):
    response = APIClient().post(f"/api/v1/games/{game.edit_token}/players/", {"name": "Dee"}, format="json")
    assert response.status_code == 409, response.content
    assert game.seats.count() == 3


def test_a_reason_is_strict_text_of_bounded_length(game, official):
    url, tag = hole_url(game.view_token, 1), hole_tag(game, 1)
    for reason in ("x" * (MAX_REASON_LENGTH + 1), 12, "a\x00b"):
        response = official.put(
            url, {"entries": CORRECTED, "reason": reason}, format="json", HTTP_IF_MATCH=tag
        )
        assert response.status_code == 400, (reason, response.content)
        assert error_wheres(response) == ["reason"]
    longest = official.put(
        url, {"entries": CORRECTED, "reason": "x" * MAX_REASON_LENGTH}, format="json", HTTP_IF_MATCH=tag
    )
    assert longest.status_code == 200, longest.content


def test_an_ordinary_game_keeps_a_reason_given_and_needs_none(db):
    game = services.create_game(players=["Ann", "Bob"])
    services.hole_record(game, entries={"Ann": 5, "Bob": 12}, ender=None)
    services.hole_record(game, entries={"Ann": 4, "Bob": 6}, ender=None)
    api = APIClient()
    plain = api.patch(
        hole_url(game.edit_token, 1), {"entries": {"Ann": 6}}, format="json", HTTP_IF_MATCH=hole_tag(game, 1)
    )
    assert plain.status_code == 200, plain.content
    given = api.patch(
        hole_url(game.edit_token, 1),
        {"entries": {"Ann": 7}, "reason": "typo"},
        format="json",
        HTTP_IF_MATCH=hole_tag(game, 1),
    )
    assert given.status_code == 200, given.content
    reasons = list(
        GameChange.objects.filter(game=game, action=ChangeAction.UPDATE).values_list("reason", flat=True)
    )
    assert sorted(reasons) == ["", "typo"]


def test_the_hole_post_by_the_edit_link_is_decided_like_every_other_request(db, official, monkeypatch):
    """The one-query hole POST by the edit token decides on the game it found (scoring.api.games.
    access: DeferredGrant.on_edit_token_game): a phone gets the table link's capabilities, a
    logged-in official what the access policy gives them, as through any other link or method."""
    game = services.create_game(players=["Ann", "Bob"], managed_by=MANAGED_BY, managed_label=MANAGED_LABEL)
    seen: list[frozenset[str] | None] = []
    manager = game_managers()[MANAGED_BY]
    monkeypatch.setattr(manager, "check_hole_change", lambda change: seen.append(change.capabilities))
    url = f"/api/v1/games/{game.edit_token}/holes/"
    phone = APIClient().post(url, {"entries": {"Ann": 5, "Bob": 3}}, format="json")
    by_official = official.post(url, {"entries": {"Ann": 4, "Bob": 6}}, format="json")
    assert (phone.status_code, by_official.status_code) == (201, 201)
    assert seen == [{"view", "score"}, {"view", "score", "officiate"}]
