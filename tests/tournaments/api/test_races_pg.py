"""Races a director and a table meet, with real concurrent requests on PostgreSQL: each request in
its own thread on its own connection, released together; the database is checked afterwards.
Skipped (with the reason) on SQLite."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.helpers import event, play_round, user
from tournaments.models import Entrant, Round, Table, TableSeat

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _as_dora(method: str, url: str, body: dict[str, Any]) -> Callable[[], Any]:
    def call() -> Any:
        client = APIClient()
        client.force_login(user("dora"))
        return client.generic(method, url, __import__("json").dumps(body), content_type="application/json")

    return call


def test_it_seats_exactly_one_round_when_two_directors_seat_at_once() -> None:
    tournament = event(12, rounds=3, holes=1)
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    results = at_once(_as_dora("POST", url, {}), _as_dora("POST", url, {}))
    codes = sorted(r.status_code for r in results)
    assert codes == [201, 409], [getattr(r, "content", r) for r in results]
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]
    assert TableSeat.objects.filter(round__tournament=tournament).count() == 12
    assert Table.objects.filter(round__tournament=tournament).count() == 3


def test_it_records_one_confirmation_when_two_players_confirm_at_once() -> None:
    tournament = event(8, rounds=1, holes=1)
    play_round(tournament, confirm=False)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").first()
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    url = f"/api/v1/games/{table.game.edit_token}/confirm/"

    def confirm(by: str) -> Callable[[], Any]:
        return lambda: APIClient().post(url, {"by": by}, format="json")

    results = at_once(confirm(names[1]), confirm(names[2]))
    assert [r.status_code for r in results] == [200, 200], [getattr(r, "content", r) for r in results]
    table.refresh_from_db()
    assert table.confirmed_by.name in names[1:3]
    # Both answers name the same (the first) confirmation: the second kept it.
    assert {r.json()["confirmed_by"] for r in results} == {table.confirmed_by.name}


def test_it_adds_one_player_when_the_same_name_is_sent_twice_at_once() -> None:
    tournament = event(4, rounds=1, holes=1)
    url = f"/api/v1/tournaments/{tournament.pk}/players/"
    results = at_once(_as_dora("POST", url, {"name": "Zoe"}), _as_dora("POST", url, {"name": "zoe "}))
    assert sorted(r.status_code for r in results) == [201, 400], [getattr(r, "content", r) for r in results]
    refused = next(r for r in results if r.status_code == 400)
    assert refused.json()["errors"][0]["where"] == "name"
    assert Entrant.objects.filter(tournament=tournament, name_key="zoe").count() == 1
