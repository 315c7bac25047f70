"""Event day in real Chromium: a player finds their table on a phone (390x844) and watches the
leaderboard follow a hole scored elsewhere without reloading; the projector fills a hall's screen
at 1920x1080 and 1280x720 without a scrollbar, in type readable from the back of the room, and
its panels take turns."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.browser.projector import projector_page
from tests.conftest import CHROMIUM_ARGS, screenshot  # noqa: F401  (CHROMIUM_ARGS: the same launch)
from tests.tournaments.helpers import event
from tournaments import services
from tournaments.models import Entrant, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _event_in_play(players: int = 8, **settings):
    tournament = event(players, rounds=3, holes=2, time_limit_minutes=50, **settings)
    Entrant.objects.filter(tournament=tournament, name="P03").update(
        name="Zoé Lefèvre", name_key="zoé lefèvre"
    )
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    return tournament


def test_a_player_finds_their_table_and_the_leaderboard_follows_the_play(phone) -> None:
    page = phone
    tournament = _event_in_play(public_table_links=True)
    # The page's timers (the search's typing delay, the 5 s poll) run on a clock the test moves.
    page.clock.install()
    page.goto(f"/tournaments/{tournament.pk}/public/")
    page.get_by_label("Your name (or part of it)").fill("zoe lef")  # no accent, lower case
    page.clock.run_for(1000)
    page.get_by_text("Zoé Lefèvre:").wait_for()  # htmx answered as they typed
    seat = tournament.round_set.get(number=1).tables.get(seats__entrant__name="Zoé Lefèvre")
    assert page.get_by_text(f"round 1, table {seat.number}, seat").is_visible()
    assert page.get_by_role("link", name=f"Score table {seat.number}").is_visible()
    screenshot(page, "event-day-find-my-table")

    # A table scores a hole on its own phone: the leaderboard here shows it within 5 seconds.
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    board = page.locator("#leaderboard")
    assert "R1" in board.inner_text()
    scoring_services.hole_record(table.game, entries={n: 17 for n in names}, ender=None)
    # Its players' R1 cell shows "thru 1", and 0 counted: the round's column and the total wait for
    # the other table's hole 1 (the live board ranks, and totals, the holes every player has played).
    assert page.locator("#leaderboard td", has_text="0 thru 1").count() == 0
    page.clock.run_for(5_000)
    page.locator("#leaderboard td", has_text="0 thru 1").first.wait_for(timeout=2_000)
    assert "R1 (no hole yet)" in board.inner_text()
    page.locator("#leaderboard").scroll_into_view_if_needed()
    screenshot(page, "event-day-leaderboard")


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_projector_fits_the_hall_screen_in_large_type(
    chromium_browser, live_server, width, height
) -> None:
    tournament = _event_in_play(players=60)
    with projector_page(
        chromium_browser, live_server, tournament, {"width": width, "height": height}
    ) as page:
        sizes = page.evaluate(
            """() => { const d = document.documentElement;
                return {sw: d.scrollWidth, cw: d.clientWidth, sh: d.scrollHeight, ch: d.clientHeight}; }"""
        )
        assert sizes["sw"] <= sizes["cw"] and sizes["sh"] <= sizes["ch"], sizes
        visible = page.locator("[data-panel]:not([hidden])")
        assert visible.count() == 1
        # Every name of the visible panel is on the screen, none cut off at the bottom.
        bottom = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('[data-panel]:not([hidden]) li')]"
            ".map(e => e.getBoundingClientRect().bottom))"
        )
        assert bottom <= height
        name_px = float(
            page.evaluate(
                "() => parseFloat(getComputedStyle("
                "document.querySelector('[data-panel]:not([hidden]) li')).fontSize)"
            )
        )
        # Readable from the back of a room: 3.2% of the screen's height (34 px on 1080 lines).
        assert name_px >= 0.03 * height, name_px
        assert page.locator(".clock").is_visible()
        if width == 1920:
            screenshot(page, "event-day-projector")
        first_title = visible.locator("h2").inner_text()
        turn = int(page.evaluate("document.body.dataset.rotateSeconds")) * 1000
        assert turn >= 3000
        page.clock.run_for(turn - 500)  # not yet a turn
        assert visible.locator("h2").inner_text() == first_title
        page.clock.run_for(1000)
        page.wait_for_function(
            "(title) => document.querySelector('[data-panel]:not([hidden]) h2').innerText !== title",
            arg=first_title,
            timeout=2_000,
        )  # the panels take turns without a reload
