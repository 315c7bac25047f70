"""A new director finds the way in on a phone (Chromium at 390x844, issue 19 item 1): from the home
page's "Run a tournament", through signing up, to a created tournament; the menu's "Tournaments"
then lists it first."""

from __future__ import annotations

import re

import pytest

from tests.accounts.helpers import FRAN_PASSWORD
from tests.browser.helpers import sign_up_from_the_login_page
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def no_sideways_scroll(page) -> bool:
    """The page is no wider than the phone's screen."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_visitor_goes_from_the_home_page_to_a_new_tournament_on_a_phone(phone, settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    page = phone
    page.goto("/")
    menu = page.get_by_role("navigation", name="Main")
    assert menu.get_by_role("link", name="Tournaments").is_visible()
    assert menu.get_by_role("link", name="Run a tournament").is_visible()
    assert no_sideways_scroll(page)

    page.get_by_role("main").get_by_role("link", name="Run a tournament").first.click()
    page.wait_for_url(re.compile(r"/accounts/login/\?next=/tournaments/new/$"))
    sign_up_from_the_login_page(page, "fran", FRAN_PASSWORD)

    page.wait_for_url(re.compile(r"/tournaments/new/$"))
    page.get_by_label("Name", exact=True).fill("Fran's First Open")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/players/$"))
    page.get_by_text("Fran's First Open is created").wait_for()
    assert Tournament.objects.get(name="Fran's First Open").director.username == "fran"

    # From any page, the menu leads back to the director's own events, listed first.
    page.goto("/rules/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    page.wait_for_url(re.compile(r"/tournaments/$"))
    first_event = page.locator("main ul.game-list").first.locator("li").first
    assert "Fran's First Open" in first_event.inner_text() and "you direct it" in first_event.inner_text()
    assert no_sideways_scroll(page)
