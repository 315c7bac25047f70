"""What the offline app's browser tests share (issue 32): a phone's first visit with the service
worker, keying cards in on the keypad, saving a hole, reading the offline scoreboard, waiting for the
queue to reach the server."""

from __future__ import annotations

import os
import time

MINUS = "\u2212"


def wait_for_the_service_worker(page) -> None:
    """Until /sw.js has installed (the shell and files stored) and controls this page."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(100):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never took control of the page")


def go_offline_after_first_visit(page) -> None:
    """The phone visits the app once with a connection (the worker installs), then loses it."""
    page.goto("/")
    wait_for_the_service_worker(page)
    page.context.set_offline(True)


def key_in_grid(page, seat: int, grid: list[list[str]]) -> None:
    """Tap the player's first cell, then each card on the keypad (the keypad moves on by itself)."""
    page.click(f"#id-p{seat}-1-1")
    for row in grid:
        for token in row:
            page.click(f'[data-card-keypad] [data-rank="{token}"]')
    for r, row in enumerate(grid, start=1):
        for c, token in enumerate(row, start=1):
            assert page.input_value(f"#id-p{seat}-{r}-{c}") == token


def save_hole(page, label: str) -> float:
    """Press the hole page's Save button; answer how long (ms) until the scoreboard was drawn."""
    started = time.perf_counter()
    page.get_by_role("button", name=label).click()
    page.wait_for_selector("[data-offline-board]")
    return (time.perf_counter() - started) * 1000


def number(text: str) -> int:
    """A score as the page shows it (true minus sign)."""
    return int(text.strip().replace(MINUS, "-"))


def board_scores(page, players: list[str]) -> dict[str, tuple[list[int], int]]:
    """Each player's hole scores and total as the offline scorecard shows them."""
    shown = {}
    for name in players:
        row = page.locator("[data-offline-scorecard] tbody tr", has=page.locator(f'th[title="{name}"]'))
        cells = row.locator("td").all_inner_texts()
        shown[name] = ([number(c) for c in cells[:-1]], number(cells[-1]))
    return shown


def wait_until_sent(page, seconds: float = 20) -> None:
    """Until the page says every write reached the server and shows the server's link."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        banner = page.locator("[data-offline-banner]")
        sent = banner.count() and banner.first.get_attribute("data-offline-banner") == "sent"
        if "/games/e/" in page.url and sent:
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"not all sent: {page.url} {page.locator('main').inner_text()[:600]}")


def slow_down_cpu_if_asked(page) -> None:
    """With GOLF_CPU_SLOWDOWN=4 in the environment, Chromium runs the page 4 times slower (a
    mid-range phone): the issue's budget for Save to scoreboard is 100 ms there."""
    rate = int(os.environ.get("GOLF_CPU_SLOWDOWN", "1"))
    if rate > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
