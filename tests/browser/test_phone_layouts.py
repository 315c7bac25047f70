"""Phone layouts in Chromium at 390x844 (issue 19, item 2): a table checks its whole scorecard (every
hole of 9 or 18 and every total, side by side with nothing on top of them), the director sees every
player of 12 in full with their buttons, and a page title does not break a word in two."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.browser.helpers import log_in_as_director
from tests.browser.layout import page_problems
from tests.conftest import screenshot
from tests.tournaments.helpers import event
from tournaments import services
from tournaments.models import Entrant, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = ["Christopher Van Der Westhuizen", "Margarethe Schwarzenegger", "Guðrún Sigurðardóttir", "Li"]

# For every cell of the element's tables (headings, scores, totals): scrolled into view, is it
# inside the window's width, and is what the browser finds at its centre the cell, a part of it or
# its own container (nothing else on top of it)?
CELLS_SEEN_JS = """
(selector) => {
  const hidden = [];
  const cells = [...document.querySelectorAll(selector)];
  for (const cell of cells) {
    // Down to the cell only: a cell out of sight sideways must stay so (no scroll box is moved).
    window.scrollTo(0, window.scrollY + cell.getBoundingClientRect().top - window.innerHeight / 2);
    const r = cell.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.left < 0 || r.right > window.innerWidth || !(cell.contains(top) || top.contains(cell))) {
      hidden.push(`${cell.innerText.trim()} at ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  window.scrollTo(0, 0);
  return {count: cells.length, hidden: hidden, scrolled: window.scrollX};
}
"""


def _rename(tournament, names: list[str]) -> None:
    """Long real names, numbered when repeated (names are unique in an event)."""
    entrants = Entrant.objects.filter(tournament=tournament).order_by("pk")
    for n, (entrant, name) in enumerate(zip(entrants, names, strict=False)):
        name = f"{name} {n // len(LONG_NAMES) + 1}" if n >= len(LONG_NAMES) else name
        entrant.name, entrant.name_key = name, name.casefold()
        entrant.save(update_fields=["name", "name_key"])


@pytest.mark.parametrize("holes", [9, 18])
def test_a_table_sees_every_hole_and_every_total_of_its_scorecard_on_a_phone(phone, holes) -> None:
    tournament = event(8, rounds=1, holes=holes)
    _rename(tournament, LONG_NAMES * 2)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(1, holes + 1):
        scoring_services.hole_record(
            table.game, entries={n: (i * 5 + hole) % 13 - 2 for i, n in enumerate(names)}, ender=None
        )

    phone.goto(f"/tournaments/table/{table.game.edit_token}/")
    card = phone.locator("table.scorecard")
    seen = phone.evaluate(CELLS_SEEN_JS, "table.scorecard th, table.scorecard td")
    # A heading line (Hole + each player), a line per hole, the totals' line: every cell in view.
    assert seen["count"] == (holes + 2) * (len(names) + 1), seen
    assert not seen["hidden"], seen["hidden"]
    for hole in range(1, holes + 1):
        assert card.locator("tbody th", has_text=str(hole)).first.is_visible()
    totals = card.locator("tfoot td")
    assert totals.count() == len(names)
    assert all(text.strip() not in {"", "\u2013"} for text in totals.all_inner_texts())
    assert not page_problems(phone)
    if holes == 18:
        screenshot(phone, "table-confirm-18-holes")


def test_the_director_sees_every_one_of_12_players_in_full_on_a_phone(phone) -> None:
    tournament = event(12, rounds=1)
    _rename(tournament, LONG_NAMES * 3)
    Entrant.objects.filter(tournament=tournament).update(club="Golf Club of Greater Saint-Rémy-de-Provence")
    log_in_as_director(phone)
    phone.goto(f"/tournaments/{tournament.pk}/players/")
    seen = phone.evaluate(
        CELLS_SEEN_JS, "tr[id^=player-] th a, tr[id^=player-] .check-in, tr[id^=player-] .row-actions a"
    )
    assert seen["count"] == 12 * 4, seen  # the name, "Check in", "Drop", "Withdraw" of each player
    assert not seen["hidden"], seen["hidden"]
    assert not page_problems(phone)
    screenshot(phone, "players-list-phone")


def test_the_tournaments_title_keeps_its_word_whole_on_a_phone(phone) -> None:
    log_in_as_director(phone)  # logged in: the title shares its line with "New tournament"
    heading = phone.get_by_role("heading", level=1, name="Tournaments")
    lines = phone.evaluate(
        """(h) => { const r = document.createRange(); r.selectNodeContents(h);
            return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }""",
        heading.element_handle(),
    )
    assert lines == 1
    assert not page_problems(phone)
