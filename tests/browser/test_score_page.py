"""The "Score a grid" page in real Chromium at phone size: tapping cards in, undo, clear, hole mode, no JS."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPEC_EXPLANATION = [
    "Column 1: Q and Q match (rule 2.3): 0 points.",
    "Column 2: 7 and 7 match (rule 2.3): 0 points.",
    "Row 1, column 3: K scores 0 (rule 2.2).",
    "Row 2, column 3: 3 scores 3 (rule 2.2).",
    "Grid score: 0 + 0 + 0 + 3 = 3 (rule 2.4).",
]


def tap_cards(page: Page, *ranks: str) -> None:
    """Tap rank keys on the card keypad, one after the other."""
    for rank in ranks:
        page.locator(f'[data-card-keypad] button[data-rank="{rank}"]').tap()


def cell(page: Page, row: int, col: int, grid: str = "#cell-1") -> object:
    return page.locator(grid).get_by_label(f"Row {row}, column {col}", exact=True)


def test_it_taps_the_spec_grid_in_and_shows_total_and_breakdown(phone: Page) -> None:
    phone.goto("/score/")
    keypad = phone.locator("[data-card-keypad]")
    expect(keypad).to_be_visible()
    expect(phone.get_by_role("button", name="Score", exact=True)).to_be_hidden()
    for button in keypad.get_by_role("button").all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, button.inner_text()

    cell(phone, 1, 1).tap()
    expect(cell(phone, 1, 1)).to_have_attribute("aria-current", "true")
    tap_cards(phone, "Q", "7", "K", "Q", "7", "3")

    expect(phone.locator("#total-cell-1 [data-total]")).to_have_text("3")
    expect(phone.locator("[data-explanation]")).to_have_text(SPEC_EXPLANATION)
    expect(phone.locator("[data-match]")).to_have_count(2)
    expect(phone.locator("[data-match]").first).to_contain_text("Column 1: Q + Q → 0")
    expect(phone.locator("[data-card-points]")).to_have_text(["0", "0", "0", "0", "0", "3"])
    expect(cell(phone, 2, 3)).to_have_value("3")
    expect(phone.locator("#score-announce")).to_have_text("Total: 3")
    # The address follows the grid: a reload shows the same cards and total.
    expect(phone).to_have_url(re.compile(r"cell-1-2-3=3"))
    screenshot(phone, "score-grid")
    phone.locator("#score-result").scroll_into_view_if_needed()
    screenshot(phone, "score-grid-breakdown")
    phone.reload()
    expect(phone.locator("#total-cell-1 [data-total]")).to_have_text("3")


def test_it_undoes_each_tap_and_brings_a_cleared_grid_back(phone: Page) -> None:
    phone.goto("/score/")
    undo = phone.get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    tap_cards(phone, "Q", "7", "K", "Q", "7", "3")
    expect(phone.locator("[data-total]")).to_have_text("3")

    undo.tap()
    expect(cell(phone, 2, 3)).to_have_value("")
    expect(phone.locator("#total-cell-1")).to_contain_text("1 card to go.")
    expect(cell(phone, 2, 3)).to_have_attribute("aria-current", "true")
    tap_cards(phone, "9")
    expect(phone.locator("[data-total]")).to_have_text("9")

    phone.get_by_role("button", name="Clear grid").tap()
    for row in (1, 2):
        for col in (1, 2, 3):
            expect(cell(phone, row, col)).to_have_value("")
    expect(phone.locator("#total-cell-1")).to_contain_text("Enter the 6 cards of the grid.")
    expect(phone.locator("[data-keypad-status]")).to_have_text("Grid cleared. Undo brings it back.")

    undo.tap()
    expect(cell(phone, 1, 3)).to_have_value("K")
    expect(phone.locator("[data-total]")).to_have_text("9")


def test_it_adds_a_suit_erases_and_accepts_typing(phone: Page) -> None:
    phone.goto("/score/?preset=official-jokers")  # the Joker key shows only where jokers are played
    tap_cards(phone, "Q")
    phone.locator('[data-card-keypad] button[data-suit="♥"]').tap()
    expect(cell(phone, 1, 1)).to_have_value("Q♥")
    tap_cards(phone, "X")
    phone.locator('[data-card-keypad] button[data-suit="♠"]').tap()
    expect(cell(phone, 1, 2)).to_have_value("X")
    expect(phone.locator("[data-keypad-status]")).to_have_text("Jokers have no suit.")
    phone.get_by_role("button", name="Erase").tap()
    expect(cell(phone, 1, 2)).to_have_value("")

    # A keyboard works too: type a card straight into a cell.
    cell(phone, 1, 2).fill("1Z")
    expect(phone.locator("#cell-1-errors")).to_contain_text('Unknown card "1Z" at row 1, column 2')
    expect(cell(phone, 1, 2)).to_have_attribute("aria-invalid", "true")
    cell(phone, 1, 2).fill("7")
    expect(phone.locator("#cell-1-errors")).to_be_hidden()
    expect(cell(phone, 1, 2)).not_to_have_attribute("aria-invalid", "true")
    cell(phone, 1, 3).tap()
    tap_cards(phone, "K", "Q", "7", "3")
    expect(phone.locator("[data-total]")).to_have_text("3")


def test_it_keeps_the_cards_when_the_grid_shape_changes(phone: Page) -> None:
    phone.goto("/score/")
    tap_cards(phone, "Q", "7", "K", "Q", "7", "3")
    expect(phone.locator("[data-total]")).to_have_text("3")
    phone.get_by_text("Adjust rules").tap()
    phone.get_by_label("Grid (rows x columns)").select_option("2x2")
    expect(phone.locator("#cell-1 input")).to_have_count(4)
    expect(cell(phone, 2, 2)).to_have_value("7")
    expect(phone.locator("[data-total]")).to_have_text("0")
    expect(phone.locator("details.rules-adjust")).to_have_attribute("open", "")

    phone.get_by_label("Ruleset").select_option("nine-card")
    expect(phone.locator("#cell-1 input")).to_have_count(9)
    expect(cell(phone, 1, 1)).to_have_value("Q")
    expect(phone.locator("#total-cell-1")).to_contain_text("5 cards to go.")


def test_it_scores_a_hole_tapped_in_for_two_players(phone: Page) -> None:
    phone.goto("/score/?mode=hole")
    phone.get_by_label("Seat 1").fill("Ann")
    phone.get_by_label("Seat 2").fill("Bob")
    cell(phone, 1, 1, "#cell-1").tap()
    tap_cards(phone, "Q", "7", "K", "Q", "7", "3")
    # Filling Ann's grid moves on to Bob's.
    expect(cell(phone, 1, 1, "#cell-2")).to_have_attribute("aria-current", "true")
    tap_cards(phone, "J", "J", "A", "J", "J", "2")
    phone.get_by_role("radio", name="Ann").check()

    ann = phone.locator('[data-player="Ann"]')
    bob = phone.locator('[data-player="Bob"]')
    expect(ann.locator("[data-hole-score]")).to_have_text("3")
    expect(bob.locator("[data-hole-score]")).to_have_text("\u22121")
    expect(bob).to_contain_text("lowest")
    expect(phone.locator("#total-cell-1 [data-total]")).to_have_text("3")
    expect(phone.locator("#total-cell-2 [data-total]")).to_have_text("\u22121")
    screenshot(phone, "score-hole")

    phone.get_by_role("button", name="Add a player").tap()
    expect(phone.locator("[data-grid-entry]")).to_have_count(3)
    expect(cell(phone, 2, 3, "#cell-1")).to_have_value("3")
    expect(phone.get_by_label("Seat 1")).to_have_value("Ann")
    expect(phone.locator("#score-result")).to_contain_text("6 cards to go.")
    phone.get_by_role("button", name="Remove Player 3").tap()
    expect(phone.locator("[data-grid-entry]")).to_have_count(2)
    expect(ann.locator("[data-hole-score]")).to_have_text("3")


def test_it_scores_with_a_plain_form_post_when_javascript_is_off(chromium_browser, live_server) -> None:
    context = chromium_browser.new_context(
        viewport=PHONE, java_script_enabled=False, base_url=live_server.url
    )
    page = context.new_page()
    try:
        page.goto("/score/")
        expect(page.locator("[data-card-keypad]")).to_be_hidden()
        for (row, col), token in {(1, 1): "q", (1, 2): "7", (1, 3): "1Z", (2, 1): "Q", (2, 2): "7h"}.items():
            cell(page, row, col).fill(token)
        page.get_by_role("button", name="Score", exact=True).click()
        expect(cell(page, 1, 3)).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#cell-1-errors")).to_contain_text('Unknown card "1Z" at row 1, column 3')
        expect(page.locator("#cell-1-errors")).to_contain_text("Missing card at row 2, column 3")

        cell(page, 1, 3).fill("K")
        cell(page, 2, 3).fill("3")
        page.get_by_role("button", name="Score", exact=True).click()
        expect(page.locator("#total-cell-1 [data-total]")).to_have_text("3")
        expect(page.locator("[data-explanation]")).to_have_text(SPEC_EXPLANATION)
        screenshot(page, "score-grid-no-js")
    finally:
        context.close()
