"""The director's seating plan on a phone (390x844, real Chromium; issue 34, item 3): round 1 of a
16-player, 6-round event is seated from the whole plan and the pages say "24 repeated meetings;
the least possible is 24" before publishing; a player dropped from the players page re-plans the
rounds not yet seated and the new figures are shown at once."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in_as_director
from tests.conftest import screenshot
from tests.tournaments.helpers import event
from tournaments.models import Entrant, SeatingPlan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_director_seats_from_the_plan_and_sees_it_replanned_after_a_drop(phone) -> None:
    page = phone
    tournament = event(16, rounds=6, holes=1)
    log_in_as_director(page)
    page.goto(f"/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/rounds/1/$"))
    figure = page.locator(".seating-plan")
    assert "this seating has 24 repeated meetings; the least possible is 24." in figure.inner_text()
    assert figure.is_visible()
    screenshot(page, "seating-plan-round-1")

    page.goto(f"/tournaments/{tournament.pk}/players/")
    p05 = Entrant.objects.get(tournament=tournament, name="P05")
    page.locator(f"#player-{p05.pk}").get_by_role("link", name="Drop").click()
    page.get_by_label(re.compile("Reason")).fill("Had to leave")
    page.get_by_role("button", name=re.compile("Drop")).click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/players/$"))
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert plan.first_round == 2 and p05.pk not in plan.players
    message = page.get_by_text("The rounds from round 2 on were planned again")
    assert message.is_visible()
    assert f"least possible is {plan.least_possible}." in message.inner_text()

    page.goto(f"/tournaments/{tournament.pk}/")
    figure = page.locator("#next-step .seating-plan")
    assert f"this seating has {plan.repeats} repeated meeting" in figure.inner_text()
    assert "Made again after P05 left." in figure.inner_text()
    screenshot(page, "seating-plan-after-a-drop")
