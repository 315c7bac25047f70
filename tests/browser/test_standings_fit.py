"""The standings and the public leaderboard fit a phone (issue 19): 12 players with long names and 3
rounds, the last in play, at 390x844 show a block per player (rank, player and total with "thru N"
on the first line, every other figure beneath after its column's name) with no scroll of any kind
and nothing cut off, still a table to a screen reader; at 1280 px wide they are the whole table,
a column per figure."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.browser.layout import page_problems
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Christopher Van Der Westhuizen"

# Each body row of the table: where its rank, player and total sit, its cells' text (the data-label
# shown before each on a phone is CSS, not text), and how the browser lays the row and cells out.
ROWS_JS = """
(selector) => [...document.querySelectorAll(selector + " tbody tr:not(.group-head)")].map((tr) => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom,
    left: r.left, right: r.right}; };
  const cells = [...tr.children];
  return {
    rank: box(cells[0]), player: box(tr.querySelector("th[scope=row]")),
    total: box(tr.querySelector("td.total")),
    others: cells.slice(3).filter((c) => c.innerText.trim()).map(box),
    texts: cells.map((c) => c.innerText.trim()),
    labels: cells.map((c) => c.dataset.label || null),
    display: getComputedStyle(tr).display,
    cellDisplays: [...new Set(cells.map((c) => getComputedStyle(c).display))],
  };
})
"""


def _scores(round_number: int, hole: int, name: str) -> int:
    """A spread of scores from the player's number (the names end with it)."""
    return (int(name.rsplit(" ", 1)[-1]) * 3 + hole * round_number) % 11


def _event_with_round_3_in_play() -> Tournament:
    """12 players called "Christopher Van Der Westhuizen 1" to "... 12", rounds 1 and 2 finalized,
    round 3 in play with 2 holes of 9 scored at every table."""
    tournament = event(12, rounds=3, holes=9)
    for n, entrant in enumerate(Entrant.objects.filter(tournament=tournament).order_by("pk"), start=1):
        entrant.name = f"{LONG} {n}"
        entrant.name_key = entrant.name.casefold()
        entrant.save(update_fields=["name", "name_key"])
    for number in (1, 2):
        play_round(tournament, _scores)
        services.finalize_round(tournament, number)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 3)
    for table in Table.objects.filter(round__tournament=tournament, round__number=3).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in (1, 2):
            scoring_services.hole_record(
                table.game, entries={n: _scores(3, hole, n) for n in names}, ender=None
            )
    return tournament


def _log_in(context, live_server) -> None:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user("dora"), backend="django.contrib.auth.backends.ModelBackend")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])


@pytest.fixture
def standings_event() -> Tournament:
    return _event_with_round_3_in_play()


PAGES = [("standings/", "table.standings"), ("public/", "#leaderboard table.standings")]


def _check_blocks(page, selector: str, width: int) -> None:
    """The table at `selector` is a block per player, nothing cut off and no scroll of any kind."""
    assert page_problems(page) == []
    # No scroll of any kind: not the page, not the table's box.
    sizes = page.evaluate(
        """(selector) => { const t = document.querySelector(selector);
             const box = t.parentElement;
             return {page: document.documentElement.scrollWidth, window: window.innerWidth,
                     box: box.scrollWidth, boxWidth: box.clientWidth,
                     table: t.getBoundingClientRect().right}; }""",
        selector,
    )
    assert sizes["page"] <= sizes["window"] and sizes["box"] <= sizes["boxWidth"] + 1, sizes
    assert sizes["table"] <= sizes["window"], sizes
    rows = page.evaluate(ROWS_JS, selector)
    assert len(rows) == 12
    for row in rows:
        assert row["display"] == "flex", row
        # The first line: rank, player (the long name whole, wrapped if need be) and total,
        # side by side; the total shows how far the round in play is.
        assert row["rank"]["right"] <= row["player"]["left"] <= row["total"]["left"], row
        assert row["rank"]["top"] < row["player"]["bottom"] and row["total"]["top"] < row["player"]["bottom"]
        assert row["texts"][1].startswith(LONG)
        assert row["texts"][2].endswith("thru 2"), row["texts"]
        # Beneath: holes played, R1, R2, R3 (thru 2), the penalty and the tiebreak figures,
        # each after its column's name, all below the first line and inside the window.
        assert row["labels"][3:10] == [
            "Holes played", "R1", "R2", "R3 (holes 1\u20132)", "Pen.", "Countback (best hole scores)",
            "Most holes won",
        ], row["labels"]  # fmt: skip
        assert row["texts"][6].endswith("thru 2") and all(row["texts"][3:10]), row["texts"]
        first_line_bottom = max(row["player"]["bottom"], row["total"]["bottom"])
        for other in row["others"]:
            assert other["top"] >= first_line_bottom - 1 and other["right"] <= width, (row, other)


