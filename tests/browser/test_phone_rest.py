"""The rest of "Live game on a phone" (Chromium at 390x844): the breakdown of a score on the hole
screen's live preview, and the small things a person notices (wake-lock note, long default titles,
true times and minus signs, one clear outline on the selected cell)."""

from __future__ import annotations

import pytest

from scoring import services
from tests.browser.helpers import hole_url, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def preview_settled(page, text: str) -> None:
    page.wait_for_function(
        "(text) => { const box = document.querySelector('#preview-box');"
        " return box && !box.classList.contains('htmx-request') && box.textContent.includes(text); }",
        arg=text,
    )


# ---- Item 6: the breakdown inside a game, on the hole screen's preview


def test_tapping_a_preview_score_shows_its_breakdown_citing_the_rules_and_it_survives_a_refresh(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    page.goto(hole_url(game))
    page.click("input[name='p0-1-1']")
    tap(page, "2", "5", "K", "2", "6", "Q")  # a pair of 2s keeps -4 (rule 2.3): -4 + 5 + 0 + 6 + 10 = 17
    page.fill("input[name='p1-total']", "12")
    preview_settled(page, "12")
    score = page.get_by_role("button", name="Ann, hole score 17: how it was scored")
    score.wait_for()
    box = score.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    score.tap()
    sheet = page.get_by_role("dialog", name="Ann: 17")
    sheet.wait_for()
    text = sheet.inner_text()
    assert "Column 1" in text and "rule 2.3" in text
    assert sheet.locator("[data-explanation]").count() >= 1
    assert sheet.locator("[data-card-points]").count() == 6
    # The preview is redrawn while the scorer types: the open breakdown stays open.
    page.fill("input[name='p1-total']", "13")
    preview_settled(page, "13")
    sheet = page.get_by_role("dialog", name="Ann: 17")
    assert sheet.is_visible() and "rule 2.3" in sheet.inner_text()
    page.get_by_role("button", name="Close").tap()
    sheet.wait_for(state="hidden")
    # By keyboard: Enter on the score opens it, Escape closes it.
    page.get_by_role("button", name="Bob, hole score 13: how it was scored").focus()
    page.keyboard.press("Enter")
    bob = page.get_by_role("dialog", name="Bob: 13")
    bob.wait_for()
    assert "Typed total 13" in bob.inner_text()
    page.keyboard.press("Escape")
    bob.wait_for(state="hidden")


# ---- Item 11: small things a person notices


def test_the_screen_stays_on_note_is_no_clutter_under_the_hole_heading(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    # Chromium headless may refuse a wake lock: pretend this phone grants it.
    page.add_init_script(
        "Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {request: () =>"
        " Promise.resolve(Object.assign(new EventTarget(), {released: false}))}});"
    )
    page.goto(hole_url(game))
    page.click("input[name='p0-1-1']")
    status = page.locator("[data-wake-status]")
    page.wait_for_function(
        "() => document.querySelector('[data-wake-status]').textContent.includes('Screen stays on')"
    )
    box = status.bounding_box()
    assert box is None or box["height"] <= 1  # told to screen readers, not drawn under the heading
    assert page.locator(".hole-head").get_by_text("Screen stays on").count() == 0
    # The scoreboard keeps the screen awake too, without a word under its title either.
    page.goto(f"/games/e/{game.edit_token}/")
    page.wait_for_function(
        "() => document.querySelector('[data-wake-status]').textContent.includes('Screen stays on')"
    )
    box = page.locator("[data-wake-status]").bounding_box()
    assert box is None or box["height"] <= 1
    assert "stays on" not in page.locator(".game-meta").inner_text()


def test_a_default_title_of_four_long_names_takes_at_most_two_lines(phone):
    names = ["Alexandra", "Bartholomew", "Christopher", "Dominique"]
    game = services.create_game(players=names, ruleset="official")
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    h1 = page.locator("h1")
    assert h1.inner_text().strip() == "Alexandra, Bartholomew, Christopher and Dominique"
    height = h1.bounding_box()["height"]
    h1.evaluate("(el) => { el.textContent = 'A'; }")
    line = h1.bounding_box()["height"]
    assert height <= 2 * line + 1, (height, line)


RINGS = """(el) => { const s = getComputedStyle(el);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 ? 1 : 0;
  return outline + (s.boxShadow !== 'none' ? 1 : 0); }"""


def test_the_selected_cell_has_one_clear_outline_when_tapped_and_by_keyboard(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    page.goto(hole_url(game))
    page.locator("input[name='p0-1-1']").tap()
    cell = page.locator("input[name='p0-1-1']")
    assert cell.get_attribute("aria-current") == "true"
    assert cell.evaluate(RINGS) == 1
    assert page.locator("input[name='p0-1-2']").evaluate(RINGS) == 0  # the others: no ring
    page.keyboard.press("Tab")  # the keyboard way: focus moves on, and the focused cell is the selected one
    focused = page.evaluate("() => document.activeElement.name")
    nxt = page.locator(f"input[name='{focused}']")
    assert nxt.get_attribute("aria-current") == "true"
    assert nxt.evaluate(RINGS) == 1 and cell.evaluate(RINGS) == 0
