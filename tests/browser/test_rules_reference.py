"""The official rules reference on a phone (Chromium at 390x844): a ruling's link lands on its
section, and the search filters the sections as one types (htmx), accents ignored."""

from __future__ import annotations

import pytest

from tests.browser.layout import page_problems
from tests.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_link_lands_on_its_section_and_the_search_filters_as_one_types(phone) -> None:
    page = phone
    page.goto("/rules/official/#4.5")
    section = page.locator('[id="4.5"]')
    section.wait_for()
    box = section.bounding_box()
    assert box is not None and 0 <= box["y"] < 844, box  # scrolled into view by the anchor
    assert "next player's turn begins" in section.inner_text()
    page.get_by_label("Search the rules").fill("HORIZONTAL")
    page.locator('[id="3.4"]').wait_for(state="detached")  # htmx replaced the list
    for number in ("2.3", "8.2", "9.1"):
        assert page.locator(f'[id="{number}"]').is_visible()
    page.get_by_label("Search the rules").fill("pénalité")
    page.get_by_text("No section mentions").wait_for()
    page.get_by_label("Search the rules").fill("penalties")
    page.locator('[id="6.3"]').wait_for()
    screenshot(page, "rules-reference-search")


def test_the_whole_page_fits_a_phone_with_the_presets_tables(phone) -> None:
    # The tables of how each preset differs held long parameter names and values: the page
    # scrolled sideways and cut their last column off (found by a walk at 390x844).
    page = phone
    page.goto("/rules/official/")
    page.locator('[id="preset-jokers-54"]').wait_for()
    # screen.width: on a phone a page wider than the screen widens the window too (zoomed out).
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, screen.width,"
        " Math.max(...[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right))]"
    )
    assert widths[0] <= widths[1] and widths[2] <= widths[1], widths
    assert page_problems(page) == []
