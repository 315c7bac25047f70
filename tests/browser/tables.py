"""A table's own phone in the browser tests: a separate browser context (no cookies of the
director's), held to the CSP, that scores the table's holes through its link and confirms."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from tests.conftest import CSP_LISTENER, PHONE, phone_pixel_ratio, screenshot


@contextmanager
def table_phone(browser, base_url: str) -> Iterator[object]:
    """A second phone (its own browser context: no cookies of the director's), held to the CSP too."""
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=phone_pixel_ratio(),
        is_mobile=True,
        has_touch=True,
        base_url=base_url,
    )
    context.set_default_timeout(10_000)
    problems: list[str] = []
    context.expose_function("reportCspViolation", lambda text: problems.append(text))
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on(
        "console",
        lambda message: problems.append(message.text) if "Content Security Policy" in message.text else None,
    )
    try:
        yield page
    finally:
        context.close()
    assert not problems, f"JavaScript errors or CSP violations on a table's phone: {problems}"


def type_and_confirm(
    page,
    link: str,
    *,
    holes: int,
    score: Callable[[int, int, str], int],
    round_number: int,
    shot: str | None = None,
) -> list[str]:
    """A table's phone opens its link, types every hole's totals (`score(round_number, hole, name)`), then
    the second player confirms the scorecard.

    Answers the players in seat order, as the scoreboard lists them.
    """
    page.goto(link)
    names: list[str] = []
    for hole in range(1, holes + 1):
        page.get_by_role("link", name=f"Score hole {hole}").click()
        page.wait_for_url(re.compile(r"/holes/new/$"))
        if not names:
            # The players in seat order ("p0" is the first seat): each legend's first text, before
            # its "· deals" and "· plays first" marks.
            names = page.evaluate(
                "() => [...document.querySelectorAll('fieldset[id^=\"player-\"] > legend')]"
                ".map((legend) => legend.firstChild.textContent.trim())"
            )
            page.fill("#scorer", names[0])
        for index, name in enumerate(names):
            page.fill(f"input[name='p{index}-total']", str(score(round_number, hole, name)))
        page.get_by_role("button", name=f"Save hole {hole}").click()
        page.get_by_text(f"Hole {hole} saved").first.wait_for()
    if shot:
        screenshot(page, shot)
    page.get_by_role("link", name="Confirm the scorecard").click()
    page.wait_for_url(re.compile(r"/tournaments/table/[\w-]+/$"))
    page.get_by_label("Your name").select_option(names[1])
    page.get_by_role("button", name="I confirm the scorecard").click()
    page.get_by_text("Thank you: the scorecard is confirmed.").wait_for()
    return names
