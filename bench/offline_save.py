"""Save pressed offline to the hole shown on the scoreboard (issue 32, item 7): at most 100 ms on a
phone-sized Chromium with 4x CPU slowdown.

    .venv/bin/python bench/offline_save.py [--games 2] [--rate 4] [--budget-ms 100] [--scale 1]

What it does, all on this machine over loopback:
1. a fresh PostgreSQL database (golfclub_bench), the app under gunicorn (2 workers, production
   settings: bench/offline_settings.py), Chromium (the browser tests' headless shell) as a phone:
   390x844, touch, mobile;
2. the phone visits the app once with a connection (the service worker installs), then goes offline
   (Playwright's `context.set_offline(True)`);
3. per game: "Start a live game" with no connection (official rules, Ann, Bob, Cy), then holes 1 to
   9, each opened from the scoreboard and entered as a player would (cards on the keypad for some
   players, typed totals for others: the family game of tests/browser/test_offline_family_game.py),
   and Save pressed. Each game is played twice in a row: with Chromium's CPU slowed `--rate` times
   (CDP `Emulation.setCPUThrottlingRate`, set before the game's first tap), then at full speed (the
   baseline: same code, same machine, same minute);
4. the same 9 holes with the connection, through the server's own hole form (POST, redirect, the
   server's scoreboard page), at both speeds: what a Save costs online, for comparison.

What is timed for each Save (bench/offline_common.py, PAGE_HOOK): from the tap (the click event's
timestamp) to the end of the first frame rendered with the hole's column in the scorecard
("painted"; also: in the document, "dom"). The page's own measure, `golf:save-to-board` (from its
submit handler to the scoreboard written; static/js/offline/app-entry.js), is printed beside it.

Verdict: the budget holds when the slowest Save of holes 2 to 9 of every throttled game is within
it ("max"; at least 8 holes a game, 16 with the default 2 games). Hole 1 of each game, the first
Save after the page was loaded (its code not yet optimised by V8), is printed on its own line and
counted in the median and p90, not in the verdict. The machine is shared: when the max is over the
budget, the throttled games are played once more and that second set decides (both are printed),
so one stall of the machine does not fail a run; a real regression fails both. Exit status 1 when
over budget. Figures in docs/performance.md ("Offline app (issue 32)").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.offline_common import (
    DB_NAME,
    calibrate,
    chromium,
    drop_database,
    environment,
    machine,
    phone,
    prepare_database,
    served,
    spread,
    throttle,
    unthrottle,
)
from bench.offline_play import (
    HOLES,
    PLAYERS,
    app_measures,
    fill_hole,
    install_the_app,
    saved_timing,
    score_hole_offline,
    start_game_offline,
    tap_save,
)

BUDGET_MS = 100.0


def play_offline(page: Any, rate: float, holes: int) -> list[dict[str, float]]:
    """One game started and scored with no connection; each Save's timings."""
    start_game_offline(page)
    loop = throttle(page, rate)
    timings = []
    for number in range(1, holes + 1):
        score_hole_offline(page, number, HOLES[number - 1])
        timing = saved_timing(page, number)
        own = app_measures(page)
        # The page's marks, from the tap: its submit handler began, the write stored, the board drawn.
        timing["app_submit"] = own["save_at"] - timing["click_at"] if own["save_at"] else None
        timing["app_stored"] = own["stored"]
        timing["app_board"] = own["board"]
        timing["hole"] = number
        timing["loop"] = loop
        timings.append(timing)
    unthrottle(page)
    return timings


def play_online(page: Any, base: str, rate: float, holes: int) -> list[dict[str, float]]:
    """A server game scored through the web form with the connection; each Save's timings."""
    answer = httpx.post(f"{base}/api/v1/games/", json={"players": PLAYERS, "ruleset": "official"}, timeout=10)
    answer.raise_for_status()
    token = answer.json()["edit_token"]
    page.goto(f"/games/e/{token}/")
    throttle(page, rate)
    timings = []
    for number in range(1, holes + 1):
        page.goto(f"/games/e/{token}/holes/new/")
        page.wait_for_selector("form button[type=submit]")
        fill_hole(page, HOLES[number - 1])
        tap_save(page, page.get_by_role("button", name=f"Save hole {number}"), number)
        page.wait_for_url(lambda url: "/holes/new/" not in url)
        timing = saved_timing(page, number)
        timing["hole"] = number
        timings.append(timing)
    loop = calibrate(page)  # after 2 x 9 page loads: the slowdown still holds
    for timing in timings:
        timing["loop"] = loop
    unthrottle(page)
    return timings


def trace_one_save(browser: Any, page: Any, rate: float, path: Path) -> None:
    """One more slowed game, hole 5's Save recorded by Chromium's tracing; its summary printed."""
    from bench.offline_trace import CATEGORIES, summarise

    start_game_offline(page)
    throttle(page, rate)
    for number in range(1, 6):
        if number == 5:
            browser.start_tracing(page=page, path=str(path), categories=CATEGORIES)
        score_hole_offline(page, number, HOLES[number - 1])
        saved_timing(page, number)
    page.wait_for_timeout(300)
    browser.stop_tracing()
    unthrottle(page)
    print(f"\nHole 5's Save at {rate:g}x, traced ({path}); the main thread from the click:")
    print("\n".join(summarise(path)))


