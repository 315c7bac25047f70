"""What a table's link may do in the tournament API: confirm its own table, nothing else.

Personas: the table link (the edit token of table 1's game), another table's link (table 2's),
a view link, and the tournament routes called with nothing but a table link in hand (anonymous)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import event, play_round
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables() -> tuple[Table, Table]:
    tournament = event(8, rounds=2, holes=2)
    round_ = play_round(tournament, confirm=False)
    return tuple(Table.objects.filter(round=round_).order_by("number").select_related("game"))


def _names(table: Table) -> list[str]:
    return list(table.game.seats.order_by("seat").values_list("name", flat=True))


def test_it_lets_a_table_link_confirm_its_own_table(tables) -> None:
    first, _second = tables
    response = APIClient().post(
        f"/api/v1/games/{first.game.edit_token}/confirm/", {"by": _names(first)[1]}, format="json"
    )
    assert response.status_code == 200
    first.refresh_from_db()
    assert first.is_confirmed


def test_another_tables_link_cannot_confirm_for_a_player_of_this_table(tables) -> None:
    first, second = tables
    response = APIClient().post(
        f"/api/v1/games/{second.game.edit_token}/confirm/", {"by": _names(first)[1]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["where"] == "by"
    assert not Table.objects.filter(confirmed_at__isnull=False).exists()


def test_a_view_link_cannot_confirm(tables) -> None:
    first, _second = tables
    response = APIClient().post(
        f"/api/v1/games/{first.game.view_token}/confirm/", {"by": _names(first)[1]}, format="json"
    )
    assert response.status_code == 403
    assert not Table.objects.filter(confirmed_at__isnull=False).exists()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "rounds/"),
        ("post", "rounds/1/finalize/"),
        ("post", "rounds/1/publish/"),
        ("post", "players/"),
    ],
)
def test_a_table_link_opens_no_tournament_write(tables, method: str, path: str) -> None:
    first, _second = tables
    tournament = first.round.tournament
    client = APIClient()
    client.get(f"/api/v1/games/{first.game.edit_token}/")  # holding the table link changes nothing
    response = getattr(client, method)(f"/api/v1/tournaments/{tournament.pk}/{path}", {}, format="json")
    assert response.status_code in (401, 403)
    first.round.refresh_from_db()
    assert first.round.status == "published"
