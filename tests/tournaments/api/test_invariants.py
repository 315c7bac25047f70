"""Invariants the database holds (issue 20, must-show 4), each tried directly and refused; a
finalized round's scorecards closed (finding 5); an event DQ refused for a player already
disqualified (finding 3)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from scoring import services as scoring_services
from scoring.hole_policies import HoleChangeRefused
from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.errors import WrongState
from tournaments.models import (
    EntrantStatus,
    EventLogEntry,
    Penalty,
    Round,
    RoundStatus,
    Ruling,
    Table,
)

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db

needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the finalized round's check is a PostgreSQL trigger"
)


def _refused(**update) -> None:
    """The update of every table of round 1 given is refused by the database."""
    with pytest.raises(IntegrityError), transaction.atomic():
        update["query"].update(**{k: v for k, v in update.items() if k != "query"})


def _correct_hole_2(table: Table, capabilities: set[str], reason: str = "", score: int = 1) -> None:
    names = list(table.game.seats.values_list("name", flat=True))
    hole = table.game.holes.get(number=2)
    scoring_services.hole_update(
        table.game,
        2,
        expected_version=hole.version,
        entries=dict.fromkeys(names, score),
        ender=None,
        capabilities=capabilities,
        reason=reason,
    )


# Finding 5: a finalized round keeps every table confirmed (or overridden).


def test_it_keeps_the_confirmation_of_a_finalized_table_after_a_directors_correction(
    django_capture_on_commit_callbacks,
) -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    table = Table.objects.filter(round=round_).select_related("game").order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        _correct_hole_2(table, {"view", "score", "manage"}, reason="appeal upheld")
    table.refresh_from_db()
    assert table.is_confirmed
    entry = EventLogEntry.objects.get(tournament=tournament, action="finalized_round_corrected")
    assert entry.reason == "appeal upheld" and entry.round_number == 1
    assert entry.details["table"] == table.number and entry.details["hole"] == 2
    assert entry.details["change"] == "corrected"


def test_it_finalizes_only_over_confirmations_of_the_scorecard_as_it_stands(
    django_capture_on_commit_callbacks,
) -> None:
    # A correction at the table commits; nothing after the commit has to run for the confirmation
    # to stop holding (issue 31: it was cleared by a receiver after the commit, which could fail).
    tournament = event(8)
    round_ = play_round(tournament)
    table = Table.objects.filter(round=round_).select_related("game").order_by("number").first()
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        _correct_hole_2(table, {"view", "score"}, score=7)
    table = Table.objects.select_related("game", "round").get(pk=table.pk)
    assert table.confirmed_at is not None  # still stored, as it was made
    assert not table.is_confirmed  # but it confirmed an earlier scorecard: it no longer holds
    with pytest.raises(WrongState, match="not confirmed"):
        services.finalize_round(tournament, 1)
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    services.confirm_table(table.game, names[2])  # a player confirms the corrected scorecard
    for callback in after_commit:
        callback()  # late: the signals change nothing the tournament shows
    table = Table.objects.select_related("game", "round", "confirmed_by").get(pk=table.pk)
    assert table.is_confirmed and table.confirmed_by.name == names[2]
    assert services.finalize_round(tournament, 1).status == RoundStatus.FINALIZED


def test_an_override_does_not_turn_a_confirmation_of_an_older_scorecard_into_a_confirmed_table() -> None:
    # Confirmed, then corrected at the table (the confirmation no longer holds, still stored), then
    # finalized over it with an override: the table shows overridden, never "confirmed by".
    tournament = event(8)
    round_ = play_round(tournament)
    table = Table.objects.filter(round=round_).select_related("game").order_by("number").first()
    _correct_hole_2(table, {"view", "score"}, score=7)
    services.finalize_round(tournament, 1, override=True, reason="players left for the ferry")
    table = Table.objects.select_related("game", "round").get(pk=table.pk)
    assert not table.is_confirmed and table.confirmed_by_id is None
    assert table.override_reason == "players left for the ferry"
    others = Table.objects.filter(round=round_).exclude(pk=table.pk).select_related("game", "round")
    assert all(t.is_confirmed and not t.override_reason for t in others)


def test_it_refuses_to_delete_a_hole_of_a_finalized_round_even_for_the_director() -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    table = Table.objects.filter(round=round_).select_related("game").first()
    with pytest.raises(HoleChangeRefused, match="not deleted"):
        scoring_services.hole_delete(table.game, 2, capabilities={"view", "score", "manage"}, reason="oops")
    assert table.game.holes.count() == 2


def test_it_still_clears_a_confirmation_when_a_hole_is_corrected_while_the_round_is_in_play(
    django_capture_on_commit_callbacks,
) -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    table = Table.objects.filter(round=round_).select_related("game").first()
    with django_capture_on_commit_callbacks(execute=True):
        _correct_hole_2(table, {"view", "score"})
    table.refresh_from_db()
    assert not table.is_confirmed
    assert not EventLogEntry.objects.filter(action="finalized_round_corrected").exists()


def test_it_refuses_a_confirmation_or_a_disagreement_through_the_link_once_the_round_is_finalized() -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    services.finalize_round(tournament, 1, override=True, reason="players left for the ferry")
    table = Table.objects.filter(round=round_).select_related("game").order_by("number").first()
    assert table.override_reason == "players left for the ferry"
    by = table.game.seats.order_by("seat").values_list("name", flat=True)[0]
    url = f"/api/v1/games/{table.game.edit_token}/confirm/"
    for body in ({"by": by}, {"by": by, "disagree": True, "note": "wrong"}):
        answer = client_of(None).post(url, body, format="json")
        assert answer.status_code == 409, answer.content
        assert "finalized" in answer.json()["errors"][0]["message"]
    table.refresh_from_db()
    assert not table.is_confirmed and not table.is_disputed
    with pytest.raises(WrongState):
        services.confirm_table(table.game, by)


# Finding 3: an event DQ for a player already disqualified.


def test_it_refuses_an_event_dq_for_a_player_already_disqualified() -> None:
    tournament = with_staff(event(8, rounds=2, holes=2))
    play_round(tournament)
    p03 = tournament.entrants.get(name="P03")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": p03.pk, "offence": "cheating", "step": "event_dq", "round": 1}
    assert client_of("olive").post(url, body, format="json").status_code == 201
    again = client_of("olive").post(url, body, format="json")
    assert again.status_code == 409, again.content
    assert again.json()["errors"][0]["where"] == "player"
    assert "already disqualified" in again.json()["errors"][0]["message"]
    # A ruling carrying that penalty is refused whole: no ruling, no penalty.
    ruling = {"situation": "electronic_device", "facts": {}, "player": p03.pk, "step": "event_dq", "round": 1}
    answer = client_of("olive").post(f"/api/v1/tournaments/{tournament.pk}/rulings/", ruling, format="json")
    assert answer.status_code == 409, answer.content
    assert Penalty.objects.filter(entrant=p03).count() == 1
    assert not Ruling.objects.filter(entrant=p03).exists()
    p03.refresh_from_db()
    assert p03.status == EntrantStatus.DISQUALIFIED
    # Rescinded on appeal, the player may be disqualified again.
    first = Penalty.objects.get(entrant=p03)
    services.rescind_penalty(tournament, first.pk, reason="appeal")
    assert client_of("olive").post(url, body, format="json").status_code == 201


# Must-show 4: each invariant tried directly against the database, refused.


def test_it_holds_one_active_event_dq_per_player_in_the_database() -> None:
    tournament = event(4, rounds=1)
    player = tournament.entrants.first()
    row = {"tournament": tournament, "entrant": player, "offence": "cheating", "step": "event_dq"}
    first = Penalty.objects.create(**row)
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(**row)
    Penalty.objects.filter(pk=first.pk).update(rescinded_at=timezone.now(), rescind_reason="appeal")
    Penalty.objects.create(**row)  # a rescinded one no longer counts
    Penalty.objects.create(**row | {"step": "warning"})  # other steps are not limited


def test_it_holds_one_confirmation_per_table_and_round_in_the_database() -> None:
    tournament = event(8, rounds=1, holes=1)
    round_ = play_round(tournament)
    tables = Table.objects.filter(round=round_)
    table = tables.first()
    with pytest.raises(IntegrityError), transaction.atomic():  # one table row per round and number
        Table.objects.create(round=round_, number=table.number, game=scoring_services.create_game(
            players=["a", "b", "c"], ruleset="official"))  # fmt: skip
    _refused(query=tables.filter(pk=table.pk), disputed_at=timezone.now())  # confirmed and disputed
    _refused(query=tables.filter(pk=table.pk), confirmed_at=None)  # a confirmer without its time
    first_by = table.confirmed_by_id
    services.confirm_table(table.game, table.game.seats.order_by("seat").first().name)
    table.refresh_from_db()
    assert table.confirmed_by_id == first_by  # confirming again keeps the first confirmation


def test_it_holds_a_round_finalized_exactly_with_its_time_in_the_database() -> None:
    tournament = event(8, rounds=1, holes=1)
    round_ = play_round(tournament)
    _refused(query=Round.objects.filter(pk=round_.pk), status=RoundStatus.FINALIZED)
    _refused(query=Round.objects.filter(pk=round_.pk), finalized_at=timezone.now())


@needs_postgres
def test_it_holds_every_table_of_a_finalized_round_confirmed_or_overridden_in_the_database() -> None:
    tournament = event(8, rounds=1, holes=1)
    round_ = play_round(tournament, confirm=False)
    rounds = Round.objects.filter(pk=round_.pk)
    tables = Table.objects.filter(round=round_).order_by("number")
    first, second = tables
    services.confirm_table(first.game, first.game.seats.order_by("seat").first().name)
    # The second table neither confirmed nor overridden: finalizing it directly is refused.
    _refused(query=rounds, status=RoundStatus.FINALIZED, finalized_at=timezone.now())
    tables.filter(pk=second.pk).update(override_reason="a player fell ill")
    rounds.update(status=RoundStatus.FINALIZED, finalized_at=timezone.now())
    # Finalized: a confirmation cannot be cleared, a table not disputed, an override not dropped.
    _refused(query=tables.filter(pk=first.pk), confirmed_at=None, confirmed_by=None)
    _refused(
        query=tables.filter(pk=first.pk), confirmed_at=None, confirmed_by=None, disputed_at=timezone.now()
    )
    _refused(query=tables.filter(pk=second.pk), override_reason="")
    tables.filter(pk=first.pk).update(extra_minutes=5)  # other changes of its tables are fine
