"""The turn timer (issue 33, item 5) in Chromium at 390x844: the player left of the dealer starts,
a tap passes the turn clockwise, a reload mid-turn keeps the clock going, the times reach the server
when the hole is scored and show in the game's summary; with no connection (the offline shell at the
game's own address) the timer keeps timing and the hole and its times are queued, then reach the
server once when the connection returns."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game, Hole, TurnTime
from tests.browser.offline_helpers import save_hole, wait_for_the_service_worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob", "Cy"]  # Bob deals hole 1: Cy, on his left, plays first, then Ann, then Bob


PENDING = "() => GolfSync.pending().then(w => JSON.stringify(w.map(x => [x.kind, x.state, x.lastError])))"


SENT_TIMES = """GolfStore.gameByToken("TOKEN").then(g => g.sent.filter(w => w.kind === "turn-times")
  .map(w => ({key: w.key, replayed: Boolean(w.replayed), outcome: w.outcome})))"""


def new_game() -> Game:
    return services.create_game(players=PLAYERS, ruleset="official", first_dealer=1)


def times_of(game: Game) -> dict[int, tuple[int, int]]:
    """Seat -> (milliseconds, turns) of hole 1 on the server."""
    rows = TurnTime.objects.filter(game=game, hole_number=1, is_playoff=False)
    return {row.seat: (row.milliseconds, row.turns) for row in rows}


def wait_for(check, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("never happened")


def open_timer(page) -> None:
    timer = page.locator("[data-turn-timer]")
    expect(timer).to_be_visible()
    if timer.get_attribute("open") is None:
        timer.locator("summary").click()
    expect(page.locator("[data-tt-pass]")).to_be_visible()


def clock_seconds(page, selector: str) -> int:
    minutes, seconds = page.locator(selector).inner_text().strip().split(":")
    return int(minutes) * 60 + int(seconds)


def pass_button(page):
    return page.locator("[data-tt-pass]")


def test_turns_pass_clockwise_a_reload_keeps_the_clock_and_the_times_reach_the_summary(phone) -> None:
    page = phone
    game = new_game()
    page.goto(f"/games/e/{game.edit_token}/")
    open_timer(page)
    now = page.locator("[data-tt-now]")
    expect(now).to_have_text("Cy starts the hole")
    expect(pass_button(page)).to_contain_text("Cy")
    pass_button(page).focus()
    page.keyboard.press("Enter")  # a real button: the keyboard starts the clock too
    expect(now).to_have_text("Cy's turn")
    page.wait_for_timeout(1200)
    pass_button(page).click()
    expect(now).to_have_text("Ann's turn")
    expect(page.locator('[data-tt-row="0"]')).to_have_attribute("aria-current", "true")
    page.wait_for_timeout(1200)

    page.reload()  # mid-turn: Ann's clock goes on from the stored moment her turn began
    open_timer(page)
    expect(page.locator("[data-tt-now]")).to_have_text("Ann's turn")
    expect(page.locator("[data-tt-clock]")).not_to_have_text("0:00")
    assert clock_seconds(page, "[data-tt-clock]") >= 1
    expect(page.locator('[data-tt-row="2"] [data-tt-turns]')).to_have_text("1")

    page.locator("[data-tt-pause]").click()  # pause and resume
    expect(page.locator("[data-tt-now]")).to_have_text("Paused: Ann's turn")
    page.locator("[data-tt-pause]").click()
    pass_button(page).click()  # Bob's turn
    expect(page.locator("[data-tt-now]")).to_have_text("Bob's turn")

    page.get_by_role("link", name="Score hole 1").click()  # the hole ends: Bob's turn is closed
    for seat, total in enumerate((3, 5, 9)):
        page.fill(f"input[name='p{seat}-total']", str(total))
    page.get_by_role("button", name="Save hole 1").click()
    page.wait_for_url(re.compile(rf"/games/e/{game.edit_token}/(#.*)?$"))

    stored = wait_for(lambda: (t := times_of(game)) and len(t) == 3 and t)
    assert stored[2][0] >= 1000 and stored[2][1] == 1  # Cy
    assert stored[0][0] >= 1200 and stored[0][1] == 1  # Ann, through the reload
    assert stored[1][1] == 1  # Bob
    # Hole 2: Cy deals, Ann starts it; the clock waits for a tap.
    open_timer(page)
    expect(page.locator("[data-tt-now]")).to_have_text("Ann starts the hole")
    page.reload()
    summary = page.locator(".turn-times")
    expect(summary).to_be_visible()
    expect(summary.locator("tr", has=page.locator("th", has_text="Ann"))).to_contain_text("0:0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_with_no_connection_the_timer_keeps_timing_and_its_times_reach_the_server_once(phone) -> None:
    page = phone
    game = new_game()
    page.goto("/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{game.edit_token}/")  # kept on the phone for later
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.context.set_offline(True)
    page.reload()  # the offline shell draws the game from the phone's copy
    page.wait_for_selector("[data-offline-board]")
    open_timer(page)
    expect(page.locator("[data-tt-now]")).to_have_text("Cy starts the hole")
    pass_button(page).click()
    page.wait_for_timeout(1100)
    pass_button(page).click()
    expect(page.locator("[data-tt-now]")).to_have_text("Ann's turn")
    page.wait_for_timeout(1100)
    page.reload()  # offline and reloaded: still Ann's turn, her clock running
    page.wait_for_selector("[data-offline-board]")
    open_timer(page)
    expect(page.locator("[data-tt-now]")).to_have_text("Ann's turn")
    assert clock_seconds(page, "[data-tt-clock]") >= 1

    page.get_by_role("link", name="Score hole 1").click()
    page.wait_for_selector("[data-offline-hole-form]")
    for seat, total in enumerate((3, 5, 9)):
        page.fill(f"#id_p{seat}-total", str(total))
    save_hole(page, "Save hole 1")
    assert not TurnTime.objects.filter(game=game).exists()
    phone_times = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('golf-turn-timer:{game.edit_token}')).holes.h1"
    )

    page.context.set_offline(False)
    try:
        stored = wait_for(lambda: (t := times_of(game)) and len(t) == 2 and t)
    except AssertionError:
        print("DEBUG", page.url, page.evaluate(PENDING))
        raise
    wait_for(lambda: Hole.objects.filter(game=game).count() == 1)
    assert stored[2] == (phone_times["ms"]["2"], 1)  # Cy, exactly the phone's figure
    assert stored[0] == (phone_times["ms"]["0"], 1)  # Ann, through the offline reload
    assert stored[0][0] >= 1100  # her turn ran on through the reload
    # The phone's queue: the hole's times were one write, acknowledged once, nothing left waiting.
    wait_for(lambda: page.evaluate(PENDING) == "[]")
    acknowledged = page.evaluate(SENT_TIMES.replace("TOKEN", game.edit_token))
    assert len(acknowledged) == 1 and acknowledged[0]["replayed"] is False, acknowledged
    page.goto(f"/games/e/{game.edit_token}/")
    expect(page.locator(".turn-times")).to_contain_text("Ann")


VIBRATE_SPY = "navigator.vibrate = (pattern) => { window.__vibrated = pattern; return true; };"


def test_a_turn_over_the_limit_warns_and_vibrates_and_the_limit_is_kept(phone) -> None:
    page = phone
    page.context.add_init_script(VIBRATE_SPY)
    game = new_game()
    page.goto(f"/games/e/{game.edit_token}/")
    open_timer(page)
    page.get_by_label("Limit per turn (seconds)").fill("1")
    page.get_by_label("Limit per turn (seconds)").press("Tab")  # the change is kept
    warning = page.locator("[data-tt-warning]")
    pass_button(page).click()
    expect(warning).to_be_hidden()
    expect(warning).to_have_text("Over the limit per turn (1 s)", timeout=5000)
    expect(warning).to_be_visible()
    assert page.evaluate("window.__vibrated") == [200, 100, 200]
    pass_button(page).click()  # the next player's turn: no warning until the limit again
    expect(page.locator("[data-tt-now]")).to_have_text("Ann's turn")
    page.reload()
    open_timer(page)
    assert page.get_by_label("Limit per turn (seconds)").input_value() == "1"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
