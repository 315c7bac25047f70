"""Playing the offline app as a player would, for the timing benchmarks (issue 32, item 7): the
phone's first visit, "Start a live game" with no connection, a hole keyed in (cards on the keypad,
typed totals) and Save pressed with the timing hook armed (bench/offline_common.py, PAGE_HOOK).

Used by bench/offline_save.py and bench/offline_sync.py.
"""

from __future__ import annotations

import time
from typing import Any

from bench.offline_common import unthrottle

PLAYERS = ["Ann", "Bob", "Cy"]
# The family game of tests/browser/test_offline_family_game.py: per hole, each player's cards (keyed
# in on the keypad) or typed total (official rules, 3 players: legal hands from two packs).
GRID_A = [["5", "6", "K"], ["5", "6", "K"]]
GRID_B = [["A", "2", "3"], ["4", "7", "8"]]
HOLES: list[dict[str, Any]] = [
    {"Ann": GRID_A, "Bob": 3, "Cy": GRID_B},
    {"Ann": 5, "Bob": 0, "Cy": 12},
    {"Ann": 3, "Bob": 4, "Cy": 9},
    {"Ann": 8, "Bob": GRID_A, "Cy": 6},
    {"Ann": 2, "Bob": 6, "Cy": 7},
    {"Ann": -2, "Bob": 3, "Cy": 5},
    {"Ann": 4, "Bob": 2, "Cy": GRID_B},
    {"Ann": 6, "Bob": 1, "Cy": 8},
    {"Ann": 1, "Bob": 11, "Cy": 10},
]


def install_the_app(page: Any) -> None:
    """The phone's one visit with a connection: until the service worker controls the page."""
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(200):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    raise SystemExit("the service worker never took control of the page")


def start_game_offline(page: Any) -> None:
    """The offline start wizard: official rules, three players, Bob deals first."""
    unthrottle(page)
    page.goto("/games/new/")
    page.wait_for_selector("[data-offline-start]")
    page.select_option("#id_ruleset", "official")
    for seat, name in enumerate(PLAYERS, start=1):
        page.fill(f"#player-{seat}", name)
    page.get_by_role("button", name="Next: first dealer").click()
    page.get_by_label("2. Bob").check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("[data-offline-board]")


def fill_hole(page: Any, entries: dict[str, Any], typed_only: bool = False) -> None:
    """Enter a hole on the open hole form: grids on the keypad, typed totals in their fields."""
    for seat, name in enumerate(PLAYERS):
        value = entries[name]
        if isinstance(value, list) and not typed_only:
            page.click(f"#id-p{seat}-1-1")
            for row in value:
                for token in row:
                    page.click(f'[data-card-keypad] [data-rank="{token}"]')
        else:
            page.fill(f"#id_p{seat}-total", str(value if isinstance(value, int) else 0))


def tap(page: Any, locator: Any) -> None:
    """A press in the middle of `locator` once nothing covers it there (a sticky keypad may),
    sent as raw input (CDP mouse events: a touchscreen tap goes through Chromium's gesture
    detection, which on this loaded machine now and then made no click of it). Not Playwright's
    locator.click(): that installs listeners in the page to check what the pointer hits, which
    ran about 6 ms (at 4x) inside the measured time."""
    hits = "(el, p) => el.contains(document.elementFromPoint(p.x, p.y))"
    for _ in range(20):
        locator.evaluate("el => el.scrollIntoView({block: 'center'})")
        box = locator.bounding_box()
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        if locator.evaluate(hits, point):
            page.mouse.click(point["x"], point["y"])
            return
        page.wait_for_timeout(100)
    raise SystemExit("the Save button stays covered: cannot tap it")


def typed_hole(number: int) -> dict[str, int]:
    """A hole of typed totals only (the sync benchmark: entering is not what it times)."""
    return {name: (number + seat) % 7 for seat, name in enumerate(PLAYERS)}


def score_hole_offline(page: Any, number: int, entries: dict[str, Any], typed_only: bool = False) -> None:
    """From the offline scoreboard: open hole `number`, enter it, arm the hook, press Save."""
    page.get_by_role("link", name=f"Score hole {number}").click()
    page.wait_for_selector("[data-offline-hole-form]")
    fill_hole(page, entries, typed_only)
    tap_save(page, page.get_by_role("button", name=f"Save hole {number}"), number)


TAKEN = "() => Boolean(window.__golfBench.result || (window.__golfBench.target || {}).clickAt)"


def tap_save(page: Any, save: Any, number: int) -> int:
    """Arm the hook for hole `number` and tap Save until the page took the tap (its click seen);
    answers how many taps it took. Should a tap be lost (no click follows
    it): it is tapped again, and only the tap taken is timed."""
    from playwright.sync_api import Error

    for attempt in range(1, 4):
        page.evaluate("n => window.__golfBench.arm(n)", number)
        tap(page, save)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if page.evaluate(TAKEN):
                    return attempt
            except Error:  # the page is being replaced: the form was posted
                return attempt
            page.wait_for_timeout(20)
        print(f"(hole {number}: the tap on Save was lost, tapped again)")
    raise SystemExit(f"hole {number}: three taps on Save, none taken")


def saved_timing(page: Any, number: int) -> dict[str, float]:
    """Wait until hole `number` is shown; its times in ms from the Save tap (see PAGE_HOOK)."""
    shown = "n => window.__golfBench.result && window.__golfBench.result.hole === n"
    page.wait_for_function(shown, arg=number)
    result = page.evaluate("window.__golfBench.result")
    click = result["clickAt"]
    return {
        "dom": result["domAt"] - click,
        "frame": result["frameAt"] - click,
        "painted": result["paintedAt"] - click,
        "click_at": click,
    }


def app_measures(page: Any) -> dict[str, float]:
    """The page's own last measures of a save (static/js/offline/app-entry.js), in ms."""
    return page.evaluate(
        """() => {
          const last = (name) => {
            const all = performance.getEntriesByName(name);
            return all.length ? all[all.length - 1].duration : null;
          };
          const marks = performance.getEntriesByName("golf:save");
          const at = marks.length ? performance.timeOrigin + marks[marks.length - 1].startTime : null;
          return { save_at: at, stored: last("golf:save-to-stored"), board: last("golf:save-to-board") };
        }"""
    )
