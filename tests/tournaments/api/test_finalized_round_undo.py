"""A finalized round's scorecards stay closed: no undo or redo of a table's hole, through the API or
the game's page, not even the director's with a reason (it would take the last hole away and
reopen the game); a director's correction of a hole, with a reason, still goes through and is
logged (`finalized_round_corrected`)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import EventLogEntry, RoundStatus, Table

from .conftest import client_of

pytestmark = pytest.mark.django_db


def _finalized_table(*, undo_then_redo: bool = False) -> Table:
    """Round 1 of an 8-player event played, confirmed and finalized; its first table. With
    `undo_then_redo`, the table corrected hole 2 and undid that while the round was in play, so a
    redo is on offer after finalizing."""
    tournament = event(8)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, round_.number)
    for table in Table.objects.filter(round=round_).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in (1, 2):
            scoring_services.hole_record(
                table.game, entries=dict.fromkeys(names, hole), ender=None, capabilities={"view", "score"}
            )
        if undo_then_redo and table.number == 1:
            hole = table.game.holes.get(number=2)
            scoring_services.hole_update(
                table.game,
                2,
                expected_version=hole.version,
                entries=dict.fromkeys(names, 9),
                ender=None,
                capabilities={"view", "score"},
            )
            scoring_services.undo_last_change(table.game, capabilities={"view", "score"})
        services.confirm_table(table.game, names[0])
    assert services.finalize_round(tournament, 1).status == RoundStatus.FINALIZED
    return Table.objects.select_related("game", "round").get(round=round_, number=1)


def _closed(table: Table, holes: int = 2) -> None:
    """The table's game is still over with its holes, the table confirmed, the round finalized."""
    table.refresh_from_db()
    table.game.refresh_from_db()
    assert table.game.is_finished
    assert table.game.holes.count() == holes
    assert table.is_confirmed
    assert table.round.status == RoundStatus.FINALIZED


def test_it_refuses_the_directors_undo_of_a_finalized_rounds_hole_through_the_api() -> None:
    table = _finalized_table()
    target = scoring_selectors.undo_target_change(table.game)
    answer = client_of("dora").post(
        f"/api/v1/games/{table.game.edit_token}/undo/",
        {"change": target.pk, "reason": "misread the card"},
        format="json",
    )
    assert answer.status_code == 409, answer.content
    error = answer.json()["errors"][0]
    assert error["where"] == "undo"
    assert "Round 1 is finalized" in error["message"] and "correct a hole" in error["message"]
    _closed(table)


def test_it_refuses_the_directors_redo_in_a_finalized_round_through_the_api() -> None:
    table = _finalized_table(undo_then_redo=True)
    before = list(table.game.holes.order_by("number").values_list("number", "version"))
    target = scoring_selectors.redo_target_change(table.game)
    assert target is not None
    answer = client_of("dora").post(
        f"/api/v1/games/{table.game.edit_token}/redo/",
        {"change": target.pk, "reason": "the correction was right"},
        format="json",
    )
    assert answer.status_code == 409, answer.content
    assert "finalized" in answer.json()["errors"][0]["message"]
    _closed(table)
    assert list(table.game.holes.order_by("number").values_list("number", "version")) == before


def test_it_refuses_the_directors_undo_on_the_games_page_and_says_why() -> None:
    table = _finalized_table()
    target = scoring_selectors.undo_target_change(table.game)
    page = Client()
    page.force_login(user("dora"))
    answer = page.post(
        reverse("games:undo", args=[table.game.edit_token]),
        {"change": target.pk, "reason": "misread the card"},
        follow=True,
    )
    assert answer.status_code == 200
    assert "Round 1 is finalized: its scorecards are closed" in answer.content.decode()
    _closed(table)


def test_it_still_takes_a_directors_correction_of_a_finalized_round_and_logs_it(
    django_capture_on_commit_callbacks,
) -> None:
    table = _finalized_table()
    names = list(table.game.seats.values_list("name", flat=True))
    hole = table.game.holes.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_of("dora").put(
            f"/api/v1/games/{table.game.edit_token}/holes/2/",
            {"entries": dict.fromkeys(names, 3), "ender": None, "reason": "appeal upheld"},
            format="json",
            HTTP_IF_MATCH=f'"hole-{hole.pk}-v{hole.version}"',
        )
    assert answer.status_code == 200, answer.content
    _closed(table)
    assert set(table.game.holes.get(number=2).entries.values_list("score", flat=True)) == {3}
    entry = EventLogEntry.objects.get(action="finalized_round_corrected")
    assert entry.reason == "appeal upheld" and entry.details["hole"] == 2


def test_it_still_lets_the_table_undo_while_the_round_is_in_play() -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    table = Table.objects.select_related("game").filter(round=round_).order_by("number").first()
    scoring_services.undo_last_change(table.game, capabilities={"view", "score"})
    assert table.game.holes.count() == 1
