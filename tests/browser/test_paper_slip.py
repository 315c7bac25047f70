"""A table's phone died: the director types its paper slip on their own phone (Chromium at
390x844), from the dashboard's table row to the saved holes; the page fits the phone's width
without scrolling sideways, every hole and player in view down the page; the table then confirms
through its own link as usual. The print pack is linked beside it."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_types_a_dead_phones_paper_slip_on_a_phone(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=1, holes=9)
    table = (
        Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number").first()
    )
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    log_in_as_director(page)
    page.goto(f"/tournaments/{tournament.pk}/")
    assert page.get_by_role("link", name="Print pack (PDF)").count() == 1
    page.locator(f"#table-{table.number}").get_by_role("link", name="Type in the paper slip").click()
    page.wait_for_url(re.compile(r"/paper-slip/$"))
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    for hole in range(1, 10):
        for index, name in enumerate(names):
            page.get_by_label(f"Hole {hole}, {name}", exact=True).fill(str(hole + index - 2))
    screenshot(page, "paper-slip")
    page.get_by_role("button", name="Save the slip").click()
    page.wait_for_url(re.compile(r"/paper-slip/$"))
    assert "holes 1, 2, 3, 4, 5, 6, 7, 8, 9 saved from the paper slip" in page.content()
    assert page.get_by_label(f"Hole 9, {names[3]}", exact=True).input_value() == "10"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # The table confirms as usual, through its own link.
    page.get_by_role("link", name="The table's page (to confirm the scorecard)").click()
    page.get_by_label("Your name").select_option(names[1])
    page.get_by_role("button", name="I confirm the scorecard").click()
    page.wait_for_load_state()
    table.refresh_from_db()
    assert table.is_confirmed
    page.goto(f"/games/e/{table.game.edit_token}/history/")
    assert "dora (director), from the paper slip" in page.content()
