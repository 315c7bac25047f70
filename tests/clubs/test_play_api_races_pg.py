"""Two identical club-game POSTs with the same Idempotency-Key at the same moment (real concurrent
requests on PostgreSQL, each on its own connection): one game, one set of links, the same answer."""

from __future__ import annotations

import json

from rest_framework.test import APIClient

from clubs.models import ClubGame, SeatMember
from scoring.models import Game
from tests.clubs.factories import make_club, make_members, make_owner
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def test_two_identical_club_game_posts_at_once_make_one_game() -> None:
    owner = make_owner("olga")
    club = make_club("Friday Golf", owner)
    ann, bob = make_members(club, "Ann", "Bob")
    body = json.dumps(
        {"players": ["Ann", "Guest", "Bob"], "club": club.pk, "members": [ann.pk, None, bob.pk]}
    )

    def post() -> object:
        client = APIClient()
        client.force_login(owner)
        return lambda: client.post(
            "/api/v1/games/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="club-race-1"
        )

    results = at_once(post(), post())
    assert [r.status_code for r in results] == [201, 201], results
    assert results[0].json() == results[1].json()
    assert Game.objects.count() == ClubGame.objects.count() == 1
    assert SeatMember.objects.count() == 2
