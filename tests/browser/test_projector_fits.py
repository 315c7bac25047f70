"""The projector at 1920x1080 (issue 19, item 8) with 12 and with 200 players: the type sizes itself
to what a panel shows, nothing a player needs is cut (no ellipsis, every name and table number
whole and on the screen), and it reads from the back of a hall: names at least 40 px with 12
players (and the list using most of the screen, not a third of it), at least 24 px with 200
players, whose names are paged into panels that take turns (that hall is walked in the director's
journey, test_director_journey.py)."""

from __future__ import annotations

import pytest

from tests.browser.projector import hall_event, walk_panels

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_projector_shows_12_players_in_large_type_with_nothing_cut(chromium_browser, live_server) -> None:
    seen = walk_panels(chromium_browser, live_server, hall_event(12), "projector-12-players")
    seating, standings = seen[0], seen[1]  # then the standings' last 2 lines
    assert seating["title"].startswith("Seating") and seating["lines"] == 12
    assert seating["smallest"] >= 40, seating  # from the back of the hall
    assert seating["used"] >= 0.6, seating  # the names use the screen, not its top third
    assert standings["lines"] == 10 and standings["smallest"] >= 40, standings
    for panel in seen:
        assert not panel["cut"] and not panel["off"] and not panel["problems"], panel
