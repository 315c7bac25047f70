"""Exactly once, in Chromium at 390x844 (issue 32, item 4), the database checked each time:
- an answer lost after the server committed (the request reached the server, the page never got the
  answer: Playwright's `route.fetch()` then `route.abort()`), for the game's own create and for a
  hole: the retry carries the same Idempotency-Key and the database holds the game / hole once;
- the queue stops at the first failure (the server answering 503 for hole 3: holes 4 and 5 are not
  sent before it) and later sends them all, in order;
- each trigger alone sends the queue: the connection coming back (the `online` event), a page load,
  the tab shown again (visibilitychange) and the timer.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from scoring import services
from scoring.models import Game, Hole, HoleEntry, IdempotentRequest
from tests.browser.offline_helpers import save_hole, wait_for_the_service_worker, wait_until_sent
from tests.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob"]
SHOW_THE_TAB = "document.dispatchEvent(new Event('visibilitychange'))"  # the tab visible again


class Wire:
    """What the phone's POSTs to the API carried, and the answers the test makes it lose."""

    def __init__(self, lose: set[str]) -> None:
        self.lose = set(lose)  # "create" or "hole <n>": the first answer of each is lost
        self.sent: list[tuple[str, str]] = []  # (what, Idempotency-Key), in the order sent
        self.failing: set[str] = set()  # answered 503 while listed

    def handle(self, route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = request.post_data_json or {}
        what = "create" if request.url.endswith("/api/v1/games/") else f"hole {body.get('number')}"
        self.sent.append((what, request.headers.get("idempotency-key", "")))
        if what in self.failing:
            route.fulfill(status=503, json={"detail": "Down for a moment."})
        elif what in self.lose:
            self.lose.discard(what)
            route.fetch()  # the server receives it and commits...
            route.abort("connectionreset")  # ...but the answer never reaches the phone
        else:
            route.continue_()

    def keys(self, what: str) -> list[str]:
        return [key for sent, key in self.sent if sent == what]

    def order(self) -> list[str]:
        return [sent for sent, _ in self.sent]


def keep_showing_the_tab_until_sent(page, seconds: float = 30) -> None:
    """Until the page says all is sent, the tab 'shown again' every second (each a retry)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            page.evaluate(SHOW_THE_TAB)
            wait_until_sent(page, seconds=1)
            return
        except AssertionError:
            continue
        except Exception:  # the page moving to the server's link meanwhile
            page.wait_for_timeout(300)
    wait_until_sent(page, seconds=1)


def start_and_score_offline(page, holes: list[dict[str, int]]) -> None:
    """A phone that visited once goes offline, starts a game of Ann and Bob and scores `holes`."""
    page.goto("/")
    wait_for_the_service_worker(page)
    page.context.set_offline(True)
    page.goto("/games/new/")
    page.select_option("#id_ruleset", "official")
    for seat, name in enumerate(PLAYERS, start=1):
        page.fill(f"#player-{seat}", name)
    page.get_by_role("button", name="Next: first dealer").click()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("[data-offline-board]")
    for number, entries in enumerate(holes, start=1):
        page.get_by_role("link", name=f"Score hole {number}").click()
        page.wait_for_selector("[data-offline-hole-form]")
        for seat, name in enumerate(PLAYERS):
            page.fill(f"#id_p{seat}-total", str(entries[name]))
        save_hole(page, f"Save hole {number}")


def scores_in_the_database(game) -> list[dict[str, int]]:
    holes = Hole.objects.filter(game=game, is_playoff=False).order_by("number")
    return [dict(HoleEntry.objects.filter(hole=h).values_list("seat__name", "score")) for h in holes]


def test_answers_lost_after_the_commit_are_retried_with_their_keys_and_recorded_once(phone) -> None:
    page = phone
    holes = [{"Ann": 4, "Bob": 9}, {"Ann": 7, "Bob": 2}, {"Ann": 5, "Bob": 6}]
    start_and_score_offline(page, holes)
    wire = Wire(lose={"create", "hole 2"})
    page.context.route("**/api/v1/games/**", wire.handle)

    page.context.set_offline(False)  # the online event: the queue goes; two answers get lost
    keep_showing_the_tab_until_sent(page)

    # The create and hole 2 were each sent twice, with the same key; the others once.
    assert wire.order() == ["create", "create", "hole 1", "hole 2", "hole 2", "hole 3"]
    create_keys, hole_2_keys = wire.keys("create"), wire.keys("hole 2")
    assert len(set(create_keys)) == 1 and len(set(hole_2_keys)) == 1
    assert len({key for _, key in wire.sent}) == 4  # four writes, four keys
    # One game, and each hole once with the phone's values.
    assert Game.objects.count() == 1
    game = Game.objects.get()
    assert [seat.name for seat in game.seats.order_by("seat")] == PLAYERS
    assert scores_in_the_database(game) == holes
    assert IdempotentRequest.objects.filter(key=hole_2_keys[0]).count() == 1
    assert page.locator("[data-hole-state=sent]").count() == 3
    assert page.url.endswith(f"/games/e/{game.edit_token}/")


def visit_game_then_go_offline(page, token: str) -> None:
    page.goto(f"/games/e/{token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{token}/")
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.context.set_offline(True)


def test_the_queue_stops_at_the_first_failure_and_later_sends_all_in_order(phone) -> None:
    page = phone
    game = services.create_game(players=PLAYERS, ruleset="official")
    token = game.edit_token
    visit_game_then_go_offline(page, token)
    holes = [{"Ann": n, "Bob": 10 - n} for n in range(1, 6)]
    for number, entries in enumerate(holes, start=1):
        page.goto(f"/games/e/{token}/holes/new/")
        page.wait_for_selector("[data-offline-hole-form]")
        for seat, name in enumerate(PLAYERS):
            page.fill(f"#id_p{seat}-total", str(entries[name]))
        save_hole(page, f"Save hole {number}")
    wire = Wire(lose=set())
    wire.failing.add("hole 3")
    page.context.route("**/api/v1/games/**", wire.handle)

    page.context.set_offline(False)
    deadline = time.monotonic() + 10
    while "hole 3" not in wire.order() and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.wait_for_timeout(1500)  # time enough to (wrongly) send holes 4 and 5
    assert wire.order() == ["hole 1", "hole 2", "hole 3"]
    assert scores_in_the_database(game) == holes[:2]
    assert page.locator("[data-hole-state=waiting]").count() == 3
    # The connection is there: the phone says the server is busy, not "when the connection returns".
    banner = page.locator("[data-offline-banner]").inner_text()
    assert "3 holes on this phone" in banner and "(it is busy)" in banner, banner

    wire.failing.clear()  # the server is back
    keep_showing_the_tab_until_sent(page)
    assert wire.order() == ["hole 1", "hole 2", "hole 3", "hole 3", "hole 4", "hole 5"]
    assert wire.keys("hole 3")[0] == wire.keys("hole 3")[1]
    assert scores_in_the_database(game) == holes
    created = list(Hole.objects.filter(game=game).order_by("pk").values_list("number", flat=True))
    assert created == [1, 2, 3, 4, 5]  # recorded in the order entered


@pytest.fixture
def phone_without_background_sync(chromium_browser, live_server) -> Iterator[object]:
    """A phone whose page alone sends the queue: its service worker is blocked, so the worker's
    Background Sync (which iPhones lack, and which must never be relied on) cannot be what sent it."""
    context = chromium_browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url, service_workers="block"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _online_event(page) -> None:
    page.context.set_offline(True)
    page.context.set_offline(False)


def _page_load(page) -> None:
    page.reload()


def _tab_shown_again(page) -> None:
    page.evaluate(SHOW_THE_TAB)


def _timer(page) -> None:
    """Nothing: the sync's own timer (15 s after the failed try) must send it."""


QUEUE_HOLE_1 = """async (token) => {
  const game = await GolfStore.gameByToken(token);
  const write = await GolfSync.enqueue({ gameId: game.id, kind: "hole", path: "/api/v1/games/{token}/holes/",
    holeNumber: 1, body: { entries: { Ann: 3, Bob: 8 } } });
  return write.key;
}"""
TRIED = """async () => (await GolfSync.pending())
  .map((w) => `${w.state} ${w.lastError && w.lastError.code}`)"""


@pytest.mark.parametrize(
    "trigger, within",
    [(_online_event, 5), (_page_load, 5), (_tab_shown_again, 5), (_timer, 25)],
    ids=["online-event", "page-load", "tab-shown-again", "timer"],
)
def test_each_trigger_alone_sends_the_queue(phone_without_background_sync, trigger, within) -> None:
    page = phone_without_background_sync
    game = services.create_game(players=PLAYERS, ruleset="official")
    page.goto(f"/games/e/{game.edit_token}/")  # keeps the game on the phone; the sync started
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.route("**/api/v1/games/*/holes/", lambda route: route.abort("internetdisconnected"))
    key = page.evaluate(QUEUE_HOLE_1, game.edit_token)  # its send fails at once: it waits
    page.wait_for_function(f"({TRIED})().then((states) => states[0] === 'waiting offline')")
    page.wait_for_timeout(1000)  # the flushes the enqueue set off are over: it still waits
    assert page.evaluate(TRIED) == ["waiting offline"]
    tried_at = time.monotonic()
    page.unroute("**/api/v1/games/*/holes/")
    page.wait_for_timeout(1500)
    assert not Hole.objects.filter(game=game).exists()  # nothing sends it by itself meanwhile

    trigger(page)
    deadline = time.monotonic() + within
    while not Hole.objects.filter(game=game).exists() and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert list(Hole.objects.filter(game=game).values_list("number", flat=True)) == [1]
    if trigger is not _timer:
        assert time.monotonic() - tried_at < 12  # before the timer's first retry (15 s)
    else:
        assert time.monotonic() - tried_at > 10  # the timer, not something sooner
    assert IdempotentRequest.objects.get(game=game).key == key
    entries = HoleEntry.objects.filter(hole__game=game)
    assert dict(entries.values_list("seat__name", "score")) == {"Ann": 3, "Bob": 8}
