"""The live scoreboard on a phone (Chromium at 390x844): the news of a save is on screen, the latest
holes show without a swipe, nothing slides sideways, a hole score opens its breakdown, and an undo
that would delete a hole asks first."""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Game
from tests.browser.helpers import hole_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_VIEWPORT = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth; }"""


def in_viewport(locator) -> bool:
    """True when the whole element is inside the visible area of the page."""
    return locator.evaluate(IN_VIEWPORT)


def four_player_game(holes: int) -> Game:
    """An official game of Ann, Bob, Cy and Dee with `holes` holes of 5, 6, 7 and 8 recorded."""
    game = services.create_game(players=["Ann", "Bob", "Cy", "Dee"], ruleset="official")
    for _ in range(holes):
        services.hole_record(game, entries={"Ann": 5, "Bob": 6, "Cy": 7, "Dee": 8}, ender=None)
    return game


def save_totals(page, totals: list[int], button: str) -> None:
    """Type each player's total on the hole page and save it."""
    for index, total in enumerate(totals):
        page.fill(f"input[name='p{index}-total']", str(total))
    page.get_by_role("button", name=button).click()


# ---- Item 3: the result of a save is on screen ----


def test_after_a_save_the_hole_saved_message_and_the_scorecard_are_on_screen(phone):
    page = phone
    page.goto(hole_url(four_player_game(holes=3)))
    save_totals(page, [4, 5, 6, 7], "Save hole 4")
    message = page.get_by_text("Hole 4 saved: Ann 4, Bob 5, Cy 6, Dee 7.")
    message.wait_for()
    assert in_viewport(message)
    assert in_viewport(page.locator("#scorecard"))


def test_after_the_last_hole_the_winner_is_on_screen(phone):
    page = phone
    page.goto(hole_url(four_player_game(holes=8)))
    save_totals(page, [4, 5, 6, 7], "Save hole 9")
    winner = page.locator(".outcome h2", has_text="Ann wins!")
    winner.wait_for()
    assert in_viewport(winner)
    assert in_viewport(page.get_by_text("Hole 9 saved"))


