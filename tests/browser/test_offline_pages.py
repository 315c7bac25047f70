"""The installable app with no connection (issue 32, item 1), in Chromium at 390x844 with service
workers on: after one visit with a connection, the pages a table needs open offline, showing their
content, not the browser's error page.

The phone visits the site once online and waits for the service worker (/sw.js) to control the
page; then it goes offline (`context.set_offline(True)`) and opens each page again. Also here: the
install offer (Android's event, the iPhone hint), a download and logging in with the worker in
control, and a new version reaching the phone.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import services
from tests.browser.helpers import log_in_as_director
from tests.conftest import PHONE
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_for_the_service_worker(page) -> None:
    """Until /sw.js has installed (the files and start pages stored) and controls this page."""
    # `ready` settles once a worker is active, so install (with its stored files) has finished; it
    # claims the open pages as it activates. (A polled wait_for_function would need eval, which the
    # pages' CSP refuses.)
    ready = page.evaluate(
        "Promise.race([navigator.serviceWorker.ready.then(() => true),"
        " new Promise((resolve) => setTimeout(() => resolve(false), 20000))])"
    )
    assert ready, "no service worker became active in 20 s"
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


FAKE_INSTALL_OFFER = """() => {
  const offer = new Event("beforeinstallprompt", { cancelable: true });
  offer.prompt = () => { window.__prompted = true; return Promise.resolve(); };
  offer.userChoice = Promise.resolve({ outcome: "accepted", platform: "web" });
  window.dispatchEvent(offer);
  return offer.defaultPrevented;
}"""
STORED_PAGES = """caches.open("golf-pages").then((cache) => cache.keys())
  .then((requests) => requests.map((request) => new URL(request.url).pathname))"""
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.4 Mobile/15E148 Safari/604.1"
)


def test_the_install_button_appears_when_the_browser_offers_to_install(phone) -> None:
    page = phone
    page.goto("/")
    install = page.get_by_role("button", name="Install Golf club")
    assert install.count() == 0  # hidden until the browser says the app can be installed
    assert page.evaluate(FAKE_INSTALL_OFFER) is True  # the browser's own banner is held back
    install.click()
    assert page.evaluate("window.__prompted") is True
    page.locator("[data-install-offer]").wait_for(state="hidden")


def test_an_iphone_is_told_once_how_to_install(chromium_browser, live_server) -> None:
    context = chromium_browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, user_agent=IPHONE, base_url=live_server.url
    )
    try:
        page = context.new_page()
        page.goto("/")
        hint = page.get_by_text("Install Golf club on this iPhone: tap Share, then Add to Home Screen.")
        hint.wait_for()
        assert page.get_by_role("button", name="Install Golf club").count() == 0
        page.get_by_role("button", name="Got it").click()
        hint.wait_for(state="hidden")
        page.goto("/rules/")
        page.wait_for_load_state("load")
        assert hint.count() == 1 and not hint.is_visible()  # once: not on the next pages
    finally:
        context.close()


def test_a_file_download_and_logging_in_work_with_the_service_worker_in_control(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=1, holes=2)
    page.goto("/")
    wait_for_the_service_worker(page)
    log_in_as_director(page)  # /accounts/ is passed through, never stored
    page.goto(f"/tournaments/{tournament.pk}/standings/")
    with page.expect_download() as download:
        page.get_by_role("link", name="standings (CSV)").click()
    assert download.value.suggested_filename.endswith(".csv")
    stored = page.evaluate(STORED_PAGES)
    # The start pages, stored at install; not the login page, the director's pages or the file.
    assert "/" in stored and "/games/new/" in stored, stored
    assert not any(path.startswith(("/accounts/", f"/tournaments/{tournament.pk}/")) for path in stored), (
        stored
    )


STATIC_CACHES = """caches.keys().then((names) => names.filter((name) => name.startsWith("golf-static-")))"""


def test_a_changed_file_reaches_the_phone_as_a_new_version(phone, settings, tmp_path) -> None:
    # The version is computed from the static folder: a copy of it, where a script then changes.
    copy = tmp_path / "static"
    shutil.copytree(Path(settings.STATICFILES_DIRS[0]), copy)
    settings.STATICFILES_DIRS = [copy]
    page = phone
    page.goto("/")
    wait_for_the_service_worker(page)
    first = page.evaluate(STATIC_CACHES)
    assert len(first) == 1
    (copy / "js" / "clock.js").write_text((copy / "js" / "clock.js").read_text() + "\n// changed\n")
    # The browser checks /sw.js on its own on later visits; asked here so the test need not wait.
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    for _ in range(100):  # installed, then started at once (pwa.js: skip-waiting), the old cache gone
        names = page.evaluate(STATIC_CACHES)
        if len(names) == 1 and names != first:
            break
        page.wait_for_timeout(100)
    assert len(names) == 1 and names != first, (first, names)
    page.goto("/score/")  # the site works as before under the new version
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert "Score a grid" in page.locator("body").inner_text()
