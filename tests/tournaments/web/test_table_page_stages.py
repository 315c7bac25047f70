"""A table's page says what the table can do at that moment (issue 19, item 5): it is headed
"Confirm the scorecard" only once there is a finished scorecard to confirm."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring import services as scoring_services
from tests.tournaments.web.conftest import staffed_event
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def play(table: Table, holes: int) -> list[str]:
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(holes):
        scoring_services.hole_record(
            table.game, entries={n: hole + i for i, n in enumerate(names)}, ender=None
        )
    return names


def heading(page: str) -> str:
    return re.search(r"<h1>(.*?)</h1>", page, re.S).group(1).strip()


def page_of(table: Table) -> str:
    return Client().get(f"/tournaments/table/{table.game.edit_token}/").content.decode()


def test_before_the_round_is_published_the_table_waits_and_sees_its_seat_order() -> None:
    ev = staffed_event(publish=False)
    page = page_of(ev.table)
    assert heading(page) == "Table 1: waiting for the round"
    assert "Confirm the scorecard" not in page and "I confirm" not in page and "I disagree" not in page
    assert "wait for the director to publish the round" in page and 'class="seat-order"' in page
    assert "Call an official" not in page


def test_before_hole_one_the_table_scores_on_the_game_page_or_calls_an_official() -> None:
    ev = staffed_event()
    page = page_of(ev.table)
    assert heading(page) == "Table 1: ready to play"
    assert "Confirm the scorecard" not in page and "I disagree" not in page
    assert f'href="/games/e/{ev.table.game.edit_token}/"' in page and "Score on the game page" in page
    assert "Call an official now" in page
    assert "Once every hole is in" in page and 'class="scorecard' not in page


def test_during_play_it_shows_the_hole_and_the_scores_so_far_without_the_confirmation() -> None:
    ev = staffed_event()
    play(ev.table, 1)
    page = page_of(ev.table)
    assert heading(page) == "Table 1: hole 2 of 2"
    assert 'class="scorecard' in page and "Call an official now" in page
    assert "I confirm the scorecard" not in page and "I disagree" not in page


def test_once_every_hole_is_in_it_asks_for_the_confirmation() -> None:
    ev = staffed_event()
    play(ev.table, 2)
    page = page_of(ev.table)
    assert heading(page) == "Confirm the scorecard"
    assert "I confirm the scorecard" in page and "I disagree" in page


def test_after_the_confirmation_and_a_dispute_it_says_what_happened() -> None:
    ev = staffed_event()
    names = play(ev.table, 2)
    services.confirm_table(ev.table.game, names[1])
    confirmed = page_of(ev.table)
    assert heading(confirmed) == "Table 1: scorecard confirmed" and f"Confirmed by {names[1]}" in confirmed
    names = play(ev.other_table, 2)
    services.confirm_table(ev.other_table.game, names[2], disagree=True, note="Hole 2 was a 5")
    disputed = page_of(ev.other_table)
    assert heading(disputed) == "Table 2: scorecard disputed" and "Hole 2 was a 5" in disputed


def test_after_finalizing_it_says_who_confirmed_or_why_the_director_finalized_without() -> None:
    ev = staffed_event()
    names = play(ev.table, 2)
    services.confirm_table(ev.table.game, names[1])
    play(ev.other_table, 2)
    services.finalize_round(ev.tournament, 1, override=True, reason="The players left early")
    confirmed = page_of(ev.table)
    assert heading(confirmed) == "Table 1: round 1 is finalized"
    assert f"confirmed by {names[1]} and counts in the standings" in confirmed
    overridden = page_of(ev.other_table)
    assert "finalized the round without this table's confirmation" in overridden
    assert "The players left early" in overridden and "I disagree" not in overridden
