"""A tournament table's game is never ended early by its table link: the director runs the rounds
(issue 31 item 8; a family's live game may be ended after the holes played)."""

from __future__ import annotations

import pytest

from scoring.models import GameChange
from tournaments.models import Table

from .helpers import event_in_play

pytestmark = pytest.mark.django_db


def test_a_table_link_cannot_end_its_game_early(api, client) -> None:
    tournament = event_in_play(4, holes=3)
    game = Table.objects.filter(round__tournament=tournament).first().game
    names = [seat.name for seat in game.seats.order_by("seat")]
    recorded = api.post(
        f"/api/v1/games/{game.edit_token}/holes/",
        {"entries": {name: 5 for name in names}, "ender": None},
        format="json",
    )
    assert recorded.status_code == 201, recorded.content
    response = api.post(f"/api/v1/games/{game.edit_token}/end/", {}, format="json")
    assert response.status_code == 409
    assert "director runs the rounds" in response.json()["errors"][0]["message"]
    game.refresh_from_db()
    assert game.status == "in_progress" and not game.ended_early
    assert not GameChange.objects.filter(game=game, action="end").exists()
    # The table's page offers no such button, and its form answers the same refusal.
    page = client.get(f"/games/e/{game.edit_token}/")
    assert "End the game now" not in page.content.decode()
    refused = client.post(f"/games/e/{game.edit_token}/end/", follow=True)
    assert "director runs the rounds" in refused.content.decode()
    game.refresh_from_db()
    assert not game.ended_early
