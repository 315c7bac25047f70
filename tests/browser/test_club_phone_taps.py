"""A new club owner's taps on a phone (Chromium at 390x844): the "Public" tick box is a full line to
tap with its words beside it, "The ratings as a table" is a full-height tap target, and a finished
club game's board leads back to the club's leaderboard."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import log_in_as_director
from tests.clubs.factories import club_game, make_club, make_members, make_owner

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NINE_HOLES = [{"Ann": 3, "Bob": 5, "Joe": 7}] * 9


def test_the_public_tick_box_is_a_line_to_tap_with_its_words_beside_it(phone) -> None:
    log_in_as_director(phone, "parent")
    phone.goto("/clubs/")
    box = phone.locator("input[name=is_public]")
    label = phone.locator("label", has=box)
    line = label.bounding_box()
    assert line is not None and line["height"] >= 44 and line["x"] >= 0
    tick = box.bounding_box()
    assert tick is not None and tick["width"] >= 24 and tick["height"] >= 24
    words = phone.get_by_text("Public: anyone", exact=False).bounding_box()
    assert words is not None and words["y"] < tick["y"] + tick["height"]  # the words start beside it
    label.click(position={"x": line["width"] - 10, "y": 10})  # the words tick it too
    assert box.is_checked()


def test_a_finished_club_game_leads_back_to_the_club_and_its_table_toggle_is_tall(phone) -> None:
    log_in_as_director(phone, "parent")
    club = make_club("The Fridays", make_owner("parent"))
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, bob, "Joe"], NINE_HOLES)
    phone.goto(f"/games/e/{game.edit_token}/")
    phone.get_by_role("link", name="Back to The Fridays").click()
    phone.wait_for_url(re.compile(rf"/clubs/{club.pk}/$"))
    phone.get_by_role("link", name="Ann").first.click()
    phone.wait_for_url(re.compile(rf"/clubs/{club.pk}/members/{ann.pk}/$"))
    toggle = phone.get_by_text("The ratings as a table").bounding_box()
    assert toggle is not None and toggle["height"] >= 44


SMALL_LINKS = """() => [...document.querySelectorAll('main a')]
  .filter((a) => a.getBoundingClientRect().width > 0 && a.getBoundingClientRect().height < 44)
  .map((a) => `${a.innerText.trim()} ${Math.round(a.getBoundingClientRect().height)}px`)"""


def test_every_link_of_the_club_leaderboard_season_and_member_pages_is_44_px_tall(phone) -> None:
    from datetime import date

    from clubs.models import Season

    log_in_as_director(phone, "parent")
    club = make_club("The Fridays", make_owner("parent"))
    ann, bob = make_members(club, "Ann", "Bob")
    club_game(club, [ann, bob, "Joe"], NINE_HOLES)
    season = Season.objects.create(club=club, name="2027", start=date(2020, 1, 1), end=date(2099, 12, 31))
    for path in (
        f"/clubs/{club.pk}/",
        f"/clubs/{club.pk}/seasons/{season.pk}/",
        f"/clubs/{club.pk}/members/{ann.pk}/",
    ):
        phone.goto(path)
        assert phone.evaluate(SMALL_LINKS) == [], path
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, path
    phone.goto(f"/clubs/{club.pk}/seasons/{season.pk}/?order=total_points")
    sorted_by = phone.locator("th[aria-sort=ascending] a")
    assert sorted_by.inner_text() == "Points"  # the arrow is drawn, not read
    arrow = sorted_by.evaluate("(a) => getComputedStyle(a, '::after').content")
    assert "\u2191" in arrow


def test_every_link_and_button_of_the_owners_club_pages_is_44_px_tall(phone) -> None:
    from datetime import date

    from clubs.models import Season

    log_in_as_director(phone, "parent")
    club = make_club("The Fridays", make_owner("parent"))
    make_members(club, "Ann", "Bob")
    Season.objects.create(club=club, name="2027", start=date(2027, 1, 1), end=date(2027, 12, 31))
    small = SMALL_LINKS.replace("'main a'", "'main a, main button, main summary'")
    for path in ("/clubs/", f"/clubs/{club.pk}/members/", f"/clubs/{club.pk}/seasons/"):
        phone.goto(path)
        assert phone.evaluate(small) == [], path


def test_retiring_a_member_says_so_in_their_row_keeps_the_focus_there_and_counts_again(phone) -> None:
    log_in_as_director(phone, "parent")
    club = make_club("The Fridays", make_owner("parent"))
    ann, _bob = make_members(club, "Ann", "Bob")
    phone.goto(f"/clubs/{club.pk}/members/")
    # Whether htmx had processed the swapped-in form when its button took the focus: if not, an
    # Enter pressed at once posts the whole page instead of swapping the row.
    phone.evaluate(
        "document.addEventListener('focusin', (e) => {"
        " const form = e.target.closest && e.target.closest('form[hx-post]');"
        " if (form) window.liveOnFocus = 'htmx-internal-data' in form; })"
    )
    row = phone.locator(f"#member-{ann.pk}")
    row.get_by_text("Change Ann").click()
    row.get_by_role("button", name="Retire").click()
    status = phone.locator(f"#member-{ann.pk} [role=status]")
    status.wait_for()
    assert status.inner_text() == "Ann is retired: kept with their games, no longer offered for new ones."
    assert phone.locator("#members-count").inner_text() == "2 members · 1 active"
    focused = phone.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Bring back"
    assert phone.evaluate("window.liveOnFocus") is True
    phone.keyboard.press("Enter")  # the focus is on the way back
    phone.locator(f"#member-{ann.pk} [role=status]", has_text="back among").wait_for()
    assert phone.locator("#members-count").inner_text() == "2 members · 2 active"
