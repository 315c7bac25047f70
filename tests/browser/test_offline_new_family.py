"""A family that has never used the app (issue 32, items 2 and 8, as a new user would go), in Chromium
at 390x844 with the service worker on: the home page visited once with a connection, then none at
all. Every link of the home page and of the site's header opens one of the site's pages (never the
browser's own "no internet" error); the game is started from the home page's button, scored, a hole
corrected, the winner shown; the page reloaded, closed and reopened from the home page. Each offline
page fits the phone, and every control on it has a name a screen reader can say (the accessibility
tree). The `phone` fixture fails the test on a JavaScript error or a CSP violation. Back online, the
database holds the game and its holes once each, with the values the phone showed.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Game, HoleEntry
from tests.browser.layout import page_problems
from tests.browser.offline_helpers import board_scores, wait_for_the_service_worker, wait_until_sent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Mum", "Dad", "Zoé"]
# official-quick: a 2x2 grid, 6 holes. Mum's hole 1 on the keypad (5 K / 5 2: the column of 5s
# cancels; K 0, 2 -2), the rest typed; Dad's hole 2 is corrected from 9 to 4 afterwards.
TOTALS = [
    {"Dad": 3, "Zoé": 6},
    {"Mum": 4, "Dad": 9, "Zoé": 1},
    {"Mum": 2, "Dad": 2, "Zoé": 8},
    {"Mum": 0, "Dad": 5, "Zoé": 3},
    {"Mum": 7, "Dad": 1, "Zoé": 5},
    {"Mum": 3, "Dad": 0, "Zoé": 6},
]
EXPECTED = {"Mum": [-2, 4, 2, 0, 7, 3], "Dad": [3, 4, 2, 5, 1, 0], "Zoé": [6, 1, 8, 3, 5, 6]}
CONTROL_ROLES = {"button", "link", "textbox", "spinbutton", "combobox", "checkbox", "radio", "listbox"}

# The scorecard scrolls sideways inside its own box on a phone (the online game page's design too:
# the player column stays, the holes scroll); anything else that does not fit is a problem.
SCROLLS_BY_DESIGN = "<div.scorecard-wrap>"


def unnamed_controls(page) -> list[str]:
    """The controls of the page (buttons, links, fields) with no accessible name, read from
    Chromium's accessibility tree (what a screen reader says)."""
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    missing = []
    for node in tree:
        role = (node.get("role") or {}).get("value")
        if node.get("ignored") or role not in CONTROL_ROLES:
            continue
        name = ((node.get("name") or {}).get("value") or "").strip()
        if not name:
            missing.append(f"{role} (backend node {node.get('backendDOMNodeId')})")
    return missing


def check_the_page(page, where: str) -> None:
    """The page fits the phone and every control has a name."""
    problems = [p for p in page_problems(page) if SCROLLS_BY_DESIGN not in p]
    assert not problems, f"{where}: {problems}"
    assert not unnamed_controls(page), f"{where}: controls without a name: {unnamed_controls(page)}"


def a_site_page_opens(page, href: str) -> None:
    """`href` opens a page of the site with no connection, not the browser's error page."""
    answer = page.goto(href)
    assert page.url.startswith("http") and not page.url.startswith("chrome-error"), (href, page.url)
    assert answer is not None and answer.ok, (href, answer and answer.status)
    assert "Golf club" in page.title(), (href, page.title())


def every_link_opens_offline(page) -> None:
    page.goto("/no-connection/")  # the "You are offline" page: its header has "Log in" too
    hrefs = set()
    for start in ("/", "/no-connection/"):
        page.goto(start)
        for link in page.locator("header a, main a, footer a").all():
            href = link.get_attribute("href") or ""
            if href.startswith("/") and not href.startswith("//"):
                hrefs.add(href.split("#")[0] or "/")
    assert "/accounts/login/" in {h.split("?")[0] for h in hrefs}, hrefs
    for href in sorted(hrefs):
        a_site_page_opens(page, href)


def start_from_the_home_page(page) -> None:
    page.goto("/")
    page.get_by_role("link", name="Start a game").first.click()
    page.wait_for_selector("[data-offline-start=players]")
    check_the_page(page, "start: rules and players")
    page.get_by_label("Ruleset").select_option("official-quick")
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Next: first dealer").click()
    check_the_page(page, "start: first dealer")
    page.get_by_label("1. Mum").check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("[data-offline-board]")
    check_the_page(page, "the new game's scoreboard")


def score_the_holes(page) -> None:
    for number, totals in enumerate(TOTALS, start=1):
        page.get_by_role("link", name=f"Score hole {number}").click()
        page.wait_for_selector("[data-offline-hole-form]")
        if number == 1:
            page.get_by_label("Row 1, column 1").first.click()  # Mum's first cell
            for rank in ("5", "K", "5", "2"):
                page.click(f'[data-card-keypad] [data-rank="{rank}"]')
            check_the_page(page, "a hole with cards keyed in")
        for seat, name in enumerate(PLAYERS):
            if name in totals:
                page.fill(f"#id_p{seat}-total", str(totals[name]))  # "or total" in the player's group
        page.get_by_role("button", name=f"Save hole {number}").click()
        page.wait_for_selector("[data-offline-board]")


def test_a_new_family_plays_a_whole_game_offline_from_the_home_page(phone) -> None:
    page = phone
    context = page.context
    page.goto("/")
    wait_for_the_service_worker(page)
    context.set_offline(True)
    every_link_opens_offline(page)
    start_from_the_home_page(page)
    score_the_holes(page)

    page.get_by_role("link", name="Hole 2: correct or delete").click()
    page.wait_for_selector("[data-offline-hole-form]")
    check_the_page(page, "correcting a hole")
    page.fill("#id_p1-total", "4")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_selector("[data-offline-board]")
    check_the_page(page, "the finished game's scoreboard")
    shown = board_scores(page, PLAYERS)
    assert shown == {name: (EXPECTED[name], sum(EXPECTED[name])) for name in PLAYERS}
    assert "Mum wins!" in page.locator("[data-offline-outcome]").inner_text()

    page.reload()
    page.wait_for_selector("[data-offline-board]")
    assert board_scores(page, PLAYERS) == shown
    page.close()  # the tab closed; opened again from the home page
    page = context.new_page()
    page.goto("/")
    games = page.locator("[data-phone-games]")
    # The list is drawn from the phone's storage after the page loads: wait for it.
    expect(games).to_contain_text("6 holes on this phone, not yet sent.")
    check_the_page(page, "the home page listing the game")
    games.get_by_role("link").first.click()
    page.wait_for_selector("[data-offline-board]")
    assert board_scores(page, PLAYERS) == shown

    context.set_offline(False)
    wait_until_sent(page)
    game = Game.objects.get()
    assert [seat.name for seat in game.seats.order_by("seat")] == PLAYERS
    for name in PLAYERS:
        entries = HoleEntry.objects.filter(hole__game=game, seat__name=name).order_by("hole__number")
        assert list(entries.values_list("score", flat=True)) == EXPECTED[name], name
    assert HoleEntry.objects.filter(hole__game=game).count() == 18
