"""A tap on a hole score of the scorecard opens how it was made (/games/{e,v}/<token>/holes/<n>/scores/)."""

from __future__ import annotations

import pytest

from scoring import services

pytestmark = pytest.mark.django_db


def test_each_score_links_to_its_breakdown_citing_the_rules(client):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": [["2", "5", "K"], ["2", "6", "Q"]], "Bob": 12}, ender=None)
    board = client.get(f"/games/v/{game.view_token}/").content.decode()
    assert f"/games/v/{game.view_token}/holes/1/scores/#p-0" in board
    page = client.get(f"/games/v/{game.view_token}/holes/1/scores/").content.decode()
    assert "Hole 1: how each score was made" in page and "rule 2.3" in page
    assert "Typed total 12" in page and '/holes/1/"' not in page
    assert client.get(f"/games/v/{game.view_token}/holes/2/scores/").status_code == 404
    assert client.get(f"/games/e/{game.view_token}/holes/1/scores/").status_code == 403


def test_a_playoff_score_has_its_breakdown_too(client):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    for _ in range(9):
        services.hole_record(game, entries={"Ann": 5, "Bob": 5}, ender=None)
    services.hole_record(game, entries={"Ann": 3, "Bob": 7}, ender=None, playoff=True)
    board = client.get(f"/games/e/{game.edit_token}/").content.decode()
    assert f"/games/e/{game.edit_token}/playoff/1/scores/#p-0" in board
    page = client.get(f"/games/e/{game.edit_token}/playoff/1/scores/").content.decode()
    assert "Playoff hole 1: how each score was made" in page and "Correct this hole" in page


def test_the_new_game_hint_says_a_pair_of_twos_keeps_minus_four(client):
    page = client.get("/games/new/").content.decode()
    assert "a pair of 2s, which keeps \u22124 (rule 2.3)" in page  # a true minus sign