def test_the_standings_fit_a_phone_a_block_per_player(chromium_browser, live_server, standings_event) -> None:
    for width in (390, 768):  # a phone, a tablet
        context = chromium_browser.new_context(
            viewport={"width": width, "height": 844}, device_scale_factor=2, is_mobile=True,
            has_touch=True, base_url=live_server.url,
        )  # fmt: skip
        try:
            _log_in(context, live_server)  # the staff see the round in play (and so "thru 2")
            page = context.new_page()
            for path, selector in PAGES:
                page.goto(f"/tournaments/{standings_event.pk}/{path}")
                _check_blocks(page, selector, width)
            # Still a table to assistive technology: Chromium's accessibility tree has the table,
            # its column headers, and for each player a row whose row header is the name.
            cdp = context.new_cdp_session(page)
            nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
            roles = [node.get("role", {}).get("value") for node in nodes]
            assert "table" in roles and roles.count("columnheader") == 11, sorted(set(roles))
            row_headers = [
                node.get("name", {}).get("value", "")
                for node in nodes
                if node.get("role", {}).get("value") == "rowheader"
            ]
            assert sum(name.startswith(LONG) for name in row_headers) == 12, row_headers
            assert roles.count("row") == 13  # the head's row and the players'
        finally:
            context.close()


def test_a_desktop_gets_the_whole_standings_table_a_column_per_figure(
    chromium_browser, live_server, standings_event
) -> None:
    for width in (1280, 1024):
        context = chromium_browser.new_context(
            viewport={"width": width, "height": 900}, base_url=live_server.url
        )
        try:
            _log_in(context, live_server)
            page = context.new_page()
            page.goto(f"/tournaments/{standings_event.pk}/standings/")
            _check_table(page)
        finally:
            context.close()


def _check_table(page) -> None:
    """The standings are the whole table: the column heads shown, a row a line, no scroll."""
    assert page_problems(page) == []
    heads = page.locator("table.standings thead th")
    assert heads.first.is_visible()
    assert heads.all_inner_texts() == [
        "Rank", "Player", "Total", "Holes", "R1", "R2", "R3 (holes 1\u20132)", "Pen.",
        "Countback (best hole scores)", "Most holes won", "Why above",
    ]  # fmt: skip
    rows = page.evaluate(ROWS_JS, "table.standings")
    assert len(rows) == 12
    for row in rows:
        assert row["display"] == "table-row" and row["cellDisplays"] == ["table-cell"], row
        assert len(row["texts"]) == 11
        # One line: the row's cells side by side, left to right (the total without "thru 2",
        # which is in the round's column).
        assert row["rank"]["right"] <= row["player"]["left"] < row["total"]["left"], row
        assert (
            row["player"]["right"] <= row["total"]["left"]
            and row["total"]["right"] <= row["others"][0]["left"]
        )
        assert "thru" not in row["texts"][2] and row["texts"][6].endswith("thru 2"), row["texts"]
    # The table is as wide as its box: no scroll inside it either.
    assert page.evaluate(
        "() => { const b = document.querySelector('table.standings').parentElement;"
        " return b.scrollWidth <= b.clientWidth + 1; }"
    )
