"""The offline queue in real Chromium (IndexedDB through idb-keyval, navigator.locks, fetch with the
page's cookies) against the live server on PostgreSQL: what is queued with no connection survives
a reload and reaches the server once when the connection returns. The scripts are loaded into a
page that has none of the offline app (the rules page), in a context whose service workers are
blocked: the test alone decides when the queue is sent (the app's pages and the service worker's
Background Sync send it by themselves; tests/browser/test_offline_*.py test them so).
"""

from __future__ import annotations

import time

import pytest
from django.db import connection

from scoring.models import Game, Hole, IdempotentRequest
from tests.conftest import PHONE

SCRIPTS = (
    "/static/vendor/idb-keyval-6.3.0.min.js",
    "/static/js/offline/store.js",
    "/static/js/offline/sync-http.js",
    "/static/js/offline/sync-resolve.js",
    "/static/js/offline/sync.js",
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the live server shares PostgreSQL (as in CI)"
    ),
]

QUEUE_A_GAME = """async () => {
  const id = GolfStore.newGameId();
  await GolfStore.putGame({ id, players: ["Ann", "Bob"], rulesetSpec: "official" });
  await GolfSync.enqueue({ gameId: id, kind: "create-game", path: "/api/v1/games/",
    body: { players: ["Ann", "Bob"], ruleset: "official", first_dealer: 0 } });
  for (let n = 1; n <= 3; n += 1) {
    await GolfSync.enqueue({ gameId: id, kind: "hole", path: "/api/v1/games/{token}/holes/",
      holeNumber: n, body: { entries: { Ann: n, Bob: 10 - n } } });
  }
  return { id, report: await GolfSync.flush(), locks: !!navigator.locks };
}"""


@pytest.fixture
def phone(chromium_browser, live_server):
    """A page at 390x844 with no service worker: nothing sends the queue but the test."""
    context = chromium_browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url, service_workers="block"
    )
    context.set_default_timeout(10_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _load_scripts(page) -> None:
    page.goto("/rules/")
    assert page.evaluate("() => typeof GolfSync") == "undefined"  # no page script sends the queue
    for script in SCRIPTS:
        page.add_script_tag(url=script)


def test_writes_queued_offline_survive_a_reload_and_reach_the_server_once(phone) -> None:
    _load_scripts(phone)
    phone.context.set_offline(True)
    queued = phone.evaluate(QUEUE_A_GAME)
    assert queued["locks"] and queued["report"]["stopped"] == "offline"
    assert Game.objects.count() == 0
    phone.context.set_offline(False)
    _load_scripts(phone)  # a reload: only IndexedDB remembers
    waiting = phone.evaluate(
        "async () => (await GolfSync.pending()).map((w) => [w.kind, w.holeNumber, w.state])"
    )
    assert waiting == [["create-game", None, "waiting"], *(["hole", n, "waiting"] for n in (1, 2, 3))]
    report = phone.evaluate("async () => GolfSync.flush()")
    assert report["stopped"] is None and len(report["sent"]) == 4
    game = Game.objects.get()
    holes = list(Hole.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    assert holes == [1, 2, 3] and IdempotentRequest.objects.filter(game=game).count() == 3
    record = phone.evaluate(f"async () => GolfStore.getGame({queued['id']!r})")
    assert record["editToken"] == game.edit_token and record["local"] == []
    assert [h["number"] for h in record["server"]["holes"]] == [1, 2, 3]
    status = phone.evaluate("async () => GolfSync.status()")
    assert status["waiting"] == 0 and status["conflict"] == 0 and status["lastHeardAt"]


def _slowly(route) -> None:
    time.sleep(0.2)
    route.continue_()


def test_two_tabs_flushing_at_once_send_each_write_once(phone) -> None:
    _load_scripts(phone)
    phone.context.set_offline(True)
    phone.evaluate(QUEUE_A_GAME)
    phone.context.set_offline(False)
    other = phone.context.new_page()
    _load_scripts(other)
    keys: list[str] = []
    phone.context.on(
        "request", lambda r: keys.append(r.headers.get("idempotency-key")) if r.method == "POST" else None
    )
    phone.context.route("**/api/v1/games/**", _slowly)  # tab 1's sending takes a while
    phone.evaluate("() => { window.flushing = GolfSync.flush(); }")  # tab 1 starts sending
    second = other.evaluate("async () => GolfSync.flush()")  # tab 2 at the same moment
    first = phone.evaluate("async () => window.flushing")
    assert second == {"sent": [], "conflicts": [], "stopped": "busy-elsewhere"}  # navigator.locks
    assert len(first["sent"]) == 4
    assert len(keys) == 4 and len(set(keys)) == 4  # each write sent once, by one tab
    assert list(Hole.objects.order_by("number").values_list("number", flat=True)) == [1, 2, 3]
    other.close()
