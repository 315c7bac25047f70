"""The live "Hole scores" preview of a hole form follows a typed total at each keystroke (Chromium
at 390x844): a correction showed the total before the last keystroke for the length of a debounce
(issue 31 item 8)."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _hole_cell(page, name: str):
    return page.locator("#preview-box tr", has_text=name).locator("td").first


def _match_total(page, name: str):
    return page.locator("#preview-box tr", has_text=name).locator("td").nth(1)


def test_a_correction_preview_shows_each_typed_total_at_once(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 5, "Bob": 7}, ender=None, actor="Ann")
    services.hole_record(game, entries={"Ann": 3, "Bob": 4}, ender=None, actor="Ann")
    page = phone
    # The page's timers stand still: only what the page does at once may update the preview (a
    # debounced one never fires), so "at once" is tested without racing a clock.
    page.clock.install(time=dt.datetime(2026, 11, 27, 12, 0))
    page.goto(f"/games/e/{game.edit_token}/holes/1/")
    page.get_by_role("heading", name="Correct hole 1").wait_for()
    assert _hole_cell(page, "Ann").inner_text().strip() == "5"
    page.clock.pause_at(dt.datetime(2026, 11, 27, 12, 1))
    total = page.locator("input[name='p0-total']")
    total.click()
    total.press("End")
    for key, shown, match_total in (("Backspace", "not entered", ""), ("1", "1", "4"), ("2", "12", "15")):
        total.press(key)
        page.wait_for_function(
            "([name, text]) => [...document.querySelectorAll('#preview-box tr')].some("
            "row => row.textContent.includes(name) && row.querySelector('td')"
            " && row.querySelector('td').textContent.trim() === text)",
            arg=["Ann", shown],
            timeout=5_000,
        )
        assert _match_total(page, "Ann").inner_text().strip() == match_total, key
    # Bob's row, untouched, still shows his recorded score.
    assert _hole_cell(page, "Bob").inner_text().strip() == "7"
    page.get_by_role("button", name="Save the correction").click()
    page.get_by_text("Hole 1 corrected.").wait_for()
