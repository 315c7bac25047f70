"""Defects found by the hostile pass on issue 19's writes (docs/reliability.md), each kept as a test:

- a player's own page loaded while they were active, then the player dropped, then the staff's
  "Check in <name>" tapped on that stale page: the player must not be checked in (the page itself
  says a dropped player is brought back first, as the bulk check-in refuses);
"""

from __future__ import annotations

import pytest

from tests.tournaments.web.conftest import Event, as_user
from tournaments import services
from tournaments.models import EntrantStatus


def _first_player(ev: Event):
    return ev.table.seats.order_by("seat").select_related("entrant").first().entrant


@pytest.mark.django_db
def test_the_staffs_check_in_from_a_stale_player_page_refuses_a_player_dropped_since(
    live_event: Event,
) -> None:
    ev = live_event
    player = _first_player(ev)
    home = f"/tournaments/player/{player.token}/"
    olive = as_user("olive")
    assert "Check in " + player.name in olive.get(home).content.decode()  # the page, while active
    services.drop_entrant(ev.tournament, player.pk, reason="Went home", actor=None)  # the director, meanwhile

    tapped = olive.post(home + "check-in/")  # the stale page's button

    assert tapped.status_code == 302
    player.refresh_from_db()
    assert player.status == EntrantStatus.DROPPED and not player.checked_in
    page = olive.get(tapped["Location"]).content.decode()
    assert f"{player.name} is dropped: bring them back before checking them in." in page
    assert f"{player.name} is checked in." not in page
