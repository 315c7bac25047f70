"""The round clock in real Chromium: a playing table's clock counts down on its page, a finished
table's shows "Table finished" and stays still however long the page stays open, and so does a
finalized round's ("Round finalized")."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _clock_text(page, url: str) -> tuple[str, str]:
    """The clock's text when the page opens, and after 5 seconds of the page's own timers."""
    page.goto(url)
    clock = page.locator(".round-clock").first
    first = clock.inner_text()
    page.clock.run_for(5_000)
    return first, clock.inner_text()


def test_it_counts_down_while_a_table_plays_and_stands_still_once_it_finished(phone) -> None:
    page = phone
    page.clock.install()
    tournament = event(8, holes=2, time_limit_minutes=30)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, round_.number)
    finished, playing = Table.objects.filter(round=round_).select_related("game").order_by("number")
    names = list(finished.game.seats.values_list("name", flat=True))
    for _hole in (1, 2):
        scoring_services.hole_record(finished.game, entries=dict.fromkeys(names, 3), ender=None)
    before, after = _clock_text(page, f"/tournaments/table/{playing.game.edit_token}/")
    assert before != after  # counting down
    before, after = _clock_text(page, f"/tournaments/table/{finished.game.edit_token}/")
    assert "Table finished" in before and before == after


def test_it_stands_still_once_the_round_is_finalized(phone) -> None:
    page = phone
    page.clock.install()
    tournament = event(8, holes=2, time_limit_minutes=30)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    table = Table.objects.select_related("game").filter(round=round_).first()
    before, after = _clock_text(page, f"/tournaments/table/{table.game.edit_token}/")
    assert "Round finalized" in before and before == after
