"""Issue 31, item 7, on a phone (Chromium at 390x844): a call for an official shows on the director's
dashboard without a reload, with a visible alert, a screen reader's message, the count in the tab's
title and, once the director turned sound alerts on (browsers allow sound only after a tap), a beep;
the table's page, waiting for the official, shows the ruling once it is recorded, without a reload.

The beep is counted by wrapping the page's AudioContext (an init script): each tone started is one
oscillator; nothing is heard in a headless browser, but the script's calls are real."""

from __future__ import annotations

import pytest

from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tests.tournaments.helpers import event_in_play
from tournaments import services
from tournaments.models import Table
from tournaments.services.calls import answer_call, call_official

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUNT_TONES = """
window.__tones = 0;
const Real = window.AudioContext || window.webkitAudioContext;
if (Real) {
  window.AudioContext = class extends Real {
    createOscillator() {
      const tone = super.createOscillator();
      const start = tone.start.bind(tone);
      tone.start = (...args) => { window.__tones += 1; return start(...args); };
      return tone;
    }
  };
}
"""


def test_a_call_alerts_the_directors_dashboard_without_a_reload_on_a_phone(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=2, holes=2)
    table = Table.objects.filter(round__tournament=tournament).order_by("number")[0]
    page.add_init_script(COUNT_TONES)
    log_in_as_director(page)
    page.goto(f"/tournaments/{tournament.pk}/")
    assert page.locator("#call-alert").count() == 0
    sound = page.get_by_role("button", name="Turn on sound alerts")
    assert sound.is_visible()
    assert page.get_by_text("Browsers play no sound until you tap the page").is_visible()
    sound.click()  # the tap browsers ask for before any sound; it plays the alert once
    page.get_by_role("button", name="Turn off sound alerts").wait_for()
    assert page.get_by_text("Sound alerts are on").is_visible()
    tones_after_the_tap = page.evaluate("window.__tones")
    assert tones_after_the_tap > 0

    call_official(table, called_by="", note="a card fell face up")  # a table calls, elsewhere

    alert = page.locator("#call-alert")
    alert.wait_for(state="visible", timeout=15_000)  # the calls are polled every 5 s
    assert f"Table {table.number}" in alert.inner_text() and "a card fell face up" in alert.inner_text()
    assert "1 table is calling an official" in alert.inner_text()
    page.wait_for_function(f"window.__tones > {tones_after_the_tap}", timeout=5_000)
    assert page.locator("[data-call-announce]").inner_text() == "A table is calling an official."
    assert page.title().startswith("(1) ")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "dashboard-call-alert")
    # The alert's link answers the call.
    alert.get_by_role("link", name="Answer with a ruling").click()
    page.get_by_label("Situation").wait_for()


def test_the_tables_page_shows_the_ruling_once_it_is_given_without_a_reload(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=2, holes=2)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    player = table.seats.select_related("entrant").get(seat=1).entrant
    page.goto(f"/tournaments/table/{table.game.edit_token}/")
    page.locator("summary", has_text="Call an official").click()
    page.get_by_role("button", name="Call an official now").click()
    page.get_by_text("An official was called").first.wait_for()

    ruling = services.record_ruling(
        tournament, situation="card_revealed", facts={"intentional": True, "can_be_hidden": True},
        player=player.pk, round_number=1, table=table.number, step="points",
    )  # fmt: skip
    answer_call(tournament, table.calls.get().pk, ruling=ruling)  # the official answers the call

    section = page.locator(".table-rulings")
    section.wait_for(state="visible", timeout=20_000)  # asked every 10 s while the call was open
    text = section.inner_text()
    assert "A face-down card became visible" in text
    assert f"Penalty points for {player.name}: +5 on their total." in text
    assert "card_revealed" not in text
    assert page.get_by_text("The catalogue's answer, which the official changed").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    section.scroll_into_view_if_needed()
    screenshot(page, "table-ruling-given")
