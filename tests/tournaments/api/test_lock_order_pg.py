"""One lock order for every tournament write, proven with real concurrent requests on PostgreSQL:
tables confirming while the director finalizes, each request in its own thread on its own
connection, released together; the database is checked afterwards. Skipped on SQLite."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.api.conftest import with_staff
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import EventLogEntry, Penalty, Round, RoundStatus, Table

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _as_dora(url: str, body: dict[str, Any], *, username: str = "dora") -> Callable[[], Any]:
    def call() -> Any:
        client = APIClient()
        client.force_login(user(username))
        return client.post(url, json.dumps(body), content_type="application/json")

    return call


def _confirm(table: Table) -> Callable[[], Any]:
    by = table.game.seats.order_by("seat").values_list("name", flat=True)[1]
    url = f"/api/v1/games/{table.game.edit_token}/confirm/"
    return lambda: APIClient().post(url, {"by": by}, format="json")


def _status(result: Any) -> Any:
    return getattr(result, "status_code", repr(result))


def test_it_neither_deadlocks_nor_loses_a_confirmation_when_tables_confirm_while_finalizing() -> None:
    # 13 tables confirming and 6 finalize taps at once, a few times over: the old order (table,
    # round and tournament in one query, then the game; finalize: tournament, round, games)
    # deadlocked here and answered 500s.
    for attempt in range(3):
        tournament = event(52, rounds=1, holes=1)
        play_round(tournament, confirm=False)
        tables = list(
            Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")
        )
        assert len(tables) == 13
        finalize = _as_dora(f"/api/v1/tournaments/{tournament.pk}/rounds/1/finalize/", {})
        results = at_once(*(_confirm(t) for t in tables), *(finalize for _ in range(6)))
        confirms, finalizes = results[:13], results[13:]
        assert all(_status(r) in (200, 409) for r in results), (attempt, [_status(r) for r in results])
        round_ = Round.objects.get(tournament=tournament, number=1)
        stored = {t.number: t for t in Table.objects.filter(round=round_)}
        for table, answer in zip(tables, confirms, strict=True):
            if answer.status_code == 200:  # recorded: the database holds it
                assert stored[table.number].is_confirmed, (attempt, table.number)
            else:  # refused cleanly, saying why: the round was finalized first
                assert answer.json()["errors"][0]["message"], answer.content
                assert round_.status == RoundStatus.FINALIZED
        if round_.status == RoundStatus.FINALIZED:
            # Finalized without an override: every table confirmed, and finalized once.
            assert all(t.is_confirmed for t in stored.values())
            assert EventLogEntry.objects.filter(tournament=tournament, action="round_finalized").count() == 1
            assert any(r.status_code == 200 for r in finalizes)
        else:
            assert all(r.status_code == 409 for r in finalizes), [r.content for r in finalizes]


def test_it_takes_flags_cleared_confirmations_penalties_and_an_override_at_once_one_after_the_other() -> None:
    # Clearing a flag locked the table, its round and tournament in one query (in the plan's
    # order): against a finalize (tournament, round, tables, games) it deadlocked too.
    tournament = with_staff(event(52, rounds=2, holes=1))
    play_round(tournament, confirm=False)
    tables = list(
        Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")
    )
    flagged, others = tables[:6], tables[6:]
    for table in flagged:
        services.confirm_table(table.game, table.game.seats.first().name, disagree=True, note="hole 1?")
    base = f"/api/v1/tournaments/{tournament.pk}"
    clears = [
        _as_dora(f"{base}/rounds/1/tables/{t.number}/clear-dispute/", {"note": "checked"}) for t in flagged
    ]
    players = list(tournament.entrants.order_by("pk").values_list("pk", flat=True)[:4])
    penalties = [
        _as_dora(
            f"{base}/penalties/", {"player": pk, "offence": "illegal_move", "round": 1}, username="olive"
        )
        for pk in players
    ]
    override = _as_dora(f"{base}/rounds/1/finalize/", {"override": True, "reason": "the hall closes"})
    results = at_once(*clears, *(_confirm(t) for t in others), *penalties, override, override, override)
    assert all(_status(r) in (200, 201, 409) for r in results), [_status(r) for r in results]
    assert all(_status(r) == 201 for r in results[13:17])  # every penalty recorded, once
    assert Penalty.objects.filter(tournament=tournament).count() == 4
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert round_.status == RoundStatus.FINALIZED  # an override never waits for confirmations
    for table in Table.objects.filter(round=round_):
        closed = (table.is_confirmed and not table.is_disputed) or table.override_reason == "the hall closes"
        assert closed, table.number
    assert (
        EventLogEntry.objects.filter(tournament=tournament, action__startswith="round_finalized").count() == 1
    )
