"""The round clock stops when the play it times is over (issue 19 item 4): a finished table's page
says "Table finished", a finalized round's pages say "Round finalized", and neither carries a
figure for the page's script to count down."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.clock import round_clock, table_clock
from tournaments.models import Round, RoundStatus, Table

from .conftest import as_user

pytestmark = pytest.mark.django_db


def _table_page(table: Table) -> str:
    return as_user(None).get(f"/tournaments/table/{table.game.edit_token}/").content.decode()


def test_it_stops_a_finished_tables_clock_while_the_round_plays_on() -> None:
    tournament = event(8, time_limit_minutes=30)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, round_.number)
    finished, playing = Table.objects.filter(round=round_).select_related("game").order_by("number")
    names = list(finished.game.seats.values_list("name", flat=True))
    for _hole in (1, 2):
        scoring_services.hole_record(finished.game, entries=dict.fromkeys(names, 3), ender=None)
    page = _table_page(finished)
    assert "Table finished" in page and "data-seconds-left" not in page
    other = _table_page(playing)
    assert "data-seconds-left" in other and "Table finished" not in other
    round_ = Round.objects.get(pk=round_.pk)
    assert not table_clock(tournament, round_, finished, finished=True).running
    assert round_clock(tournament, round_).running  # the round's own clock still counts


def test_it_stops_a_finalized_rounds_clock_on_the_table_page_and_the_dashboard() -> None:
    tournament = event(8, time_limit_minutes=30)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    round_ = Round.objects.get(pk=round_.pk)
    assert round_.status == RoundStatus.FINALIZED
    table = Table.objects.select_related("game").filter(round=round_).first()
    page = _table_page(table)
    assert "Round finalized" in page and "data-seconds-left" not in page
    dashboard = as_user("dora").get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Round finalized" in dashboard and "data-seconds-left" not in dashboard
    clock = round_clock(tournament, round_)
    assert not clock.running and clock.stopped == "Round finalized"


def test_it_shows_no_clock_at_all_without_a_time_limit() -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    table = Table.objects.select_related("game").filter(round=round_).first()
    page = _table_page(table)
    assert "Round clock:" not in page
