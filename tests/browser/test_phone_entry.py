"""Entering a hole on a phone (Chromium at 390x844): nothing typed is lost, the scorer sees the cell
being filled, the keypad fits the ruleset, errors name their player, typing works like the keypad."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scoring import services
from tests.browser.helpers import hole_url, tap
from tests.browser.test_game_flow import GRIDS, PLAYERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def selected_name(page) -> str | None:
    return page.evaluate(
        "() => { const c = document.querySelector('[data-grid-entry] [aria-current=\"true\"]');"
        " return c && c.name; }"
    )


def drafts(page) -> list[str]:
    return page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('golf-draft:'))")


def drafts_once_dropped(page) -> list[str]:
    """The drafts left once the page's script has run: the saved hole's draft is dropped by the script
    of the page the save lands on, which may run a moment after its text shows (a loaded machine)."""
    # On a timeout the caller's assertion shows which draft stayed.
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            "() => !Object.keys(localStorage).some((k) => k.startsWith('golf-draft:'))", timeout=5000
        )
    return drafts(page)


# ---- 1. A reload never loses cards


def test_a_reload_brings_the_cards_back_when_the_scorer_name_is_filled_and_selects_the_first_empty_cell(
    phone,
):
    game = services.create_game(players=PLAYERS, ruleset="official")
    page = phone
    page.goto(hole_url(game))
    for index in range(4):
        page.fill(f"input[name='p{index}-total']", str(index + 3))
    page.fill("#scorer", "Zoe")
    page.get_by_role("button", name="Save hole 1").click()
    page.get_by_text("Hole 1 saved").wait_for()
    assert drafts_once_dropped(page) == []
    page.goto(hole_url(game))
    assert page.input_value("#scorer") == "Zoe"  # the app fills the scorer's name on every hole
    page.click("input[name='p0-1-1']")
    tap(page, "5", "6", "K", "5", "6", "K", "A", "2")
    page.reload()
    assert page.input_value("input[name='p0-2-3']") == "K"
    assert page.input_value("input[name='p1-1-2']") == "2"
    assert page.get_by_text("The cards entered before the page was reloaded are back.").is_visible()
    assert selected_name(page) == "p1-1-3"
    tap(page, "3")
    assert page.input_value("input[name='p1-1-3']") == "3"
    assert page.input_value("input[name='p0-1-1']") == "5"


def test_a_rejected_save_keeps_the_draft_until_the_server_accepts_the_hole(phone):
    game = services.create_game(players=PLAYERS, ruleset="official")
    page = phone
    page.goto(hole_url(game))
    page.click("input[name='p0-1-1']")
    tap(page, "5", "6", "K", "5", "6", "K", "A", "2", "3")
    page.get_by_role("button", name="Save hole 1").click()
    page.locator("#hole-errors").wait_for()  # rejected: Bob's grid is half filled, Cy and Dee missing
    page.goto(f"/games/e/{game.edit_token}/")  # the scorer leaves the error page
    page.goto(hole_url(game))
    assert page.input_value("input[name='p0-2-3']") == "K"
    assert page.input_value("input[name='p1-1-3']") == "3"
    assert page.get_by_text("The cards entered before the page was reloaded are back.").is_visible()
    assert selected_name(page) == "p1-2-1"
    tap(page, "4", "7", "8")
    page.fill("input[name='p2-total']", "9")
    page.fill("input[name='p3-total']", "11")
    page.get_by_role("button", name="Save hole 1").click()
    page.get_by_text("Hole 1 saved: Ann 0, Bob 21, Cy 9, Dee 11.").wait_for()
    assert drafts_once_dropped(page) == []
    assert game.holes.count() == 1


# ---- 2. The scorer sees the cell being filled


def assert_in_view_above_keypad(page, name: str) -> None:
    cell = page.locator(f"input[name='{name}']").bounding_box()
    legend = page.locator(f"#player-{name[1]} > legend").bounding_box()
    keypad = page.locator(".keypad-dock").bounding_box()
    viewport = page.viewport_size
    assert cell["y"] >= 0 and cell["y"] + cell["height"] <= viewport["height"], (name, cell)
    assert cell["y"] + cell["height"] <= keypad["y"], (name, cell, keypad)
    assert legend["y"] >= 0, (name, legend)


def test_the_selected_cell_and_its_player_stay_in_view_above_the_keypad(phone):
    game = services.create_game(players=PLAYERS, ruleset="official")
    page = phone
    page.goto(hole_url(game))
    page.click("input[name='p0-1-1']")
    for player in range(1, 4):
        tap(page, *[token for row in GRIDS[player - 1] for token in row])
        assert selected_name(page) == f"p{player}-1-1"
        assert_in_view_above_keypad(page, f"p{player}-1-1")
    tap(page, "3", "4", "7")
    assert_in_view_above_keypad(page, "p3-2-1")


# ---- 7. The keypad fits the ruleset


def test_the_keypad_offers_no_joker_without_jokers_and_one_bad_grid_blanks_no_other_score(phone):
    game = services.create_game(players=PLAYERS, ruleset="official")
    page = phone
    page.goto(hole_url(game))
    assert page.locator("[data-card-keypad] [data-rank='A']").is_visible()
    assert not page.locator("[data-card-keypad] [data-rank='X']").is_visible()
    page.click("input[name='p0-1-1']")
    tap(page, *[token for row in GRIDS[0] for token in row])
    tap(page, "A", "2", "3", "4", "7", "8")
    page.fill("input[name='p1-1-1']", "X")  # Bob's grid holds a joker, typed
    page.wait_for_function(
        "() => { const box = document.querySelector('#preview-box');"
        " return box && !box.classList.contains('htmx-request') && box.textContent.includes('Bob:'); }"
    )
    rows = page.locator("#preview-box tbody tr")
    assert rows.nth(0).locator("td").first.inner_text() == "0"  # Ann keeps her score
    assert "check the cards" in rows.nth(1).inner_text()
    assert rows.nth(2).locator("td").first.inner_text() == "not entered"


def test_the_score_page_keypad_follows_the_ruleset_jokers(phone):
    page = phone
    page.goto("/score/")
    assert not page.locator("[data-card-keypad] [data-rank='X']").is_visible()
    page.select_option("#id_preset", "official-jokers")
    page.locator("[data-card-keypad] [data-rank='X']").wait_for(state="visible")
    page.select_option("#id_preset", "official")
    page.locator("[data-card-keypad] [data-rank='X']").wait_for(state="hidden")


# ---- 8. Errors say whose grid


def test_a_bad_card_is_outlined_when_typed_and_the_error_names_the_player_without_jokers(phone):
    game = services.create_game(players=PLAYERS, ruleset="official")
    page = phone
    page.goto(hole_url(game))
    page.click("input[name='p0-1-1']")
    for player in range(3):
        tap(page, *[token for row in GRIDS[player] for token in row])
    page.fill("input[name='p3-total']", "11")
    page.fill("input[name='p1-1-1']", "1Z")
    bad = page.locator("input[name='p1-1-1']")
    assert bad.get_attribute("aria-invalid") == "true"
    assert "grid-entry-bad" in (bad.get_attribute("class") or "")
    page.get_by_role("button", name="Save hole 1").click()
    errors = page.locator("#hole-errors")
    errors.wait_for()
    text = errors.inner_text()
    assert 'Bob: Unknown card "1Z" at row 1, column 1' in text
    assert "joker" not in text.lower()
    assert page.locator("input[name='p1-1-1']").get_attribute("aria-invalid") == "true"


# ---- 10. Typing works like a keypad


def test_typed_cards_move_on_like_keypad_taps(phone):
    game = services.create_game(players=PLAYERS, ruleset="official")
    page = phone
    page.goto(hole_url(game))
    page.click("input[name='p0-1-1']")
    page.keyboard.type("5675KA")
    values = [page.input_value(f"input[name='p0-{r}-{c}']") for r in (1, 2) for c in (1, 2, 3)]
    assert values == ["5", "6", "7", "5", "K", "A"]
    assert selected_name(page) == "p1-1-1"
    page.keyboard.type("10qjh2")
    values = [page.input_value(f"input[name='p1-1-{c}']") for c in (1, 2, 3)]
    assert values[:2] == ["10", "Q"] and values[2].startswith("J") and values[2] != "J"
    assert page.input_value("input[name='p1-2-1']") == "2"
    assert selected_name(page) == "p1-2-2"
