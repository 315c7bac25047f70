"""On a phone (390x844) in Chromium: the director checks in everyone present from the players list
at once and undoes it; a player opens their own page from their QR link and sees their table; the
director, scanning that QR, checks the player in with one tap. No page scrolls sideways."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tests.tournaments.helpers import event, event_in_play
from tournaments.models import Entrant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def test_the_director_checks_in_everyone_at_once_and_undoes_it(phone) -> None:
    page = phone
    tournament = event(12, rounds=3, holes=2)
    log_in_as_director(page)
    page.goto(f"/tournaments/{tournament.pk}/players/")
    _no_sideways_scroll(page)
    page.get_by_label("Select P01").check()
    page.get_by_label("Select P02").check()
    page.get_by_role("button", name="Check in selected").click()
    page.get_by_text("2 players checked in.").wait_for()
    assert Entrant.objects.filter(tournament=tournament, checked_in=True).count() == 2
    page.get_by_role("button", name="Check in everyone not yet checked in").click()
    page.get_by_text("10 players checked in.").wait_for()
    assert Entrant.objects.filter(tournament=tournament, checked_in=True).count() == 12
    _no_sideways_scroll(page)
    screenshot(page, "players-bulk-check-in")
    # Undo the last action: the ten go back, the first two stay.
    page.get_by_role("button", name=re.compile("Undo the bulk action")).first.click()
    page.get_by_text("10 players put back as before.").wait_for()
    assert set(
        Entrant.objects.filter(tournament=tournament, checked_in=True).values_list("name", flat=True)
    ) == {
        "P01",
        "P02",
    }


def test_a_player_opens_their_page_and_the_director_checks_them_in_from_it(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=2, holes=2)
    me = tournament.entrants.get(name="P05")
    # The player, not logged in, opens the link their QR holds.
    page.goto(f"/tournaments/player/{me.token}/")
    page.get_by_role("heading", name="Your table now").wait_for()
    assert page.get_by_text(re.compile(r"Round 1 · Table \d · Seat \d")).is_visible()
    assert page.get_by_role("button", name="Check in P05").count() == 0
    _no_sideways_scroll(page)
    screenshot(page, "player-own-page")
    # The director scans the same QR on their phone: one tap checks the player in.
    log_in_as_director(page)
    page.goto(f"/tournaments/player/{me.token}/")
    page.get_by_role("button", name="Check in P05").click()
    page.get_by_text("P05 is checked in.").first.wait_for()
    assert Entrant.objects.get(pk=me.pk).checked_in
    _no_sideways_scroll(page)
    # The printable sheet of every player's QR fits the phone too.
    page.goto(f"/tournaments/{tournament.pk}/print/players/")
    assert page.locator(".player-qr-card").count() == 8
    _no_sideways_scroll(page)
