"""Issue 32, item 3, on a phone (Chromium at 390x844): the director's dashboard flags a table whose
phone has gone silent mid-round, and, without a reload, shows the holes that phone still holds once
it is heard again (its queue's scoreboard request with `X-Golf-Pending`), then clears it when the
phone reports its queue empty."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from scoring import phone_contact
from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def contact_on(settings) -> None:
    """The feature on (the suite's settings turn it off), with this process's memory cleared."""
    settings.GOLFCLUB_PHONE_CONTACT = True
    phone_contact.forget()


def test_the_dashboard_flags_a_silent_table_then_shows_what_its_phone_holds(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=2, holes=2)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    twelve_ago = timezone.now() - datetime.timedelta(minutes=12, seconds=10)
    phone_contact.record_phone_contact(table.game.edit_token, None, now=twelve_ago)
    log_in_as_director(page)
    page.goto(f"/tournaments/{tournament.pk}/")

    line = page.locator(f"#table-{table.number}")
    flag = line.locator("[data-phone-silent]")
    assert flag.is_visible()
    assert "Not heard from for 12 min: may hold holes not yet sent" in flag.inner_text()
    assert "Phone last heard 12 min ago" in line.locator("[data-phone-status]").inner_text()
    chase = page.locator("[data-phone-chase]")
    assert chase.is_visible() and f"Table {table.number}: not heard from for 12 min" in chase.inner_text()
    assert page.locator("#table-2 [data-phone-status]").inner_text().strip() == "Phone last heard: never"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "dashboard-phone-silent")

    # The table's phone finds a connection: its queue asks for the scoreboard, 3 writes still on it.
    board = f"/api/v1/games/{table.game.edit_token}/scoreboard/"
    assert page.request.get(board, headers={"X-Golf-Pending": "3"}).status == 200
    pending = line.locator("[data-phone-pending]")
    pending.wait_for(state="visible", timeout=15_000)  # the tables are polled every 10 s
    assert "3 holes still on the phone (reported" in pending.inner_text()
    assert flag.count() == 0
    assert "Phone last heard less than a minute ago" in line.locator("[data-phone-status]").inner_text()
    assert f"Table {table.number}: 3 holes still on the phone" in chase.inner_text()

    # Its queue sent everything: the next report says so and the table is no longer to chase.
    assert page.request.get(board, headers={"X-Golf-Pending": "0"}).status == 200
    pending.wait_for(state="detached", timeout=15_000)
    assert page.locator("[data-phone-chase]").count() == 0
