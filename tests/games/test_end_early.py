"""A family ends a live game before its last hole: the holes played decide it, with the ruleset's
tiebreakers (issue 31 item 8). The API's end/ and resume/, their If-Match and Idempotency-Key."""

from __future__ import annotations

import pytest

from scoring.models import Game, GameChange, IdempotentRequest
from scoring.rules import resolve_ruleset
from scoring.rules.match import rank_players

from .test_api import assert_error_shape, create, post_hole

pytestmark = pytest.mark.django_db


def _game_with_holes(api, holes: list[dict[str, int]], players=("Ann", "Bob", "Cy")) -> str:
    token = create(api, players, ruleset="official")["edit_token"]
    for entries in holes:
        assert post_hole(api, token, entries).status_code == 201
    return token


def _end(api, token: str, body: dict | None = None, **headers):
    return api.post(f"/api/v1/games/{token}/end/", body or {}, format="json", **headers)


def test_it_ends_after_the_holes_played_with_the_winner_by_the_ruleset_tiebreakers(api):
    # Ann and Bob tie on 12 after three holes of nine; countback (official: countback first) compares
    # their hole scores from the lowest: Bob's 2 beats Ann's 3.
    holes = [{"Ann": 3, "Bob": 2, "Cy": 9}, {"Ann": 4, "Bob": 5, "Cy": 9}, {"Ann": 5, "Bob": 5, "Cy": 1}]
    token = _game_with_holes(api, holes)
    response = _end(api, token, {"actor": "Ann"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished" and body["ended_early"] is True and body["winners"] == ["Bob"]
    # The engine's own ranking of those holes, not a re-implementation.
    expected = rank_players(
        {"Ann": [3, 4, 5], "Bob": [2, 5, 5], "Cy": [9, 9, 1]}, resolve_ruleset("official").tiebreakers
    )
    assert tuple(body["winners"]) == expected.winners

    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["ended_early"] == "Ended early after hole 3 of 9"
    assert board["match_over"] and "after hole 3 of 9" in board["reason"] and board["next_hole"] is None
    assert board["outcome"]["winners"] == ["Bob"]
    history = api.get(f"/api/v1/games/{token}/history/").json()
    assert history[0]["action"] == "end" and history[0]["summary"] == "Game ended early after hole 3"
    assert history[0]["actor"] == "Ann"

    # No more holes while it is ended; resume opens it again at hole 4.
    assert_error_shape(post_hole(api, token, {"Ann": 1, "Bob": 1, "Cy": 1}), 409)
    resumed = api.post(f"/api/v1/games/{token}/resume/", {}, format="json")
    assert resumed.status_code == 200 and resumed.json()["status"] == "in_progress"
    assert resumed.json()["ended_early"] is False and resumed.json()["winners"] == []
    assert api.get(f"/api/v1/games/{token}/scoreboard/").json()["next_hole"]["number"] == 4
    assert post_hole(api, token, {"Ann": 1, "Bob": 1, "Cy": 1}).status_code == 201
    assert api.get(f"/api/v1/games/{token}/history/").json()[1]["summary"] == "Game resumed after hole 3"


def test_a_tie_the_ruleset_settles_by_sudden_death_asks_for_a_playoff(api):
    token = create(api, ("Ann", "Bob"), ruleset={"preset": "official", "tiebreakers": ["sudden_death"]})[
        "edit_token"
    ]
    assert post_hole(api, token, {"Ann": 4, "Bob": 4}).status_code == 201
    body = _end(api, token).json()
    assert body["status"] == "sudden_death" and body["ended_early"] is True
    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["next_hole"]["is_playoff"] and board["contenders"] == ["Ann", "Bob"]
    playoff = post_hole(api, token, {"Ann": 2, "Bob": 5}, playoff=True)
    assert playoff.status_code == 201
    assert api.get(f"/api/v1/games/{token}/").json()["winners"] == ["Ann"]


def test_it_refuses_what_cannot_end_and_writes_nothing(api):
    token = create(api, ("Ann", "Bob"), ruleset={"preset": "official", "holes": 2})["edit_token"]
    body = assert_error_shape(_end(api, token), 409)
    assert "No hole is played yet" in body["errors"][0]["message"]
    assert_error_shape(api.post(f"/api/v1/games/{token}/resume/", {}, format="json"), 409)
    view = Game.objects.get(edit_token=token).view_token
    assert _end(api, view).status_code == 403
    for entries in ({"Ann": 1, "Bob": 2}, {"Ann": 1, "Bob": 2}):
        post_hole(api, token, entries)
    body = assert_error_shape(_end(api, token), 409)  # played to its end already
    assert "already over" in body["errors"][0]["message"]
    assert_error_shape(_end(api, token, {"actor": "Ann", "colour": "red"}), 400)
    assert not GameChange.objects.filter(action__in=["end", "resume"]).exists()


def test_if_match_names_the_game_version_read(api):
    token = _game_with_holes(api, [{"Ann": 1, "Bob": 2, "Cy": 3}])
    game = Game.objects.get(edit_token=token)
    stale = f'"game-{game.pk}-v{game.version - 1}"'
    assert_error_shape(_end(api, token, HTTP_IF_MATCH=stale), 412)
    assert_error_shape(_end(api, token, HTTP_IF_MATCH='"hole-1-v1"'), 412)
    assert Game.objects.get(pk=game.pk).ended_early is False
    current = api.get(f"/api/v1/games/{token}/scoreboard/")["ETag"]
    assert _end(api, token, HTTP_IF_MATCH=current).status_code == 200
    assert Game.objects.get(pk=game.pk).ended_early is True


def test_an_idempotency_key_replay_answers_and_writes_nothing(api):
    token = _game_with_holes(api, [{"Ann": 1, "Bob": 2, "Cy": 3}])
    first = _end(api, token, {"actor": "Ann"}, HTTP_IDEMPOTENCY_KEY="end-1")
    assert first.status_code == 200
    assert api.post(f"/api/v1/games/{token}/resume/", {}, format="json").status_code == 200
    # A late retry of the first end must not end the game the family resumed since: like every POST's
    # key (docs/api.md), it replays the first answer and writes nothing.
    replay = _end(api, token, {"actor": "Ann"}, HTTP_IDEMPOTENCY_KEY="end-1")
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()
    assert Game.objects.get(edit_token=token).status == "in_progress"
    assert GameChange.objects.filter(game__edit_token=token, action="end").count() == 1
    assert_error_shape(_end(api, token, {"actor": "Bob"}, HTTP_IDEMPOTENCY_KEY="end-1"), 422)
    assert IdempotentRequest.objects.filter(game__edit_token=token, key="end-1").count() == 1


def test_the_pages_and_their_polled_scoreboard_say_the_game_ended_early(api, client):
    token = _game_with_holes(api, [{"Ann": 1, "Bob": 2, "Cy": 3}, {"Ann": 1, "Bob": 2, "Cy": 3}])
    game = Game.objects.get(edit_token=token)
    confirm = client.get(f"/games/e/{token}/end/confirm/")
    assert (
        "End the game after hole 2 of 9?" in confirm.content.decode()
        and "Ann would win." in confirm.content.decode()
    )
    assert Game.objects.get(pk=game.pk).status == "in_progress"  # asking writes nothing
    assert client.post(f"/games/e/{token}/end/").status_code == 302
    for url in (
        f"/games/e/{token}/",
        f"/games/e/{token}/scoreboard/",
        f"/games/v/{game.view_token}/scoreboard/",
    ):
        body = client.get(url).content.decode()
        assert "Ended early after hole 2 of 9" in body and "Ann wins!" in body, url
        assert ("Resume the game" in body) == ("/e/" in url), url  # the watch link cannot resume
    assert "Ended early after hole 2 of 9" in client.get(f"/games/v/{game.view_token}/").content.decode()
    results = api.get(f"/api/v1/games/{token}/results/").json()
    assert results["ended_early"] == "Ended early after hole 2 of 9" and results["winners"] == ["Ann"]


def test_the_games_list_says_a_game_ended_early_beside_its_winner(client, django_user_model):
    from scoring import services

    owner = django_user_model.objects.create_user("fam", password="pw-12345-long")
    game = services.create_game(players=["Ann", "Bob"], ruleset="official", owner=owner)
    services.hole_record(game, entries={"Ann": 1, "Bob": 2}, ender=None, actor="Ann")
    services.end_game_early(game)
    client.force_login(owner)
    body = client.get("/games/").content.decode()
    assert "won by Ann · Ended early after hole 1 of 9" in body
