"""Save with no connection when the phone cannot store the hole (issue 32, item 7): the scoreboard is
drawn from memory as soon as Save is pressed while the hole is stored (the budget is 100 ms on a
slow phone), so a failed store must not end looking saved. Here the store really fails: the game's
record is gone from the phone's storage (as when another tab forgot the game), so GolfStore refuses
the write. The hole page comes back as the scorer left it, with the reason; nothing is queued; once
the record is back, Save stores the same entry.
"""

from __future__ import annotations

import pytest

from tests.browser.offline_helpers import board_scores, go_offline_after_first_visit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob"]
STORE = "idbKeyval.createStore('golfclub-offline', 'kv')"
TAKE_THE_GAME = f"""async (id) => {{
  const store = {STORE};
  const record = await idbKeyval.get('game:' + id, store);
  await idbKeyval.del('game:' + id, store);
  return record;
}}"""
PUT_THE_GAME_BACK = f"async (record) => {{ await idbKeyval.set('game:' + record.id, record, {STORE}); }}"
HOLE_WRITES = f"""async () => {{
  const store = {STORE};
  const keys = (await idbKeyval.keys(store)).filter((k) => String(k).startsWith('write:'));
  const writes = await idbKeyval.getMany(keys, store);
  return writes.filter((w) => w.kind === 'hole').map((w) => w.holeNumber);
}}"""


def start_game_offline(page) -> str:
    """The start wizard with no connection; answers the game's local id."""
    page.goto("/games/new/")
    page.select_option("#id_ruleset", "official")
    for seat, name in enumerate(PLAYERS, start=1):
        page.fill(f"#player-{seat}", name)
    page.get_by_role("button", name="Next: first dealer").click()
    page.get_by_label("1. Ann").check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("[data-offline-board]")
    return page.url.split("#/g/")[1].split("/")[0]


def test_a_hole_the_phone_could_not_store_is_not_shown_saved_and_the_entry_stays(phone) -> None:
    page = phone
    go_offline_after_first_visit(page)
    game_id = start_game_offline(page)
    page.get_by_role("link", name="Score hole 1").click()
    page.wait_for_selector("[data-offline-hole-form]")
    page.fill("#id_p0-total", "5")
    page.fill("#id_p1-total", "-2")
    hole_page = page.url

    record = page.evaluate(TAKE_THE_GAME, game_id)
    page.get_by_role("button", name="Save hole 1").click()
    alert = page.locator("[data-offline-not-kept]")
    alert.wait_for()
    assert alert.get_attribute("role") == "alert"
    assert "could not store the hole, so it is not saved" in alert.inner_text()
    assert page.url == hole_page
    assert page.locator("[data-offline-board]").count() == 0
    assert page.input_value("#id_p0-total") == "5" and page.input_value("#id_p1-total") == "-2"
    assert page.evaluate(HOLE_WRITES) == []

    # The record back on the phone: the same entry, saved again, is stored and shown.
    page.evaluate(PUT_THE_GAME_BACK, record)
    page.get_by_role("button", name="Save hole 1").click()
    page.wait_for_selector("[data-offline-board]")
    assert board_scores(page, PLAYERS) == {"Ann": ([5], 5), "Bob": ([-2], -2)}
    assert page.locator("[data-hole-state=waiting]").count() == 1
    page.wait_for_function(f"({HOLE_WRITES})().then((numbers) => numbers.length === 1)")
    assert page.evaluate(HOLE_WRITES) == [1]
    page.reload()
    page.wait_for_selector("[data-offline-board]")
    assert board_scores(page, PLAYERS) == {"Ann": ([5], 5), "Bob": ([-2], -2)}
