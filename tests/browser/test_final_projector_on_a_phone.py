"""Live standings add up (issue 31 item 6) on a phone (390x844): the projector of a final event shows
the winners and the final standings, with what the totals include, the penalty column and the
players' labels (late entry, dropped), nothing cut and nothing scrolling sideways; the public
leaderboard of the same event says what its totals include and labels its players too."""

from __future__ import annotations

import pytest

from tests.browser.layout import page_problems
from tests.tournaments.helpers import event, play_round
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _final_event():
    """9 players, 2 rounds of 2 holes, both finalized: a late entry, a drop, a time penalty."""
    tournament = event(9, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    first = tournament.entrants.order_by("pk").first()
    services.give_penalty(tournament, player=first.pk, offence="time", round_number=1, seconds_over=61)
    services.drop_entrant(tournament, tournament.entrants.get(name="P09").pk)
    services.add_entrant(tournament, "P10")
    play_round(tournament)
    services.finalize_round(tournament, 2)
    return tournament


def _no_sideways_scroll(page) -> None:
    sizes = page.evaluate("() => ({page: document.documentElement.scrollWidth, window: window.innerWidth})")
    assert sizes["page"] <= sizes["window"], sizes


def test_the_final_projector_and_leaderboard_on_a_phone(phone) -> None:
    tournament = _final_event()
    phone.clock.install()  # the panels take turns on the page's clock, which the test moves
    phone.goto(f"/tournaments/{tournament.pk}/projector/")
    assert phone.locator("header .round").inner_text() == "Final results"
    winners = phone.locator("section.winners")
    assert winners.is_visible() and winners.locator("h2").inner_text().startswith("The winner")
    assert winners.locator("tbody tr").count() >= 3
    assert phone.get_by_text("Seating, round").count() == 0
    _no_sideways_scroll(phone)
    assert page_problems(phone) == []
    # The next panel: the final standings.
    phone.clock.run_for(12_000)
    board = phone.locator("section.panel", has_text="Final standings").first
    board.wait_for(state="visible")
    assert winners.is_hidden()
    assert "Each total is the player's round scores plus penalty points" in board.inner_text()
    assert board.locator("th", has_text="Pen.").count() == 1
    assert board.locator("th.name", has_text="P10").inner_text().endswith("late entry")
    assert board.locator("th.name", has_text="P09").inner_text().endswith("dropped")
    _no_sideways_scroll(phone)
    assert page_problems(phone) == []

    phone.goto(f"/tournaments/{tournament.pk}/public/")
    leaderboard = phone.locator("#leaderboard")
    leaderboard.scroll_into_view_if_needed()
    assert "Each total is the player's round scores plus penalty points" in leaderboard.inner_text()
    assert "late entry" in leaderboard.locator("tr", has_text="P10").inner_text()
    _no_sideways_scroll(phone)
    assert page_problems(phone) == []
