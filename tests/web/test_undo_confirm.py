"""The undo that would delete a recorded hole asks first (/games/e/<token>/undo/confirm/)."""

from __future__ import annotations

import pytest

from scoring import selectors, services
from scoring.models import Hole

pytestmark = pytest.mark.django_db


def test_the_undo_of_a_recorded_hole_is_a_link_to_a_question_and_an_edit_undo_stays_one_tap(client):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 5, "Bob": 12}, ender=None)
    page = client.get(f"/games/e/{game.edit_token}/").content.decode()
    change = selectors.undo_target_change(game).pk
    assert f"/undo/confirm/?change={change}" in page and "Undo: Hole 1 recorded…" in page
    asked = client.get(f"/games/e/{game.edit_token}/undo/confirm/?change={change}").content.decode()
    assert "This undo deletes hole 1 and its scores:" in asked and Hole.objects.count() == 1
    services.hole_update(game, 1, expected_version=1, entries={"Ann": 6, "Bob": 12}, ender=None)
    page = client.get(f"/games/e/{game.edit_token}/").content.decode()
    assert "/undo/confirm/" not in page and "Undo: Hole 1 edited" in page


def test_a_stale_question_undoes_nothing_and_a_watch_link_is_refused(client):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 5, "Bob": 12}, ender=None)
    old = selectors.undo_target_change(game).pk
    services.hole_record(game, entries={"Ann": 1, "Bob": 2}, ender=None)
    response = client.get(f"/games/e/{game.edit_token}/undo/confirm/?change={old}", follow=True)
    assert "That change is no longer the latest one: nothing was undone." in response.content.decode()
    assert Hole.objects.count() == 2
    assert client.get(f"/games/e/{game.view_token}/undo/confirm/?change={old}").status_code == 403
    assert client.get(f"/games/e/{game.edit_token}/undo/confirm/?change=x").status_code == 302
