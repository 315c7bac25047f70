"""What a real client needs beyond the contract: settings (ruleset frozen once round 1 is seated),
players' statuses and check-in, a swap before publishing, a player's record, staff."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, EventLogEntry, Staff, TableSeat, Tournament

from .conftest import create

pytestmark = pytest.mark.django_db


def test_it_changes_settings_and_freezes_the_ruleset_once_round_one_is_seated(dora: APIClient) -> None:
    tid = create(dora, rounds=2)["id"]
    url = f"/api/v1/tournaments/{tid}/"
    changed = dora.patch(
        url, {"venue": "Club house", "ruleset": {"preset": "official", "holes": 4}}, format="json"
    )
    assert changed.status_code == 200
    assert changed.json()["venue"] == "Club house" and changed.json()["ruleset"]["holes"] == 4
    services.import_entrants(Tournament.objects.get(pk=tid), "name\nA\nB\nC\nD\n")
    assert dora.post(f"{url}rounds/", {}, format="json").status_code == 201
    frozen = dora.patch(url, {"ruleset": "official"}, format="json")
    assert frozen.status_code == 409 and frozen.json()["errors"][0]["where"] == "ruleset"
    assert Tournament.objects.get(pk=tid).ruleset["holes"] == 4
    assert dora.patch(url, {"name": "Autumn Open"}, format="json").json()["name"] == "Autumn Open"
    body = dora.get(url).json()
    assert body["rounds_seated"] == 1 and body["players"] == 4


def test_it_withdraws_reinstates_and_checks_in_a_player(dora: APIClient) -> None:
    tid = create(dora)["id"]
    pid = dora.post(f"/api/v1/tournaments/{tid}/players/", {"name": "Ann"}, format="json").json()["id"]
    base = f"/api/v1/tournaments/{tid}/players/{pid}/"
    assert dora.post(base + "withdraw/", {"reason": "ill"}, format="json").json() == {"status": "withdrawn"}
    assert dora.post(base + "reinstate/", {}, format="json").json() == {"status": "active"}
    checked = dora.post(base + "check-in/", {}, format="json")
    assert checked.status_code == 200 and checked.json()["checked_in"] is True
    assert dora.post(base + "check-in/", {"checked_in": False}, format="json").json()["checked_in"] is False
    listed = dora.get(f"/api/v1/tournaments/{tid}/players/").json()
    assert listed == [
        {"id": pid, "name": "Ann", "club": "", "rating": None, "status": "active", "checked_in": False}
    ]
    assert EventLogEntry.objects.filter(tournament_id=tid, action="player_withdrawn", reason="ill").exists()


def test_it_swaps_two_players_before_publishing_with_a_reason(dora: APIClient) -> None:
    tournament = event(8, rounds=2, holes=1)
    round_ = services.seat_next_round(tournament)
    tables = list(round_.tables.order_by("number"))
    a = TableSeat.objects.filter(table=tables[0]).order_by("seat").first()
    b = TableSeat.objects.filter(table=tables[1]).order_by("seat").first()
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/swap/"
    no_reason = dora.post(url, {"players": [a.entrant_id, b.entrant_id], "reason": " "}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["where"] == "reason"
    response = dora.post(
        url, {"players": [a.entrant_id, b.entrant_id], "reason": "friends apart"}, format="json"
    )
    assert response.status_code == 200, response.content
    first_table = response.json()["tables"][0]
    assert first_table["players"][0]["id"] == b.entrant_id
    assert TableSeat.objects.get(round=round_, entrant_id=a.entrant_id).table_id == tables[1].pk
    dora.post(f"/api/v1/tournaments/{tournament.pk}/rounds/1/publish/", {}, format="json")
    late = dora.post(url, {"players": [a.entrant_id, b.entrant_id], "reason": "again"}, format="json")
    assert late.status_code == 409


def test_it_answers_a_players_record_round_by_round_hole_by_hole() -> None:
    tournament = event(8, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    ann = Entrant.objects.get(tournament=tournament, name="P03")
    response = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/players/{ann.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["player"]["name"] == "P03"
    (only,) = body["rounds"]
    assert only["round"] == 1 and only["status"] == "finalized"
    assert only["holes"] == [{"number": 1, "score": 4}, {"number": 2, "score": 5}] and only["total"] == 9


def test_it_adds_lists_and_changes_staff_by_username(dora: APIClient) -> None:
    tid = create(dora)["id"]
    user("olive")
    url = f"/api/v1/tournaments/{tid}/staff/"
    added = dora.post(url, {"username": "olive", "role": "official"}, format="json")
    assert (
        added.status_code == 201
        and added.json()["username"] == "olive"
        and added.json()["role"] == "official"
    )
    again = dora.post(url, {"username": "olive", "role": "co_director"}, format="json")
    assert again.status_code == 201 and again.json()["id"] == added.json()["id"]
    assert dora.get(url).json() == [{"id": added.json()["id"], "username": "olive", "role": "co_director"}]
    itself = dora.post(url, {"username": "dora", "role": "official"}, format="json")
    assert itself.status_code == 409
    assert Staff.objects.filter(tournament_id=tid).count() == 1


def test_it_pages_the_list_of_tournaments(dora: APIClient) -> None:
    for n in range(52):
        services.create_tournament(director=user("dora"), name=f"Event {n}", seed=n)
    first = dora.get("/api/v1/tournaments/").json()
    assert first["count"] == 52 and len(first["results"]) == 50 and first["previous"] is None
    second = dora.get(first["next"]).json()
    assert len(second["results"]) == 2 and second["next"] is None
