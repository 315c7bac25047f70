"""On a phone (390x844) in Chromium: a club's owner taps members into the seats in order, moves
one, adds a typed guest, picks the first dealer and starts the game: its board opens, the seats
linked to the members tapped. No page scrolls sideways."""

from __future__ import annotations

import re

import pytest

from clubs.models import SeatMember
from scoring.models import Game
from tests.browser.helpers import log_in_as_director
from tests.browser.layout import page_problems
from tests.clubs.factories import make_club, make_members
from tests.conftest import screenshot
from tests.tournaments.helpers import user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_owner_picks_members_in_seat_order_and_starts_the_game(phone) -> None:
    page = phone
    log_in_as_director(page, "olga")
    club = make_club("Friday Golf", user("olga"))
    ann, bob, cy = make_members(club, "Ann", "Bob", "Cy")
    page.goto(f"/clubs/{club.pk}/games/new/")
    assert page_problems(page) == []
    members = page.locator(".club-members")
    members.get_by_role("button", name="Bob").click()
    members.get_by_role("button", name="Ann").click()
    members.get_by_role("button", name="Cy").click()
    seats = page.locator(".club-seat-name")
    assert seats.all_inner_texts() == ["1. Bob", "2. Ann", "3. Cy"]
    page.get_by_role("button", name="Move Cy up").click()
    assert seats.all_inner_texts() == ["1. Bob", "2. Cy", "3. Ann"]
    page.get_by_label("Guest's name").fill("Zoe")
    page.get_by_label("Guest's name").press("Enter")  # Enter adds the guest
    assert seats.all_inner_texts() == ["1. Bob", "2. Cy", "3. Ann", "4. Zoe (guest)"]
    page.get_by_role("button", name="Remove Cy").click()
    assert seats.all_inner_texts() == ["1. Bob", "2. Ann", "3. Zoe (guest)"]
    page.get_by_label("First dealer").select_option(label="Ann")
    assert page_problems(page) == []
    screenshot(page, "club-new-game")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/e/[^/]+/$"))
    game = Game.objects.get()
    assert list(game.seats.order_by("seat").values_list("name", flat=True)) == ["Bob", "Ann", "Zoe"]
    assert game.first_dealer == 1
    assert dict(SeatMember.objects.filter(game=game).values_list("seat", "member")) == {0: bob.pk, 1: ann.pk}
    assert cy.seats.count() == 0


def test_a_long_guest_name_wraps_and_keeps_the_seats_buttons_on_the_screen(phone) -> None:
    page = phone
    log_in_as_director(page, "olga")
    club = make_club("Friday Golf", user("olga"))
    make_members(club, "Ann")
    page.goto(f"/clubs/{club.pk}/games/new/")
    page.get_by_label("Guest's name").fill("W" * 40)
    page.get_by_label("Guest's name").press("Enter")
    page.get_by_role("button", name=f"Remove {'W' * 40}").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    right = page.get_by_role("button", name=f"Remove {'W' * 40}").evaluate(
        "b => b.getBoundingClientRect().right"
    )
    assert right <= 390
