"""The projector at 1920x1080, looked at panel by panel: shared by the projector's own tests and the
director's journey (issue 19, item 8)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from tests.browser.layout import page_problems
from tests.conftest import screenshot
from tests.tournaments.helpers import event
from tournaments import services
from tournaments.models import Entrant, Tournament

HALL = {"width": 1920, "height": 1080}
SURNAMES = ["Van Der Westhuizen", "Schwarzenegger", "Sigurðardóttir", "Ng", "Adebayo-Okonkwo", "Lefèvre"]

# The panel shown: its lines' font size, the lines' box against the screen, anything cut.
PANEL_JS = """
() => {
  const panel = document.querySelector("[data-panel]:not([hidden])");
  const lines = [...panel.querySelectorAll(".names li, .board tbody tr")];
  const cut = [];
  for (const el of panel.querySelectorAll("li, span, th, td, h2")) {
    const style = getComputedStyle(el);
    const clipped = el.scrollWidth > el.clientWidth + 1 && style.overflow !== "visible";
    if (style.textOverflow === "ellipsis" || clipped) {
      cut.push(el.innerText);
    }
  }
  const off = [];
  for (const el of panel.querySelectorAll(".names li, .names .where, .board th, .board td")) {
    const r = el.getBoundingClientRect();
    const outside = r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight;
    if (outside) off.push(el.innerText);
  }
  const list = panel.querySelector(".names, .board");
  const sizes = lines.map((el) => parseFloat(getComputedStyle(el.querySelector(".name") || el).fontSize));
  const boxes = lines.map((el) => el.getBoundingClientRect());
  return {
    title: panel.querySelector("h2").innerText,
    lines: lines.length,
    smallest: Math.min(...sizes),
    used: (Math.max(...boxes.map((b) => b.bottom)) - list.getBoundingClientRect().top)
          / (window.innerHeight - list.getBoundingClientRect().top),
    cut: cut,
    off: off,
  };
}
"""


def hall_event(players: int) -> Tournament:
    """An event of `players` with long, accented names (3 rounds, 2 holes, a 50-minute clock), round 1
    published."""
    tournament = event(players, rounds=3, holes=2, time_limit_minutes=50)
    for entrant in Entrant.objects.filter(tournament=tournament).order_by("pk"):
        n = int(entrant.name[1:])
        name = f"{['Christopher', 'Margarethe', 'Guðrún', 'Li', 'Olu', 'Zoé'][n % 6]} {SURNAMES[n % 6]} {n}"
        entrant.name, entrant.name_key = name, name.casefold()
        entrant.save(update_fields=["name", "name_key"])
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    return tournament


@contextmanager
def projector_page(chromium_browser, live_server, tournament, viewport: dict = HALL) -> Iterator[object]:
    """The event's projector open on a hall's screen (`viewport`), its first panel shown.

    The page's own timers (the panels' turns, the polls) run on a clock the test moves forward
    (`page.clock.run_for`), so a turn is seen without waiting for it in real time. The clock stands
    still until the test moves it: on a busy machine the checks take seconds of real time, which a
    clock flowing naturally would add to the turn. No JavaScript error may happen meanwhile.
    """
    context = chromium_browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start = datetime.now(UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    try:
        page.goto(f"/tournaments/{tournament.pk}/projector/")
        page.locator("[data-panel]:not([hidden])").first.wait_for()
        yield page
        assert not errors, errors
    finally:
        context.close()


def walk_panels(chromium_browser, live_server, tournament, shot: str) -> list[dict]:
    """Open the projector at 1920x1080 and look at each panel in turn: each panel's title, lines,
    smallest type, the share of the screen used, anything cut or off the screen, and the layout
    problems of `page_problems`. Saves the first panel as `shot`."""
    with projector_page(chromium_browser, live_server, tournament) as page:
        panels = page.locator("[data-panel]").count()
        turn = int(page.evaluate("document.body.dataset.rotateSeconds")) * 1000
        seen = []
        for index in range(panels):
            seen.append(page.evaluate(PANEL_JS) | {"problems": page_problems(page)})
            if index == 0:
                screenshot(page, shot)
            page.clock.run_for(turn)
        return seen
