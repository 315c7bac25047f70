"""Issue 31 item 9: `If-Match: *` on every If-Match handler answers as RFC 9110 says (`*` matches
whatever is current: the change goes ahead), except on a DELETE of a hole or a seat, which the
project's contract refuses with a 428 that names `*` and says why (the next hole or seat takes the
deleted one's number, so `*` would match it too and a retried DELETE would remove a second one),
never "Send an If-Match header" as if none had been sent."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Hole, Seat
from tests.tournaments.api.conftest import client_of
from tests.tournaments.helpers import event
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _game_with_two_holes():
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    for points in (3, 4):
        services.hole_record(game, entries={"ann": points, "bob": 5}, ender=None)
    return game


def _refused_star(response) -> str:
    assert response.status_code == 428, response.content
    problem = response.json()["errors"][0]
    assert problem["where"] == "If-Match"
    assert "If-Match: *" in problem["message"] and "Send an If-Match header" not in problem["message"]
    return problem["message"]


def test_it_refuses_a_hole_delete_with_star_naming_star_and_deletes_nothing(api):
    game = _game_with_two_holes()
    response = api.delete(f"/api/v1/games/{game.edit_token}/holes/1/", HTTP_IF_MATCH="*")
    assert "retried DELETE" in _refused_star(response)
    assert Hole.objects.filter(game=game).count() == 2


def test_it_refuses_a_seat_delete_with_star_naming_star_and_removes_nobody(api):
    game = services.create_game(players=["ann", "bob", "cy"], ruleset="official")
    _refused_star(api.delete(f"/api/v1/games/{game.edit_token}/players/0/", HTTP_IF_MATCH="*"))
    assert Seat.objects.filter(game=game).count() == 3


def test_it_still_asks_for_the_header_when_none_is_sent(api):
    game = _game_with_two_holes()
    response = api.delete(f"/api/v1/games/{game.edit_token}/holes/1/")
    assert response.status_code == 428
    assert "Send an If-Match header" in response.json()["detail"]


@pytest.mark.parametrize("method", ["put", "patch"])
def test_it_changes_the_current_hole_with_star_as_rfc_9110_says(api, method):
    game = _game_with_two_holes()
    url = f"/api/v1/games/{game.edit_token}/holes/1/"
    changed = getattr(api, method)(url, {"entries": {"ann": 9, "bob": 5}}, format="json", HTTP_IF_MATCH="*")
    assert changed.status_code == 200, changed.content
    assert Hole.objects.get(game=game, number=1).entries.get(seat__name="ann").score == 9
    entry = api.put(f"{url}entries/1/", {"total": 6}, format="json", HTTP_IF_MATCH="*")
    assert entry.status_code == 200, entry.content


def test_it_publishes_a_round_with_star_as_rfc_9110_says():
    tournament = event(8, rounds=3, holes=1)
    tournament_services.seat_next_round(tournament)
    published = client_of("dora").post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/1/publish/", {}, format="json", HTTP_IF_MATCH="*"
    )
    assert published.status_code == 200, published.content
