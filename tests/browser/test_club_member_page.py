"""A public club's pages on a phone (Chromium at 390x844): the member page's rating chart shows
within the screen, and no club page scrolls sideways or cuts text off."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from clubs.models import Season
from tests.browser.helpers import log_in_as_director
from tests.browser.layout import page_problems
from tests.clubs.factories import make_club, make_members, make_owner
from tests.clubs.stats_rows import Line, counted_game
from tests.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DAY = datetime(2027, 9, 3, 19, 0, tzinfo=UTC)


def _club(owner=None):
    club = make_club("Thursday Night Golfers of the Long Valley", owner, public=True)
    members = make_members(club, "Annabelle Longname-Smythe", "Bob", "Cy", "Dee")
    ann, bob, cy, dee = members
    for day in range(12):
        order = [ann, bob, cy, dee][day % 4 :] + [ann, bob, cy, dee][: day % 4]
        lines = [
            Line(m, place, 10 * place + day, low=4 - place, best=place - 2)
            for place, m in enumerate(order, 1)
        ]
        counted_game(club, DAY + timedelta(days=day), lines)
    season = Season.objects.create(
        club=club, name="Autumn 2027", start=date(2027, 9, 1), end=date(2027, 11, 30)
    )
    return club, ann, season


def _fits(phone) -> None:
    width = phone.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"
    assert page_problems(phone) == []


def test_the_member_page_shows_its_chart_on_a_phone(phone) -> None:
    club, ann, season = _club()
    phone.goto(f"/clubs/p/{club.public_token}/members/{ann.pk}/")
    chart = phone.locator("svg.rating-chart")
    chart.wait_for(state="visible")
    box = chart.bounding_box()
    assert box is not None and 300 <= box["width"] <= 390 and box["x"] >= 0
    assert phone.get_by_role("img", name="Rating after each game").is_visible()
    assert phone.get_by_role("heading", name="Head-to-head").is_visible()
    assert phone.get_by_text("Rival:").is_visible()
    _fits(phone)
    screenshot(phone, "club-member-page")
    phone.get_by_text("The ratings as a table").click()
    assert phone.locator("details table tbody tr").count() == 12
    _fits(phone)
    phone.goto(f"/clubs/p/{club.public_token}/")
    _fits(phone)
    phone.goto(f"/clubs/p/{club.public_token}/seasons/{season.pk}/?order=rating_change")
    _fits(phone)
    screenshot(phone, "club-season-page")


def test_the_owners_club_pages_fit_a_phone(phone) -> None:
    log_in_as_director(phone, "club-owner")
    club, ann, season = _club(make_owner("club-owner"))
    for path in (
        f"/clubs/{club.pk}/",
        f"/clubs/{club.pk}/seasons/{season.pk}/",
        f"/clubs/{club.pk}/members/{ann.pk}/",
    ):
        phone.goto(path)
        _fits(phone)
    phone.goto(f"/clubs/{club.pk}/")
    assert phone.get_by_role("link", name="Start a game").is_visible()
    assert phone.get_by_role("heading", name="Download").is_visible()