def test_after_a_tied_last_hole_the_tie_and_the_playoff_link_are_on_screen(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    for _ in range(8):
        services.hole_record(game, entries={"Ann": 5, "Bob": 5}, ender=None)
    page = phone
    page.goto(hole_url(game))
    save_totals(page, [6, 6], "Save hole 9")
    tie = page.locator(".outcome h2", has_text="Tie for first: Ann & Bob")
    tie.wait_for()
    assert in_viewport(tie)
    assert in_viewport(page.get_by_role("link", name="Score playoff hole 1"))


# ---- Item 5: no sideways slide ----

# A phone zooms a too-wide page out (innerWidth grows with it): compare with the screen the phone has.
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= Math.min(window.innerWidth, screen.width)"


def game_pages(game, *, finished: bool) -> list[str]:
    """Every page of a game a phone can open (the hole pages at its last hole)."""
    edit, view = f"/games/e/{game.edit_token}", f"/games/v/{game.view_token}"
    last = game.holes.filter(is_playoff=False).count()
    pages = [f"{edit}/", f"{view}/", f"{edit}/holes/{last}/", f"{edit}/history/", f"{view}/history/"]
    pages += [f"{edit}/share/", f"{edit}/settings/", f"{edit}/holes/{last}/delete/"]
    pages += [f"{edit}/holes/{last}/scores/", f"{view}/holes/{last}/scores/"]
    if not finished:
        pages.append(f"{edit}/holes/new/")
    return pages


@pytest.mark.parametrize("holes", [8, 9], ids=["in-play", "finished"])
def test_no_game_page_is_wider_than_the_phone_with_a_typed_total_far_right(phone, holes):
    game = services.create_game(players=["Annabelle", "Bartholomew", "Cy", "Dee"], ruleset="official")
    for hole in range(holes):  # typed totals, the last one at the far right of the scorecard
        services.hole_record(
            game, entries={"Annabelle": 5, "Bartholomew": -4, "Cy": 17, "Dee": hole}, ender=None
        )
    page = phone
    for url in game_pages(game, finished=holes == 9):
        page.goto(url)
        assert page.evaluate(NO_SIDEWAYS), (
            url,
            page.evaluate("[document.documentElement.scrollWidth, window.innerWidth, screen.width]"),
        )


# ---- Item 4: the scorecard shows the latest holes ----

UNCOVERED = """(th) => {
  const wrap = th.closest('.scorecard-wrap').getBoundingClientRect();
  const name = th.closest('table').querySelector('thead th').getBoundingClientRect();
  const total = th.closest('tr').querySelector('th.total').getBoundingClientRect();
  const r = th.getBoundingClientRect();
  return r.left >= name.right - 1 && r.right <= total.left + 1 && r.left >= wrap.left
    && total.right <= wrap.right && total.right <= window.innerWidth; }"""


def latest_hole_shown(page, number: int) -> bool:
    """True when hole `number`'s column and the Total are on screen, neither hidden by a pinned column."""
    th = page.locator("table.scorecard thead th", has_text=re.compile(rf"^\s*{number}\s*$")).first
    return th.evaluate(UNCOVERED)


def test_an_eighteen_hole_scorecard_shows_the_latest_holes_and_the_total_without_a_swipe(phone):
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official-extended")
    for hole in range(16):
        services.hole_record(game, entries={"Ann": hole, "Bob": 5, "Cy": 9}, ender=None)
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    assert latest_hole_shown(page, 16) and latest_hole_shown(page, 15)
    page.goto(f"/games/v/{game.view_token}/")
    assert latest_hole_shown(page, 16)
    # The watch page's scoreboard is replaced by polling: the new hole shows as it arrives.
    services.hole_record(game, entries={"Ann": 1, "Bob": 2, "Cy": 3}, ender=None)
    page.locator("table.scorecard thead th", has_text="17").wait_for(timeout=5000)
    page.wait_for_function(
        f"() => ({UNCOVERED})([...document.querySelectorAll('table.scorecard thead th')]"
        ".find((th) => th.textContent.trim() === '17'))",
        timeout=2000,
    )
    # Earlier holes are a sideways swipe away, inside the scorecard's own box.
    page.locator(".scorecard-wrap").first.evaluate("(box) => { box.scrollLeft = 0; }")
    assert latest_hole_shown(page, 1)


# ---- Item 9: undo cannot remove a hole by reflex ----


def test_an_undo_that_would_delete_a_hole_asks_first_and_redo_is_offered(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    for hole in range(5):
        services.hole_record(game, entries={"Ann": hole, "Bob": 7}, ender=None)
    services.hole_update(game, 5, expected_version=1, entries={"Ann": 9, "Bob": 7}, ender=None)
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    # Undoing an edit is one tap, and redo is offered at once.
    page.get_by_role("button", name="Undo: Hole 5 edited").click()
    page.get_by_text("Undone: edited hole 5.").wait_for()
    assert page.get_by_role("button", name="Redo: Hole 5 edited").is_visible()
    # The next undo would delete hole 5: a reflex tap only asks.
    page.get_by_role("link", name="Undo: Hole 5 recorded…").click()
    page.get_by_role("heading", name="Undo: Hole 5 recorded?").wait_for()
    assert page.get_by_text("This undo deletes hole 5 and its scores:").is_visible()
    assert game.holes.count() == 5
    page.get_by_role("link", name="No, keep hole 5").click()
    page.wait_for_url(re.compile(r"/games/e/[\w-]+/#news$"))
    assert game.holes.count() == 5
    page.get_by_role("link", name="Undo: Hole 5 recorded…").click()
    page.get_by_role("button", name="Yes, undo and delete hole 5").click()
    page.get_by_text("Undone: recorded hole 5.").wait_for()
    assert game.holes.count() == 4
    page.get_by_role("button", name="Redo: Hole 5 recorded").click()
    page.get_by_text("Redone: recorded hole 5.").wait_for()
    assert game.holes.count() == 5


# ---- Item 6: the breakdown inside a game ----


def test_tapping_a_hole_score_shows_its_breakdown_with_the_rules_cited(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    twos = [["2", "5", "K"], ["2", "6", "Q"]]  # a pair of 2s keeps -4 (rule 2.3): -4 + 11 + 10 = 17
    services.hole_record(game, entries={"Ann": twos, "Bob": 12}, ender=None)
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    page.get_by_role("link", name="Ann, hole 1: 17. How it was scored").click()
    page.wait_for_url(re.compile(r"/holes/1/scores/#p-0$"))
    ann = page.locator("#p-0")
    assert "Ann: 17" in ann.locator("h2").first.inner_text()
    assert "Column 1" in ann.inner_text() and "rule 2.3" in ann.inner_text()
    assert ann.locator("[data-explanation]").count() >= 1
    assert "Typed total 12" in page.locator("#p-1").inner_text()
    # The watch page, by keyboard.
    page.goto(f"/games/v/{game.view_token}/")
    link = page.get_by_role("link", name="Bob, hole 1: 12 (typed total). How it was scored")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/games/v/{game.view_token}/holes/1/scores/#p-1$"))
    assert page.get_by_role("link", name="Correct this hole").count() == 0


# ---- Item 11: small things a person notices ----


def test_the_site_icon_is_served_and_the_api_docs_load_nothing_from_outside(phone, live_server):
    page = phone
    response = page.request.get("/favicon.ico")
    assert response.status == 200 and response.headers["content-type"] == "image/x-icon"
    assert response.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file
    outside: list[str] = []
    here = re.compile(r"^(https?://(127\.0\.0\.1|localhost)(:\d+)?/|data:|blob:|about:)")
    page.on("request", lambda request: None if here.match(request.url) else outside.append(request.url))
    page.goto("/api/docs/")
    page.get_by_text("Golf club API").first.wait_for()
    page.wait_for_load_state("networkidle")
    assert outside == []


def test_the_rules_page_never_breaks_a_parameter_name_mid_word(phone):
    page = phone
    page.goto("/rules/")
    broken = page.evaluate(
        """() => [...document.querySelectorAll('.rules-preset[open] th[scope=row]')]
          .filter((th) => { const range = document.createRange(); range.selectNodeContents(th);
                            return range.getClientRects().length > 1; })
          .map((th) => th.textContent)"""
    )
    assert broken == []
    assert page.evaluate(NO_SIDEWAYS)
