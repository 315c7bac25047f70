"""A family ends its live game before the last hole, on a phone (Chromium at 390x844): the button,
the confirmation with who would win, the scoreboard saying so, the history, and resuming (issue 31
item 8)."""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_family_ends_the_game_after_hole_3_and_resumes_it(phone):
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official")
    # Ann and Bob tie on 12; the official countback gives it to Bob (his 2 is the lowest hole).
    for entries in (
        {"Ann": 3, "Bob": 2, "Cy": 9},
        {"Ann": 4, "Bob": 5, "Cy": 9},
        {"Ann": 5, "Bob": 5, "Cy": 1},
    ):
        services.hole_record(game, entries=entries, ender=None, actor="Ann")
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    page.get_by_role("link", name="End the game now…").click()
    page.get_by_role("heading", name="End the game after hole 3 of 9?").wait_for()
    assert page.get_by_text("Bob would win.").is_visible()
    # Nothing is written until the second tap; "No" goes back to a game still in play.
    assert Game.objects.get(pk=game.pk).status == "in_progress"
    page.get_by_role("button", name="Yes, end the game now").click()
    page.wait_for_url(re.compile(r"/games/e/[\w-]+/(#news)?$"))
    outcome = page.locator(".outcome")
    assert "Bob wins!" in outcome.inner_text()
    assert "Ended early after hole 3 of 9" in outcome.inner_text()
    assert page.get_by_role("link", name=re.compile("Score hole")).count() == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing pushes the phone's page sideways
    assert page.get_by_text("Game ended early after hole 3").first.is_visible()

    page.get_by_role("button", name="Resume the game").click()
    page.get_by_text("The game goes on: hole 4 is next.").wait_for()
    assert page.get_by_role("link", name="Score hole 4").first.is_visible()
    assert page.locator(".outcome").count() == 0
    assert Game.objects.get(pk=game.pk).status == "in_progress"
