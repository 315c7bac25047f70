"""A table scores live games on one phone (Chromium at 390x844): start, holes, a correction, match end.

The screenshots these tests take illustrate docs/scoring-a-game.md.
"""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Game
from tests.conftest import PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Four grids whose scores are easy to check under the official preset (2 = -2, J/Q = 10, K = 0,
# a pair in a column scores 0). Together they hold at most two cards of a rank: one pack is enough.
GRIDS = [
    [["5", "6", "K"], ["5", "6", "K"]],  # every column a pair: 0
    [["A", "2", "3"], ["4", "7", "8"]],  # 1 - 2 + 3 + 4 + 7 + 8 = 21
    [["9", "10", "J"], ["Q", "A", "2"]],  # 9 + 10 + 10 + 10 + 1 - 2 = 38
    [["3", "4", "7"], ["8", "9", "10"]],  # 41
]
SCORES = [0, 21, 38, 41]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def grid_for(player: int, hole: int) -> int:
    """Which of GRIDS a player holds at a hole: they rotate round the table."""
    return (player + hole) % 4


def fill_grid(page, player: int, grid: list[list[str]]) -> None:
    """Type the tokens into a player's cells (fast path for most holes)."""
    for r, row in enumerate(grid, start=1):
        for c, token in enumerate(row, start=1):
            page.fill(f"input[name='p{player}-{r}-{c}']", token)


def tap_grid(page, player: int, grid: list[list[str]]) -> None:
    """Enter a grid the way a player does: tap the first cell, then each card on the keypad."""
    page.click(f"input[name='p{player}-1-1']")
    for row in grid:
        for token in row:
            page.click(f"[data-card-keypad] [data-rank='{token}']")


PREVIEW_DELAY_MS = 600  # templates/scoring/game_hole.html: "input changed delay:600ms"


def wait_for_preview(page) -> None:
    """Wait until the live preview has scored every player and no preview request is in flight."""
    page.wait_for_function(
        "() => { const box = document.querySelector('#preview-box');"
        " return box && !box.classList.contains('htmx-request') && box.querySelector('table')"
        " && !box.textContent.includes('not entered'); }"
    )


def start_game(page) -> str:
    """Start a four-player official game from the home page; return the scorer's URL."""
    page.goto("/")
    page.get_by_role("link", name="Start a game").first.click()
    page.wait_for_url(re.compile(r"/games/new/"))
    for index, name in enumerate(PLAYERS, start=1):
        page.fill(f"#player-{index}", name)
    screenshot(page, "game-start-players")
    page.get_by_role("button", name="Next: first dealer").click()
    page.get_by_role("heading", name="Who deals first?").wait_for()
    page.get_by_label("2. Bob").check()
    screenshot(page, "game-start-dealer")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/e/[\w-]+/$"))
    return page.url


def test_it_plays_a_nine_hole_four_player_game_with_a_typed_total_and_a_correction(phone):
    page = phone
    # The preview waits 600 ms after the last keystroke; the test moves the page's clock past it
    # instead of waiting (eight holes: about 5 s of the test's time).
    page.clock.install()
    game_url = start_game(page)
    page.get_by_text("Bob deals").first.wait_for()
    assert page.get_by_text("Cy plays first").first.is_visible()
    screenshot(page, "game-new-scoreboard")

    # Hole 1: Ann's grid by tapping the keypad, Bob's as a typed total, the others typed into cells.
    page.get_by_role("link", name="Score hole 1").click()
    page.wait_for_url(re.compile(r"/holes/new/$"))
    tap_grid(page, 0, GRIDS[grid_for(0, 1)])
    assert page.input_value("input[name='p0-2-3']") == "8"
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "game-hole-entry")
    page.fill("input[name='p1-total']", "30")
    fill_grid(page, 2, GRIDS[grid_for(2, 1)])
    fill_grid(page, 3, GRIDS[grid_for(3, 1)])
    page.get_by_label("Dee", exact=True).check()
    page.fill("#scorer", "Ann")  # named in the history from now on
    preview = page.locator("#preview-box")
    preview.get_by_role("cell", name="41").first.wait_for()
    assert preview.locator("tr", has_text="Ann").locator("td").first.inner_text().strip() == "21"
    assert preview.locator("tr", has_text="Bob").locator("td").first.inner_text().strip() == "30"
    preview.scroll_into_view_if_needed()
    screenshot(page, "game-hole-preview")
    page.get_by_role("button", name="Save hole 1").click()
    page.wait_for_url(re.compile(r"/games/e/[\w-]+/(#news)?$"))
    assert page.get_by_text("Hole 1 saved: Ann 21, Bob 30, Cy 41, Dee 0.").is_visible()

    # Holes 2 to 9: cards typed into the cells.
    for hole in range(2, 10):
        page.get_by_role("link", name=f"Score hole {hole}").click()
        page.wait_for_url(re.compile(r"/holes/new/$"))
        for player in range(4):
            fill_grid(page, player, GRIDS[grid_for(player, hole)])
        page.clock.fast_forward(PREVIEW_DELAY_MS)
        wait_for_preview(page)
        page.get_by_role("button", name=f"Save hole {hole}").click()
        page.get_by_text(f"Hole {hole} saved").wait_for()
    screenshot(page, "game-finished")

    # A correction: hole 3, Ann's 10 (row 2, column 3) was really a king.
    page.get_by_role("link", name="Hole 3: correct or delete").click()
    page.wait_for_url(re.compile(r"/holes/3/$"))
    assert page.input_value("input[name='p0-2-3']") == "10"
    page.fill("input[name='p0-2-3']", "K")
    screenshot(page, "game-hole-correction")
    page.get_by_role("button", name="Save the correction").click()
    page.get_by_text("Hole 3 corrected.").wait_for()

    # Totals: 2 full rotations (100 each) plus hole 9's grid, Bob's typed 30 instead of 38, Ann -10.
    expected = {"Ann": 200 + 21 - 10, "Bob": 200 + 38 - 38 + 30, "Cy": 200 + 41, "Dee": 200 + 0}
    for name, total in expected.items():
        row = page.locator("table.scorecard tbody tr", has_text=name).first
        assert row.locator("td.total").inner_text().strip() == str(total), name
    outcome = page.locator(".outcome")
    assert "Dee wins!" in outcome.inner_text()
    history = page.locator(".history").first
    assert "Hole 3 edited" in history.inner_text()
    assert "by Ann," in history.inner_text()
    assert "Ann: before 41 (3 4 7 / 8 9 10), after 31 (3 4 7 / 8 9 K)" in history.inner_text()
    page.locator(".outcome").scroll_into_view_if_needed()
    screenshot(page, "game-winner")
    page.locator("#history-title").scroll_into_view_if_needed()
    screenshot(page, "game-history")

    # The read-only link shows the same scoreboard, refuses to score, and the share page has QR codes.
    game = Game.objects.get(edit_token=game_url.rstrip("/").rsplit("/", 1)[-1])
    page.goto(f"/games/e/{game.edit_token}/share/")
    assert page.locator("svg.qr").count() == 2
    screenshot(page, "game-share")
    page.goto(f"/games/v/{game.view_token}/")
    assert "Dee wins!" in page.locator(".outcome").inner_text()
    assert page.get_by_role("link", name="Score hole").count() == 0


