"""Ending a game early against real concurrent requests on PostgreSQL (issue 31 item 8): a hole
saved at the moment the game is ended, and one end/ sent several times at once."""

from __future__ import annotations

from rest_framework.test import APIClient

from scoring import selectors, services
from scoring.models import Game, GameChange, IdempotentRequest
from scoring.services._hole_writing import match_state_from_entries

from .test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _stored_state_is_what_the_holes_give(game: Game) -> None:
    game.refresh_from_db()
    seats = list(game.seats.order_by("seat"))
    state = match_state_from_entries(game, seats, selectors.game_ruleset(game))
    assert (game.status, tuple(game.winners)) == (state.status, tuple(state.winners))
    assert [s.total for s in seats] == [state.seats[s.pk].total for s in seats]


def test_a_hole_saved_while_the_game_is_ended_is_either_refused_or_counted_never_both():
    for trial in range(8):
        game = services.create_game(players=["Ann", "Bob"], ruleset="official")
        services.hole_record(game, entries={"Ann": 3, "Bob": 4}, ender=None, actor="Ann")
        base = f"/api/v1/games/{game.edit_token}"
        hole, end = at_once(
            lambda base=base: APIClient().post(
                f"{base}/holes/", {"entries": {"Ann": 9, "Bob": 1}}, format="json"
            ),
            lambda base=base: APIClient().post(f"{base}/end/", {}, format="json"),
        )
        assert end.status_code == 200, (trial, end.content)
        assert hole.status_code in (201, 409), (trial, hole.content)
        game.refresh_from_db()
        played = 2 if hole.status_code == 201 else 1
        assert game.ended_early and game.status == "finished"
        assert max(game.seats.values_list("holes_played", flat=True)) == played
        board = selectors.scoreboard(game)
        assert board.ended_early == f"Ended early after hole {played} of 9"
        assert list(game.winners) == (["Bob"] if played == 2 else ["Ann"])  # 3+9=12 > 4+1=5
        _stored_state_is_what_the_holes_give(game)


def test_one_end_sent_six_times_at_once_ends_the_game_once():
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 3, "Bob": 4}, ender=None, actor="Ann")
    url = f"/api/v1/games/{game.edit_token}/end/"

    def send():
        return APIClient().post(url, {"actor": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY="stop-now")

    answers = at_once(*(send for _ in range(6)))
    assert [a.status_code for a in answers] == [200] * 6, [a.content for a in answers]
    assert {a.json()["status"] for a in answers} == {"finished"}
    assert GameChange.objects.filter(game=game, action="end").count() == 1
    assert IdempotentRequest.objects.filter(game=game, key="stop-now").count() == 1
    _stored_state_is_what_the_holes_give(game)
