"""The projector at 1920x1080 (issue 19, item 8) with 12 and with 200 players: the type sizes itself
to what a panel shows, nothing a player needs is cut (no ellipsis, every name and table number
whole and on the screen), and it reads from the back of a hall: names at least 40 px with 12
players (and the list using most of the screen, not a third of it), at least 24 px with 200
players, whose names are paged into panels that take turns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.browser.layout import page_problems
from tests.conftest import screenshot
from tests.tournaments.helpers import event
from tournaments import services
from tournaments.models import Entrant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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


def _hall_event(players: int):
    tournament = event(players, rounds=3, holes=2, time_limit_minutes=50)
    for entrant in Entrant.objects.filter(tournament=tournament).order_by("pk"):
        n = int(entrant.name[1:])
        name = f"{['Christopher', 'Margarethe', 'Guðrún', 'Li', 'Olu', 'Zoé'][n % 6]} {SURNAMES[n % 6]} {n}"
        entrant.name, entrant.name_key = name, name.casefold()
        entrant.save(update_fields=["name", "name_key"])
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    return tournament


def _walk_panels(chromium_browser, live_server, tournament, shot: str) -> list[dict]:
    """Open the projector and look at each panel in turn (the page's clock moved, not waited)."""
    context = chromium_browser.new_context(viewport=HALL, base_url=live_server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    start = datetime.now(UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    try:
        page.goto(f"/tournaments/{tournament.pk}/projector/")
        page.locator("[data-panel]:not([hidden])").first.wait_for()
        panels = page.locator("[data-panel]").count()
        turn = int(page.evaluate("document.body.dataset.rotateSeconds")) * 1000
        seen = []
        for index in range(panels):
            seen.append(page.evaluate(PANEL_JS) | {"problems": page_problems(page)})
            if index == 0:
                screenshot(page, shot)
            page.clock.run_for(turn)
        assert not errors, errors
        return seen
    finally:
        context.close()


def test_the_projector_shows_12_players_in_large_type_with_nothing_cut(chromium_browser, live_server) -> None:
    seen = _walk_panels(chromium_browser, live_server, _hall_event(12), "projector-12-players")
    seating, standings = seen[0], seen[1]  # then the standings' last 2 lines
    assert seating["title"].startswith("Seating") and seating["lines"] == 12
    assert seating["smallest"] >= 40, seating  # from the back of the hall
    assert seating["used"] >= 0.6, seating  # the names use the screen, not its top third
    assert standings["lines"] == 10 and standings["smallest"] >= 40, standings
    for panel in seen:
        assert not panel["cut"] and not panel["off"] and not panel["problems"], panel


def test_the_projector_pages_200_players_and_keeps_their_names_readable(chromium_browser, live_server):
    seen = _walk_panels(chromium_browser, live_server, _hall_event(200), "projector-200-players")
    seating = [panel for panel in seen if panel["title"].startswith("Seating")]
    assert sum(panel["lines"] for panel in seating) == 200
    assert len(seating) == 5  # 40 names a panel: the longest names still fit at 24 px
    for panel in seen:
        assert panel["smallest"] >= 24, panel
        assert not panel["cut"] and not panel["off"] and not panel["problems"], panel
