"""Back after confirming a table's scorecard (Chromium at 390x844): a first attempt sent without a
name was answered on a page of its own; after the confirmation, Back lands on the table's page as
it is now (confirmed), not on that attempt sent again with "This field is required."."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_back_after_confirming_shows_the_table_confirmed(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=1, holes=2)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(2):
        scoring_services.hole_record(
            table.game, entries={n: hole + i for i, n in enumerate(names)}, ender=None
        )
    page.goto(f"/tournaments/table/{table.game.edit_token}/")
    page.get_by_role("button", name="I confirm the scorecard").click()  # no name chosen
    page.wait_for_load_state()
    assert "Choose your name: the player who checked the scores." in page.content()
    page.get_by_label("Your name").select_option(names[1])
    page.get_by_role("button", name="I confirm the scorecard").click()
    page.get_by_text("Thank you: the scorecard is confirmed.").wait_for()
    page.go_back()
    page.wait_for_load_state()
    shown = page.content()
    assert "This field is required." not in shown and "Choose your name" not in shown
    assert f"Confirmed by {names[1]}" in shown
    assert page.get_by_role("button", name="I confirm the scorecard").count() == 0
    assert re.search(r"/tournaments/table/[\w-]+/$", page.url)
