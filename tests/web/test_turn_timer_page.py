"""The turn timer on the scorer's game page: its settings (the hole, its first player left of the
dealer, the players in seat order), none for a tournament's table, and the summary of the times."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from scoring import services

pytestmark = pytest.mark.django_db


def config_of(page: str) -> dict | None:
    found = re.search(r'data-config="([^"]*)"', page)
    return json.loads(html.unescape(found.group(1))) if found else None


def test_the_timer_times_the_next_hole_from_the_dealers_left() -> None:
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official", first_dealer=1)
    page = Client().get(f"/games/e/{game.edit_token}/").content.decode()
    assert config_of(page) == {
        "token": game.edit_token,
        "players": ["Ann", "Bob", "Cy"],
        "hole": {"number": 1, "playoff": False, "first_seat": 2, "seats": [0, 1, 2]},
    }
    assert "js/turn-timer.js" in page and 'id="turn-timer-title"' not in page
    services.hole_record(game, entries={"Ann": 3, "Bob": 5, "Cy": 9}, ender=None)
    page = Client().get(f"/games/e/{game.edit_token}/").content.decode()
    assert config_of(page)["hole"]["first_seat"] == 0  # Cy deals hole 2: Ann starts it


def test_a_finished_game_has_no_hole_to_time_and_the_view_link_no_timer() -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset={"preset": "official", "holes": 1})
    services.hole_record(game, entries={"Ann": 3, "Bob": 5}, ender=None)
    page = Client().get(f"/games/e/{game.edit_token}/").content.decode()
    assert config_of(page)["hole"] is None  # the script only sends what the phone still holds
    assert config_of(Client().get(f"/games/v/{game.view_token}/").content.decode()) is None


def test_the_summary_shows_each_players_total_and_average_per_turn() -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = Client().get(f"/games/v/{game.view_token}/").content.decode()
    assert "Time on turns" not in page  # nothing timed: no empty table
    services.record_turn_times(
        game,
        [
            services.HoleTimes(1, False, [services.SeatTime(0, 65_000, 5), services.SeatTime(1, 12_000, 4)]),
            services.HoleTimes(2, False, [services.SeatTime(0, 10_000, 1)]),
        ],
    )
    page = Client().get(f"/games/v/{game.view_token}/").content.decode()
    assert "Time on turns" in page
    rows = re.findall(
        r'<tr><th scope="row">(\w+)</th><td>([\d:]+)</td><td>([\d:]+)</td><td>(\d+)</td></tr>', page
    )
    assert rows == [("Ann", "1:15", "0:12", "6"), ("Bob", "0:12", "0:03", "4")]
