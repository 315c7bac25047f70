"""Two phones of one table, both offline, both record hole 4 (issue 32, items 4 and 5), in Chromium
at 390x844 with the service worker on. The first back online records hole 4; the second is shown the
conflict in plain words, its version beside the server's, and nothing is dropped until the player
chooses: "Keep mine (send as a correction)" corrects hole 4 on the server, "Keep the server's" drops
the phone's version. The database is checked at each step: one hole 4, first with the first phone's
scores, then with the chosen ones.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring import services
from scoring.models import Hole, HoleEntry
from tests.browser.offline_helpers import (
    board_scores,
    save_hole,
    wait_for_the_service_worker,
    wait_until_sent,
)
from tests.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob"]


@pytest.fixture
def second_phone(chromium_browser, live_server) -> Iterator[object]:
    """Another phone: a context of its own (its own storage and service worker)."""
    context = chromium_browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the second phone: {errors}"


def visit_then_go_offline(page, token: str) -> None:
    """The phone opens the game once with a connection (kept on the phone), then loses it."""
    page.goto(f"/games/e/{token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{token}/")
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.context.set_offline(True)


def record_hole_4_offline(page, token: str, ann: int, bob: int) -> None:
    page.goto(f"/games/e/{token}/holes/new/")
    page.wait_for_selector("[data-offline-hole-form]")
    page.fill("#id_p0-total", str(ann))
    page.fill("#id_p1-total", str(bob))
    save_hole(page, "Save hole 4")
    assert page.locator("[data-hole-state=waiting]").count() == 1


def hole_4_scores(game) -> dict[str, int]:
    hole = Hole.objects.get(game=game, number=4, is_playoff=False)
    return dict(HoleEntry.objects.filter(hole=hole).values_list("seat__name", "score"))


@pytest.mark.parametrize("choice", ["Keep mine (send as a correction)", "Keep the server's"])
def test_two_phones_record_hole_4_and_the_second_chooses_what_to_keep(phone, second_phone, choice) -> None:
    game = services.create_game(players=PLAYERS, ruleset="official")
    for ann, bob in ((4, 9), (7, 2), (5, 5)):
        services.hole_record(game, entries={"Ann": ann, "Bob": bob}, ender=None)
    token = game.edit_token
    first, second = phone, second_phone
    visit_then_go_offline(first, token)
    visit_then_go_offline(second, token)
    record_hole_4_offline(first, token, ann=3, bob=8)
    record_hole_4_offline(second, token, ann=6, bob=1)

    first.context.set_offline(False)
    wait_until_sent(first)
    assert hole_4_scores(game) == {"Ann": 3, "Bob": 8}

    second.context.set_offline(False)
    conflict = second.locator("[data-conflict]")
    conflict.wait_for(timeout=20_000)
    conflict.scroll_into_view_if_needed()
    screenshot(second, "offline-conflict")
    text = conflict.inner_text()
    assert "Another phone recorded this hole first" in text
    rows = conflict.locator("tbody tr").evaluate_all(  # the cells' text (innerText needs the layout)
        "(rows) => rows.map((tr) => [...tr.cells].map((cell) => cell.textContent.trim()))"
    )
    assert rows == [["Ann", "6", "3"], ["Bob", "1", "8"]]
    assert "The server refused one of them" in second.locator("[data-offline-banner]").inner_text()
    # Nothing changes on the server until the player chooses.
    second.wait_for_timeout(1000)
    assert hole_4_scores(game) == {"Ann": 3, "Bob": 8}
    assert Hole.objects.filter(game=game, number=4).count() == 1

    # The game's server page, opened again with the connection, points to the choice.
    second.goto(f"/games/e/{token}/")
    second.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    pointer = second.locator("[data-offline-conflicts]")
    assert pointer.is_visible()
    pointer.get_by_role("link").click()
    second.locator("[data-conflict]").wait_for()
    assert second.url.endswith(f"/games/e/{token}/")

    second.get_by_role("button", name=choice).click()
    wait_until_sent(second)
    assert second.locator("[data-conflict]").count() == 0
    kept = {"Ann": 6, "Bob": 1} if choice.startswith("Keep mine") else {"Ann": 3, "Bob": 8}
    assert hole_4_scores(game) == kept
    assert Hole.objects.filter(game=game, number=4).count() == 1
    assert Hole.objects.filter(game=game).count() == 4
    shown = board_scores(second, PLAYERS)
    assert shown == {
        "Ann": ([4, 7, 5, kept["Ann"]], 16 + kept["Ann"]),
        "Bob": ([9, 2, 5, kept["Bob"]], 16 + kept["Bob"]),
    }
