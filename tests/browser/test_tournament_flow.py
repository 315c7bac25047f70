"""A director runs a short event on a phone (Chromium at 390x844): log in, create the tournament,
import the players as pasted CSV, seat and publish round 1, a player confirms a table's scorecard
through the table link, finalize, the standings. The tables' holes are recorded by the services
(the live-game flow itself has its own browser tests)."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tournaments import services
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSV = "name,club,rating\n" + "\n".join(f"P{n:02d},Club {n % 3},{1500 + n}" for n in range(1, 9))


def play_tables(tournament: Tournament) -> None:
    """Every table of the round records all its holes: the lower the player's number, the lower the score."""
    for table in Table.objects.filter(round__tournament=tournament).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in range(tournament.ruleset["holes"]):
            scoring_services.hole_record(
                table.game, entries={name: int(name[1:]) + hole % 2 for name in names}, ender=None
            )


def test_a_director_runs_a_one_round_event_on_a_phone(phone) -> None:
    page = phone
    log_in_as_director(page)
    page.get_by_role("main").get_by_role("link", name="Run a tournament").first.click()
    page.get_by_label("Name", exact=True).fill("Phone Open")
    page.get_by_label("Rounds", exact=True).fill("1")
    screenshot(page, "tournament-new")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/players/$"))
    page.get_by_label("Or paste the list").fill(CSV)
    page.get_by_role("button", name="Import the players").click()
    page.get_by_text("8 players imported").wait_for()
    assert page.get_by_text("8 registered · 8 active · 0 checked in").is_visible()
    page.locator("button.check-in").first.click()  # htmx swaps the row and the counts
    page.get_by_text("1 checked in").wait_for()
    tournament = Tournament.objects.get(name="Phone Open")

    page.get_by_role("link", name="Dashboard").click()
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_url(re.compile(r"/rounds/1/$"))
    screenshot(page, "tournament-seating")
    page.get_by_role("button", name="Publish round 1").click()
    page.get_by_text("Round 1 is published").wait_for()

    play_tables(tournament)
    table = (
        Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number").first()
    )
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    page.goto(f"/games/e/{table.game.edit_token}/")
    page.get_by_role("link", name="Confirm the scorecard").click()
    page.get_by_label("Your name").select_option(names[1])
    screenshot(page, "tournament-confirm")
    page.get_by_role("button", name="I confirm the scorecard").click()
    page.get_by_text(f"Confirmed by {names[1]}").first.wait_for()
    for other in (
        Table.objects.filter(round__tournament=tournament).exclude(pk=table.pk).select_related("game")
    ):
        services.confirm_table(other.game, other.game.seats.order_by("seat")[1].name)

    page.goto(f"/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="Finalize round 1").click()
    page.get_by_text("Round 1 is finalized").wait_for()
    page.get_by_role("link", name="Standings").first.click()
    page.get_by_text("Final: every round is finalized.").wait_for()
    screenshot(page, "tournament-standings")
    first_row = page.locator("table.standings tbody tr").first
    assert "P01" in first_row.inner_text()
