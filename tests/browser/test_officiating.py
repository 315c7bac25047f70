"""An official answers a call from a table on a phone (Chromium at 390x844): a player taps "Call an
official" on the table's page, the official sees the call on the desk, answers it with a ruling
from the catalogue (the facts asked, the ruling with its sections, the ladder's +5 for a second
illegal move), records it, and the public standings show the penalty."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tests.tournaments.helpers import event, event_in_play, user
from tournaments import services
from tournaments.models import Penalty, Ruling, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_official_answers_a_call_with_a_ruling_and_a_penalty_on_a_phone(phone) -> None:
    page = phone
    tournament = event(8, rounds=2, holes=2)
    services.add_staff(tournament, user("olive").username, "official")
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    scoring_services.hole_record(table.game, entries={n: 5 for n in names}, ender=None)
    offender = table.seats.select_related("entrant").get(seat=2).entrant
    services.give_penalty(tournament, player=offender.pk, offence="illegal_move", round_number=1)

    # A player at the table calls an official from the table's page (reached through its link).
    page.goto(f"/tournaments/table/{table.game.edit_token}/")
    page.locator("summary", has_text="Call an official").click()
    page.get_by_label("Who is calling?").select_option(names[0])
    page.get_by_label("What happened (optional)").fill("swapped two of his own cards")
    page.get_by_role("button", name="Call an official now").click()
    page.get_by_text("An official was called").first.wait_for()
    screenshot(page, "officiating-call")

    # The official, on their phone, sees the call on the desk and answers it.
    log_in_as_director(page, "olive")
    page.goto(f"/tournaments/{tournament.pk}/officiating/")
    page.get_by_text(f"Table {table.number}").first.wait_for()
    assert page.get_by_text("swapped two of his own cards").is_visible()
    screenshot(page, "officiating-desk")
    page.get_by_role("link", name="Answer with a ruling").click()
    page.get_by_label("Situation").select_option("swapped_two_grid_cards")
    page.get_by_role("button", name="Next").click()
    page.get_by_text("Had the next player's turn begun when the error was noticed?").wait_for()
    page.get_by_label("Yes").check()
    page.get_by_label("Player", exact=True).select_option(str(offender.pk))
    page.get_by_label("Hole").fill("2")
    page.get_by_role("button", name="Get the ruling").click()
    page.get_by_text("the move stands").wait_for()
    assert page.get_by_text("Penalty points (5 points)").is_visible()
    assert page.locator('a[href="/rules/official/#8.4"]').count() >= 1
    screenshot(page, "officiating-ruling")
    page.get_by_role("button", name="Record this ruling").click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/officiating/$"))
    page.get_by_text(f"Ruling recorded: penalty points for {offender.name} (+5).").wait_for()
    assert page.get_by_text("No table is calling.").is_visible()

    ruling = Ruling.objects.get()
    assert ruling.penalty is not None and ruling.penalty.points == 5 and ruling.hole_number == 2
    assert Penalty.objects.filter(entrant=offender, rescinded_at__isnull=True).count() == 2

    # The public standings (a new anonymous visitor) show the five points.
    page.context.clear_cookies()
    page.goto(f"/tournaments/{tournament.pk}/standings/")
    row = page.locator("table.standings tbody tr", has_text=offender.name)
    assert "+5" in row.inner_text()


def test_a_disqualification_is_asked_twice_and_a_triple_tap_records_it_once_on_a_phone(phone) -> None:
    """Issue 19, item 6: the second page names the player and the consequence, with JavaScript on or
    off the same (a plain form, no confirm() dialog)."""
    page = phone
    tournament = event_in_play(8, rounds=2, holes=2)
    table = Table.objects.filter(round__tournament=tournament).order_by("number")[0]
    cheat = table.seats.select_related("entrant").get(seat=1).entrant
    log_in_as_director(page)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"/tournaments/{tournament.pk}/officiating/ruling/?situation=looked_at_face_down_card")
    page.get_by_label("Player", exact=True).select_option(str(cheat.pk))
    page.get_by_role("button", name="Get the ruling").click()
    page.get_by_role("button", name="Record this ruling").click()

    page.get_by_role("heading", name=f"Disqualify {cheat.name}?").wait_for()
    assert page.get_by_text(f"{cheat.name} is removed from the standings").is_visible()
    assert not Penalty.objects.exists()
    screenshot(page, "officiating-disqualify")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    yes = page.get_by_role("button", name=f"Yes, disqualify {cheat.name} from the tournament")
    # Three quick taps: the first sends the form, the copies land where it did.
    yes.click(click_count=3)
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/officiating/$"))
    # The page the browser keeps is the first answer's ("Ruling recorded: ...") or, when a copy was
    # sent before it came back, the copy's ("That form was sent twice: it was carried out once.").
    recorded = f"Ruling recorded: disqualified from the tournament for {cheat.name}."
    page.get_by_text(re.compile(rf"{re.escape(recorded)}|That form was sent twice")).first.wait_for()
    assert Penalty.objects.filter(entrant=cheat, step="event_dq").count() == 1 and Ruling.objects.count() == 1
    assert dialogs == []
