"""On a phone (390x844) in Chromium: a new owner creates a club, pastes a list of members (a bad
line named, fixed, then everyone added), retires one in place,
and every owners' page fits the screen."""

from __future__ import annotations

import re

import pytest

from clubs.models import Club, Member
from tests.browser.helpers import log_in_as_director
from tests.browser.layout import page_problems
from tests.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page) -> None:
    assert page_problems(page) == [], page.url


def test_a_new_owner_creates_a_club_and_pastes_its_members(phone) -> None:
    page = phone
    log_in_as_director(page, "olga")
    page.get_by_role("link", name="Clubs").first.click()
    page.wait_for_url(re.compile(r"/clubs/$"))
    _fits(page)
    page.get_by_label("Club name").fill("Friday Golf")
    page.get_by_role("button", name="Create the club").click()
    page.wait_for_url(re.compile(r"/clubs/\d+/members/$"))
    page.get_by_text("Friday Golf is created.").wait_for()
    club = Club.objects.get()
    assert club.owners.get().user.username == "olga"
    # A list with one name twice: nobody is added, the line is named, the text stays to fix.
    names = page.get_by_label("Names, one a line")
    names.fill("Ann\nBob\nCy\nann\nDee")
    page.get_by_role("button", name="Add everyone").click()
    page.get_by_text("Line 4: Ann is already on line 1.").wait_for()
    assert Member.objects.count() == 0
    assert page.get_by_label("Names, one a line").input_value() == "Ann\nBob\nCy\nann\nDee"
    _fits(page)
    page.get_by_label("Names, one a line").fill("Ann\nBob\nCy\n\nDee")
    page.get_by_role("button", name="Add everyone").click()
    page.get_by_text("4 members added.").wait_for()
    assert sorted(Member.objects.values_list("name", flat=True)) == ["Ann", "Bob", "Cy", "Dee"]
    _fits(page)
    screenshot(page, "club-members")
    # Retire Dee in place (htmx swaps her row in, now marked retired).
    dee = page.locator(f"#member-{Member.objects.get(name='Dee').pk}")
    dee.get_by_text("Change Dee").click()
    dee.get_by_role("button", name="Retire").click()
    page.locator(f"#member-{Member.objects.get(name='Dee').pk}").get_by_text("(retired)").wait_for()
    assert Member.objects.get(name="Dee").retired_at is not None
    for path in ("seasons/", "settings/"):
        page.goto(f"/clubs/{club.pk}/{path}")
        _fits(page)
    page.get_by_role("button", name="Make an invitation link").click()
    page.get_by_label("Invitation link, not used yet").wait_for()
    _fits(page)