def measure(page: Any, base: str, games: int, rate: float, holes: int) -> dict[str, list[dict[str, float]]]:
    """Offline games at `rate` and at full speed, alternating; then the online form at both."""
    runs: dict[str, list[dict[str, float]]] = {"offline-slow": [], "offline-full": []}
    page.context.set_offline(True)
    for game in range(games):
        for name, speed in (("offline-slow", rate), ("offline-full", 1)):
            for timing in play_offline(page, speed, holes):
                runs[name].append({**timing, "game": game + 1})
    page.context.set_offline(False)
    runs["online-slow"] = play_online(page, base, rate, holes)
    runs["online-full"] = play_online(page, base, 1, holes)
    return runs


def judged(timings: list[dict[str, float]]) -> list[float]:
    """The Saves the verdict counts: holes 2 and later ("painted", ms)."""
    return [t["painted"] for t in timings if t["hole"] > 1]


def print_run(label: str, timings: list[dict[str, float]]) -> None:
    """One line of figures for a set of Saves."""
    painted = spread([t["painted"] for t in timings])
    dom = spread([t["dom"] for t in timings])
    line = (
        f"{label:<32} n={len(timings):>2}  painted median {painted['median']:6.1f}  p90 {painted['p90']:6.1f}"
        f"  max {painted['max']:6.1f}   in the document median {dom['median']:6.1f}  max {dom['max']:6.1f}"
    )
    boards = [t["app_board"] for t in timings if t.get("app_board") is not None]
    if boards:
        page_own = spread(boards)
        line += f"   page's golf:save-to-board median {page_own['median']:6.1f}  max {page_own['max']:6.1f}"
    submits = [t["app_submit"] for t in timings if t.get("app_submit") is not None]
    if submits:
        stored = statistics.median(t["app_stored"] for t in timings if t.get("app_stored") is not None)
        line += f" (tap to submit {statistics.median(submits):.1f}, to stored +{stored:.1f})"
    loops = spread([t["loop"] for t in timings])
    print(line + f"   (fixed JS loop {loops['median']:.1f} ms)")


def report(runs: dict[str, list[dict[str, float]]], rate: float, budget: float) -> bool:
    """Print every set, the ratios, and the verdict on holes 2+ of the throttled offline games."""
    slow, full = runs["offline-slow"], runs["offline-full"]
    print_run(f"offline, CPU {rate:g}x slower", slow)
    print_run("offline, full speed (baseline)", full)
    print_run(f"online web form, CPU {rate:g}x", runs["online-slow"])
    print_run("online web form, full speed", runs["online-full"])
    firsts = ", ".join(f"{t['painted']:.1f}" for t in slow if t["hole"] == 1)
    print(f"hole 1 of each {rate:g}x offline game (first Save after the page loaded), painted ms: {firsts}")
    median = spread([t["painted"] for t in slow])["median"]
    full_median = spread([t["painted"] for t in full])["median"]
    online_median = spread([t["painted"] for t in runs["online-slow"]])["median"]
    print(
        f"ratios of medians: {rate:g}x / full speed {median / full_median:.2f}; "
        f"online form {rate:g}x / offline {rate:g}x {online_median / median:.1f}"
    )
    worst = max(judged(slow))
    fits = worst <= budget
    print(
        f"Save offline to the hole shown, CPU {rate:g}x: max {worst:.1f} ms over {len(judged(slow))} Saves "
        f"(holes 2+), median {median:.1f} ms, against {budget:g} ms: {'within' if fits else 'OVER'} budget"
    )
    return fits


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print, and answer 0 within the budget, 1 over it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="offline games at each speed")
    parser.add_argument("--holes", type=int, default=9, help="holes per game (at most 9)")
    parser.add_argument("--rate", type=float, default=4, help="CPU slowdown of the phone")
    parser.add_argument("--scale", type=int, default=1, help="device pixels per CSS pixel")
    parser.add_argument("--budget-ms", type=float, default=BUDGET_MS)
    parser.add_argument("--retries", type=int, default=1, help="plays again when over budget")
    parser.add_argument("--database", default=DB_NAME, help="dropped and created afresh")
    parser.add_argument("--drop-database", action="store_true", help="drop it at the end")
    parser.add_argument(
        "--trace", type=Path, help="also trace one Save into this file (bench/offline_trace.py)"
    )
    args = parser.parse_args(argv)
    holes = max(1, min(args.holes, len(HOLES)))
    env = environment(args.database)
    prepare_database(args.database, env)
    print(f"Machine: {machine()}")
    try:
        with served(env) as base, chromium() as browser:
            print(f"Chromium {browser.version}, {args.scale}x pixels, 390x844; gunicorn 2 workers at {base}")
            page = phone(browser, base, args.scale)
            install_the_app(page)
            runs = measure(page, base, args.games, args.rate, holes)
            fits = report(runs, args.rate, args.budget_ms)
            for attempt in range(args.retries):
                if fits:
                    break
                print(f"\nOver budget: played again ({attempt + 1} of {args.retries}).")
                runs = measure(page, base, args.games, args.rate, holes)
                fits = report(runs, args.rate, args.budget_ms)
            if args.trace:
                page.context.set_offline(True)
                trace_one_save(browser, page, args.rate, args.trace)
            if page.js_errors:
                print(f"JavaScript errors on the page: {page.js_errors}")
                fits = False
    finally:
        if args.drop_database:
            drop_database(args.database)
    return 0 if fits else 1


if __name__ == "__main__":
    sys.exit(main())
