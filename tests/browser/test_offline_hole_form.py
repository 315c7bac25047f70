"""The online hole form when the connection drops (issue 32, the issue's own report): the hole page
was loaded with a connection, the Wi-Fi goes, "Save hole 1" is pressed. The form is not posted: it
is queued on the phone under the form's own idempotency key, the offline scoreboard shows the hole
as not yet sent, and back online it reaches the server once (database checked). A hole already sent,
corrected offline, goes as a correction: still one hole, with the new scores.
"""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Hole, HoleEntry, IdempotentRequest
from tests.browser.offline_helpers import board_scores, wait_for_the_service_worker, wait_until_sent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def scores_of(game) -> dict[str, int]:
    """Each player's score of the game's hole 1 in the database."""
    return dict(HoleEntry.objects.filter(hole__game=game, hole__number=1).values_list("seat__name", "score"))


def test_the_hole_form_saved_with_no_connection_is_queued_and_sent_once(phone) -> None:
    page = phone
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page.goto(f"/games/e/{game.edit_token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{game.edit_token}/holes/new/")
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    key = page.input_value("input[name=idempotency_key]")
    assert len(key) >= 16

    page.context.set_offline(True)
    for seat, token in enumerate(["5", "6", "K", "5", "6", "K"]):
        page.fill(f"#id-p0-{seat // 3 + 1}-{seat % 3 + 1}", token)
    page.fill("#id_p1-total", "7")
    page.get_by_role("button", name="Save hole 1").click()
    page.wait_for_selector("[data-offline-board]")
    assert page.url.endswith(f"/games/e/{game.edit_token}/")
    assert page.locator("[data-hole-state=waiting]").count() == 1
    assert board_scores(page, ["Ann", "Bob"]) == {"Ann": ([0], 0), "Bob": ([7], 7)}
    banner = page.locator("[data-offline-banner]").inner_text()
    assert banner.startswith("1 hole on this phone, not yet sent.")
    assert not Hole.objects.filter(game=game).exists()

    page.context.set_offline(False)
    wait_until_sent(page)
    assert Hole.objects.filter(game=game).count() == 1
    assert scores_of(game) == {"Ann": 0, "Bob": 7}
    assert HoleEntry.objects.get(hole__game=game, seat__name="Ann").cards == [["5", "6", "K"]] * 2
    assert IdempotentRequest.objects.filter(game=game, key=key).count() == 1

    # Hole 1 is on the server; corrected with no connection, it is sent as a correction (PUT).
    page.context.set_offline(True)
    page.get_by_role("link", name="Hole 1: correct or delete").click()
    page.wait_for_selector("[data-offline-hole-form]")
    assert page.input_value("#id-p0-1-3") == "K" and page.input_value("#id_p1-total") == "7"
    page.fill("#id_p1-total", "3")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_selector("[data-offline-board]")
    assert board_scores(page, ["Ann", "Bob"]) == {"Ann": ([0], 0), "Bob": ([3], 3)}
    assert page.locator("[data-hole-state=waiting]").count() == 1
    page.context.set_offline(False)
    wait_until_sent(page)
    assert Hole.objects.filter(game=game).count() == 1
    assert scores_of(game) == {"Ann": 0, "Bob": 3}


# The browser believes it is online (hall Wi-Fi without internet): the page posts the form as usual,
# the request fails, and the service worker queues the form instead of the browser's error page.
BELIEVES_ONLINE = "Object.defineProperty(Navigator.prototype, 'onLine', { get: () => true });"


def test_a_hole_form_whose_post_fails_is_queued_by_the_service_worker(phone) -> None:
    page = phone
    page.context.add_init_script(BELIEVES_ONLINE)
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page.goto(f"/games/e/{game.edit_token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{game.edit_token}/holes/new/")
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    key = page.input_value("input[name=idempotency_key]")

    page.context.set_offline(True)
    assert page.evaluate("navigator.onLine") is True
    page.fill("#id_p0-total", "4")
    page.fill("#id_p1-total", "-2")
    page.get_by_role("button", name="Save hole 1").click()
    page.wait_for_selector("[data-offline-board]")
    assert "ERR_INTERNET_DISCONNECTED" not in page.content()
    assert board_scores(page, ["Ann", "Bob"]) == {"Ann": ([4], 4), "Bob": ([-2], -2)}
    assert page.locator("[data-hole-state=waiting]").count() == 1
    assert not Hole.objects.filter(game=game).exists()

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until_sent(page)
    assert scores_of(game) == {"Ann": 4, "Bob": -2}
    assert IdempotentRequest.objects.filter(game=game, key=key).count() == 1