def test_it_refreshes_the_read_only_scoreboard_within_five_seconds(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    page.clock.install()  # the 3 s poll runs on a clock the test moves forward
    page.goto(f"/games/v/{game.view_token}/")
    assert page.locator("table.scorecard tbody tr", has_text="Ann").locator("td.total").inner_text() == "0"
    services.hole_record(game, entries={"Ann": 7, "Bob": 12}, ender=None, actor="test")
    page.clock.run_for(5000)
    page.locator("table.scorecard tbody tr", has_text="Ann").locator("td.total", has_text="7").wait_for(
        timeout=2000
    )
    screenshot(page, "game-watch-link")


def test_it_settles_a_tie_by_countback_and_shows_the_step(phone):
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official")
    # Ann and Bob tie on 45; Ann's best hole (0) beats Bob's best (4): countback picks Ann.
    ann = [0, 9, 5, 5, 5, 5, 5, 6]
    bob = [4, 5, 5, 5, 5, 5, 5, 6]
    for a, b in zip(ann, bob, strict=True):
        services.hole_record(game, entries={"Ann": a, "Bob": b, "Cy": 9}, ender=None, actor="test")
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    page.get_by_role("link", name="Score hole 9").click()
    page.fill("input[name='p0-total']", "5")
    page.fill("input[name='p1-total']", "5")
    page.fill("input[name='p2-total']", "9")
    page.get_by_role("button", name="Save hole 9").click()
    outcome = page.locator(".outcome")
    outcome.wait_for()
    text = outcome.inner_text()
    assert "Ann wins!" in text
    assert "Countback" in text and "decided" in text
    outcome.scroll_into_view_if_needed()
    screenshot(page, "game-countback")


def test_it_plays_a_sudden_death_playoff_for_the_tied_players_only(phone):
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official")
    for hole in range(9):
        services.hole_record(game, entries={"Ann": 5 + hole % 2, "Bob": 5 + hole % 2, "Cy": 9}, ender=None)
    page = phone
    page.goto(f"/games/e/{game.edit_token}/")
    assert "Tie for first: Ann & Bob" in page.locator(".outcome").inner_text()
    screenshot(page, "game-sudden-death")
    page.get_by_role("link", name="Score playoff hole 1").click()
    page.wait_for_url(re.compile(r"/playoff/new/$"))
    assert page.locator("input[name='p0-total']").count() == 1
    assert page.locator("fieldset.player-entry legend", has_text="Cy").count() == 0
    page.fill("input[name='p0-total']", "3")
    page.get_by_role("button", name="Make Ann's total negative or positive").click()  # no minus on the pad
    assert page.input_value("input[name='p0-total']") == "-3"
    page.fill("input[name='p1-total']", "7")
    page.get_by_role("button", name="Save playoff hole 1").click()
    page.locator(".outcome", has_text="Ann wins!").wait_for()
    playoff = page.locator(".playoff")
    assert "Playoff holes" in playoff.inner_text() and "P1" in playoff.inner_text()
    assert playoff.locator("tr", has_text="Ann").locator("td").inner_text() == "\u22123"
    # Playoff holes never change the match totals.
    assert (
        page.locator("table.scorecard tbody tr", has_text="Ann").first.locator("td.total").inner_text()
        == "49"
    )
    playoff.scroll_into_view_if_needed()
    screenshot(page, "game-playoff")


def test_it_keeps_a_half_entered_hole_across_a_reload_and_saves_it_once_after_back(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    page.goto(f"/games/e/{game.edit_token}/holes/new/")
    fill_grid(page, 0, GRIDS[1])
    page.reload()
    assert page.input_value("input[name='p0-2-3']") == "8"
    assert page.get_by_text("The cards entered before the page was reloaded are back.").is_visible()
    page.fill("input[name='p1-total']", "12")
    page.get_by_role("button", name="Save hole 1").click()
    page.get_by_text("Hole 1 saved: Ann 21, Bob 12.").wait_for()
    # Back: the page asks the server again and offers hole 2, empty; hole 1 is recorded once.
    page.go_back()
    page.wait_for_url(re.compile(r"/holes/new/$"))
    assert page.locator("h1").inner_text().startswith("Hole 2")
    assert page.input_value("input[name='p1-total']") == "" and page.input_value("input[name='p0-1-1']") == ""
    assert game.holes.count() == 1


# A stand-in for the Wake Lock API and the page's visibility, so the test can hide and show the page
# the way a phone does when it is pocketed and taken out again.
FAKE_PHONE = """
window.__visible = "visible";
Object.defineProperty(document, "visibilityState", { get: () => window.__visible });
window.__locks = [];
Object.defineProperty(navigator, "wakeLock", { value: {
  request(type) {
    const lock = new EventTarget();
    lock.type = type; lock.released = false;
    lock.release = () => {
      lock.released = true;
      lock.dispatchEvent(new Event("release"));
      return Promise.resolve();
    };
    window.__locks.push(lock);
    return Promise.resolve(lock);
  },
} });
window.__setVisible = (state) => {
  window.__visible = state;
  if (state === "hidden") window.__locks.forEach((lock) => lock.release());  // browsers drop the lock
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


def test_it_keeps_the_screen_awake_and_asks_again_when_the_page_comes_back(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    page.add_init_script(FAKE_PHONE)
    page.goto(f"/games/e/{game.edit_token}/holes/new/")
    page.wait_for_function("window.__locks.length === 1")
    assert page.evaluate("window.__locks[0].type") == "screen"
    assert page.get_by_text("Screen stays on while you score.").is_visible()
    page.evaluate("window.__setVisible('hidden')")
    page.evaluate("window.__setVisible('visible')")
    page.wait_for_function("window.__locks.length === 2 && !window.__locks[1].released")


def test_it_polls_only_while_visible_and_gets_304_while_nothing_changes(phone):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    page = phone
    page.add_init_script(FAKE_PHONE)
    statuses: list[int] = []
    page.on("response", lambda r: "/scoreboard/" in r.url and statuses.append(r.status))
    # The page polls every 3 s on a clock the test moves forward (no 3.5 s waits in real time).
    page.clock.install()
    page.goto(f"/games/v/{game.view_token}/")
    with page.expect_response(lambda r: "/scoreboard/" in r.url):
        page.clock.run_for(3500)
    assert statuses and set(statuses) == {304}, statuses
    page.evaluate("window.__setVisible('hidden')")
    seen = len(statuses)
    page.clock.run_for(3500)
    page.wait_for_timeout(300)  # time for a request, had one been sent
    assert len(statuses) == seen  # no request while the page is hidden
    services.hole_record(game, entries={"Ann": 4, "Bob": 9}, ender=None)
    page.evaluate("window.__setVisible('visible')")  # catches up at once
    page.locator("table.scorecard tbody tr", has_text="Bob").locator("td.total", has_text="9").wait_for(
        timeout=2000
    )
    assert 200 in statuses[seen:]


def test_it_starts_and_scores_a_game_with_javascript_off(chromium_browser, live_server):
    context = chromium_browser.new_context(
        viewport=PHONE, java_script_enabled=False, base_url=live_server.url, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto("/games/new/")
        page.fill("#player-1", "Ann")
        page.fill("#player-2", "Bob")
        page.fill("#player-3", "Cy")
        page.fill("#player-4", "Dee")
        page.get_by_role("button", name="+ Add a player").click()  # a plain submit without JavaScript
        page.fill("#player-5", "Eve")
        page.get_by_role("button", name="Next: first dealer").click()
        page.get_by_label("5. Eve").check()
        page.get_by_role("button", name="Start the game").click()
        page.get_by_text("Eve deals").first.wait_for()
        page.get_by_role("link", name="Score hole 1").click()
        assert page.locator("[data-card-keypad]").is_hidden()
        fill_grid(page, 0, GRIDS[1])
        for player, total in ((1, "5"), (2, "6"), (3, "7"), (4, "8")):
            page.fill(f"input[name='p{player}-total']", total)
        page.get_by_role("button", name="Save hole 1").click()
        assert page.get_by_text("Hole 1 saved: Ann 21, Bob 5, Cy 6, Dee 7, Eve 8.").is_visible()
        page.get_by_role("link", name=re.compile("Undo: Hole 1 recorded")).click()  # asks first
        page.get_by_role("button", name="Yes, undo and delete hole 1").click()
        assert page.get_by_text("Undone: recorded hole 1.").is_visible()
    finally:
        context.close()


def test_it_adds_seats_and_reuses_earlier_names_on_the_start_screen(phone):
    earlier = services.create_game(players=["Mia", "Noor", "Olu"], ruleset="official")
    page = phone
    page.goto(f"/games/e/{earlier.edit_token}/")  # this phone played with them before
    page.goto("/games/new/")
    page.fill("#player-1", "Pat")
    page.get_by_role("button", name="Noor").click()
    page.get_by_role("button", name="Mia").click()
    assert [page.input_value(f"#player-{n}") for n in (1, 2, 3)] == ["Pat", "Noor", "Mia"]
    page.get_by_role("button", name="+ Add a player").click()
    assert page.locator("#player-5").is_visible() and page.url.endswith("/games/new/")  # no reload
    page.select_option("#id_ruleset", "official-quick")
    page.get_by_role("button", name="Next: first dealer").click()
    page.get_by_role("heading", name="Who deals first?").wait_for()
    assert page.get_by_text("official-quick: 2\u00d72 grid, 6 holes").is_visible()
    page.get_by_role("link", name="← Change rules or players").click()  # back keeps every answer
    assert page.input_value("#player-3") == "Mia" and page.input_value("#id_ruleset") == "official-quick"
