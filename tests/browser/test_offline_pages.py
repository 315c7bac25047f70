"""The installable app with no connection (issue 32, item 1), in Chromium at 390x844 with service
workers on: after one visit with a connection, the pages a table needs open offline, showing their
content, not the browser's error page.

The phone visits the site once online and waits for the service worker (/sw.js) to control the
page; then it goes offline (`context.set_offline(True)`) and opens each page again.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_for_the_service_worker(page) -> None:
    """Until /sw.js has installed (the files and start pages stored) and controls this page."""
    # `ready` settles once a worker is active, so install (with its stored files) has finished; it
    # claims the open pages as it activates. (A polled wait_for_function would need eval, which the
    # pages' CSP refuses.)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(100):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took control of the page")


def visit_offline(page, path: str, text: str) -> None:
    """Open `path` with no connection: the page answers with `text` in it (not Chromium's error)."""
    page.goto(path)
    body = page.locator("body")
    # The offline shell (a game's edit pages, the start page) draws the page from the phone's
    # storage just after it loads: wait for the text rather than read it at once.
    expect(body).to_contain_text(text)
    assert "ERR_INTERNET_DISCONNECTED" not in page.content()


def test_the_pages_a_table_needs_open_with_no_connection(phone) -> None:
    page = phone
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 4, "Bob": 9}, ender=None)
    tournament = event_in_play(8, rounds=1, holes=2)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    seated = list(table.game.seats.order_by("seat").values_list("name", flat=True))

    # One visit with a connection: the home page (which installs the service worker), then the
    # pages of this phone's game and table (the start pages were stored at install).
    page.goto("/")
    wait_for_the_service_worker(page)
    for path in (
        f"/games/e/{game.edit_token}/",
        f"/games/e/{game.edit_token}/holes/new/",
        f"/tournaments/table/{table.game.edit_token}/",
    ):
        page.goto(path)
        assert page.evaluate("navigator.serviceWorker.controller !== null"), path

    page.context.set_offline(True)
    visit_offline(page, "/", "Start a game")
    visit_offline(page, "/games/new/", "Rules and players")
    visit_offline(page, f"/games/e/{game.edit_token}/", "Bob")
    visit_offline(page, f"/games/e/{game.edit_token}/holes/new/", "Save hole 2")
    visit_offline(page, "/score/", "Score a grid")
    visit_offline(page, "/rules/", "Rules")
    visit_offline(page, "/rules/official/", "Rules")
    visit_offline(page, f"/tournaments/table/{table.game.edit_token}/", seated[0])
    # A page never stored: the translated "You are offline" page, linking to what works offline.
    visit_offline(page, f"/tournaments/{tournament.pk}/standings/", "You are offline")
    assert page.get_by_role("link", name="Start a live game").count() == 1
    page.context.set_offline(False)


def test_online_pages_are_the_servers_own_with_the_service_worker_in_control(phone) -> None:
    page = phone
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page.goto(f"/games/e/{game.edit_token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{game.edit_token}/")
    assert "Bob" in page.locator("body").inner_text()
    # A hole recorded elsewhere shows at once online: the network first, never the stored copy.
    services.hole_record(game, entries={"Ann": 4, "Bob": 9}, ender=None)
    page.reload()
    page.locator("table.scorecard tbody tr", has_text="Bob").locator("td.total", has_text="9").wait_for()
