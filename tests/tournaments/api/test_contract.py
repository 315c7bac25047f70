"""Every row of SPEC "Tournament API contract" (penalties aside: issue 10), called exactly as written,
with the exact shapes of the answers, on a whole event played through the API."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game
from tournaments.models import Entrant, EventLogEntry, Round, RoundStatus, Table, Tournament

from .conftest import create, csv_post

pytestmark = pytest.mark.django_db


def seat(client: APIClient, tournament_id: int) -> dict[str, Any]:
    response = client.post(f"/api/v1/tournaments/{tournament_id}/rounds/", {}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def score_table(table: dict[str, Any], holes: int, base: int = 0) -> None:
    """Every hole of a table through its edit link, as the players' phones do (a lower seat scores less)."""
    client = APIClient()
    names = [p["name"] for p in table["players"]]
    for number in range(1, holes + 1):
        entries = {name: base + seat + number for seat, name in enumerate(names)}
        response = client.post(
            f"/api/v1/games/{table['game']['edit_token']}/holes/", {"entries": entries}, format="json"
        )
        assert response.status_code == 201, response.content


def confirm(table: dict[str, Any], by: str) -> Any:
    return APIClient().post(
        f"/api/v1/games/{table['game']['edit_token']}/confirm/", {"by": by}, format="json"
    )


def test_it_creates_a_tournament_with_every_setting_resolved(dora: APIClient) -> None:
    body = create(dora)
    assert body["name"] == "Spring Open"
    assert body["rounds"] == 3 and body["seating"] == "fewest_repeats" and body["seed"] == 42
    assert body["ruleset"]["holes"] == 9 and "tiebreakers" in body["ruleset"]
    assert body["tiebreakers"] == body["ruleset"]["tiebreakers"]
    assert body["director"] == "dora" and body["role"] == "director"
    assert body["public"] is True and body["standings_release"] == "live"
    assert isinstance(body["id"], int)
    assert Tournament.objects.get(pk=body["id"]).director.username == "dora"


def test_it_stores_a_random_seed_when_none_is_given(dora: APIClient) -> None:
    body = create(dora, seed=None)
    assert isinstance(body["seed"], int)
    assert Tournament.objects.get(pk=body["id"]).seed == body["seed"]
    minimal = dora.post("/api/v1/tournaments/", {"name": "Quick"}, format="json")
    assert minimal.status_code == 201 and isinstance(minimal.json()["seed"], int)
    assert minimal.json()["rounds"] == 3 and minimal.json()["seating"] == "fewest_repeats"


def test_it_adds_a_player_by_json_with_the_contract_shape(dora: APIClient) -> None:
    tid = create(dora)["id"]
    response = dora.post(
        f"/api/v1/tournaments/{tid}/players/", {"name": "Ann", "club": "", "rating": None}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert {"id", "name", "status"} <= set(body)
    assert body["name"] == "Ann" and body["status"] == "active"
    assert Entrant.objects.get(pk=body["id"]).tournament_id == tid


def test_it_refuses_a_name_already_in_the_tournament(dora: APIClient) -> None:
    tid = create(dora)["id"]
    dora.post(f"/api/v1/tournaments/{tid}/players/", {"name": "Ann"}, format="json")
    again = dora.post(f"/api/v1/tournaments/{tid}/players/", {"name": " ann "}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"][0]["where"] == "name"
    assert Entrant.objects.filter(tournament_id=tid).count() == 1


def test_it_imports_a_csv_list(dora: APIClient) -> None:
    tid = create(dora)["id"]
    response = csv_post(dora, tid, "name,club,rating\nAnn,Elm,1500\nBob,,\nCy,Oak,\n")
    assert response.status_code == 201, response.content
    created = response.json()["created"]
    assert [p["name"] for p in created] == ["Ann", "Bob", "Cy"]
    assert all(set(p) == {"id", "name"} for p in created)
    ann = Entrant.objects.get(tournament_id=tid, name="Ann")
    assert (ann.club, ann.rating) == ("Elm", 1500)


def test_it_names_every_bad_csv_line_and_creates_nothing(dora: APIClient) -> None:
    tid = create(dora)["id"]
    text = "name,club,rating\nAnn,,\nBob,,\nCy,,\nDi,,\nEd,,\nFay,,x\nAnn,,\n"
    response = csv_post(dora, tid, text)
    assert response.status_code == 400
    wheres = [e["where"] for e in response.json()["errors"]]
    assert "line 7" in wheres and "line 8" in wheres, wheres
    assert Entrant.objects.filter(tournament_id=tid).count() == 0


def test_it_drops_a_player_who_keeps_the_rounds_played(dora: APIClient) -> None:
    tid = create(dora, rounds=2, ruleset={"preset": "official", "holes": 1})["id"]
    csv_post(dora, tid, "name\n" + "\n".join(f"P{n}" for n in range(1, 9)))
    round1 = seat(dora, tid)
    pid = round1["tables"][0]["players"][0]["id"]
    response = dora.post(f"/api/v1/tournaments/{tid}/players/{pid}/drop/", {}, format="json")
    assert response.status_code == 200 and response.json() == {"status": "dropped"}
    assert Entrant.objects.get(pk=pid).table_seats.count() == 1


def test_it_runs_a_whole_event_through_the_api(dora: APIClient) -> None:
    t = create(dora, rounds=2, ruleset={"preset": "official", "holes": 2})
    tid = t["id"]
    assert csv_post(dora, tid, "name\n" + "\n".join(f"P{n:02d}" for n in range(1, 13))).status_code == 201
    for number in (1, 2):
        round_ = seat(dora, tid)
        assert round_["number"] == number and round_["status"] == "seated"
        assert [len(table["players"]) for table in round_["tables"]] == [4, 4, 4]
        assert [table["number"] for table in round_["tables"]] == [1, 2, 3]
        for table in round_["tables"]:
            assert all(set(p) == {"id", "name"} for p in table["players"])
            assert set(table["game"]) == {"edit_token", "view_token"}
            game = Game.objects.get(edit_token=table["game"]["edit_token"])
            # Players in seat order, as the table's game seats them.
            assert [p["name"] for p in table["players"]] == list(
                game.seats.order_by("seat").values_list("name", flat=True)
            )
        published = dora.post(f"/api/v1/tournaments/{tid}/rounds/{number}/publish/", {}, format="json")
        assert published.status_code == 200
        for table in round_["tables"]:
            score_table(table, 2)
            response = confirm(table, table["players"][1]["name"])
            assert response.status_code == 200, response.content
            assert response.json()["confirmed"] is True
        finalized = dora.post(f"/api/v1/tournaments/{tid}/rounds/{number}/finalize/", {}, format="json")
        assert finalized.status_code == 200 and finalized.json() == {"status": "finalized"}
    standings = dora.get(f"/api/v1/tournaments/{tid}/standings/")
    assert standings.status_code == 200
    lines = standings.json()["standings"]
    assert len(lines) == 12
    first = lines[0]
    assert {
        "rank",
        "player",
        "total",
        "rounds",
        "penalty_points",
        "holes_won",
        "complete",
        "status",
        "playoff",
    } <= set(first)
    assert set(first["player"]) == {"id", "name"}
    assert first["rank"] == 1 and first["complete"] is True and first["status"] == "active"
    assert len(first["rounds"]) == 2 and sum(first["rounds"]) + first["penalty_points"] == first["total"]
    assert [line["rank"] for line in lines] == sorted(line["rank"] for line in lines)
    assert all(isinstance(line["playoff"], bool) for line in lines)


def _published_round(dora: APIClient, holes: int = 1) -> tuple[int, dict[str, Any]]:
    tid = create(dora, rounds=2, ruleset={"preset": "official", "holes": holes})["id"]
    csv_post(dora, tid, "name\n" + "\n".join(f"P{n:02d}" for n in range(1, 9)))
    round_ = seat(dora, tid)
    dora.post(f"/api/v1/tournaments/{tid}/rounds/1/publish/", {}, format="json")
    return tid, round_


def test_it_answers_409_naming_the_tables_still_playing_or_unconfirmed(dora: APIClient) -> None:
    tid, round_ = _published_round(dora)
    first, _second = round_["tables"]
    score_table(first, 1)
    response = dora.post(f"/api/v1/tournaments/{tid}/rounds/1/finalize/", {}, format="json")
    assert response.status_code == 409
    messages = " ".join(e["message"] for e in response.json()["errors"])
    assert "Tables still playing: 2" in messages and "not confirmed" in messages and "1" in messages
    assert Round.objects.get(tournament_id=tid, number=1).status == RoundStatus.PUBLISHED


def test_it_finalizes_unconfirmed_tables_with_an_override_and_records_it(dora: APIClient) -> None:
    tid, round_ = _published_round(dora)
    for table in round_["tables"]:
        score_table(table, 1)
    no_reason = dora.post(f"/api/v1/tournaments/{tid}/rounds/1/finalize/", {"override": True}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["where"] == "reason"
    response = dora.post(
        f"/api/v1/tournaments/{tid}/rounds/1/finalize/",
        {"override": True, "reason": "players left the venue"},
        format="json",
    )
    assert response.status_code == 200 and response.json() == {"status": "finalized"}
    entry = EventLogEntry.objects.get(tournament_id=tid, action="round_finalized_override")
    assert entry.reason == "players left the venue" and entry.details["unconfirmed_tables"] == [1, 2]


def test_it_refuses_to_seat_a_round_while_one_is_in_play(dora: APIClient) -> None:
    tid, _round = _published_round(dora)
    response = dora.post(f"/api/v1/tournaments/{tid}/rounds/", {}, format="json")
    assert response.status_code == 409
    assert "Round 1" in response.json()["detail"]
    assert Round.objects.filter(tournament_id=tid).count() == 1


def test_it_flags_a_disagreement_through_the_table_link(dora: APIClient) -> None:
    tid, round_ = _published_round(dora)
    table = round_["tables"][0]
    score_table(table, 1)
    name = table["players"][2]["name"]
    response = APIClient().post(
        f"/api/v1/games/{table['game']['edit_token']}/confirm/",
        {"disagree": True, "by": name, "note": "hole 1 was 4, not 5"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["disputed"] is True and response.json()["disputed_by"] == name
    row = Table.objects.get(round__tournament_id=tid, number=1)
    assert row.dispute_note == "hole 1 was 4, not 5"
    # The director sees it in the round, and clears it; then a player confirms.
    seen = dora.get(f"/api/v1/tournaments/{tid}/rounds/1/").json()["tables"][0]
    assert seen["disputed"] is True and seen["dispute_note"] == "hole 1 was 4, not 5"
    blocked = confirm(table, name)
    assert blocked.status_code == 409
    cleared = dora.post(
        f"/api/v1/tournaments/{tid}/rounds/1/tables/1/clear-dispute/", {"note": "checked"}, format="json"
    )
    assert cleared.status_code == 200 and cleared.json()["disputed"] is False
    assert confirm(table, name).status_code == 200


def test_it_refuses_a_confirmation_through_the_view_link_or_by_someone_not_at_the_table(
    dora: APIClient,
) -> None:
    _tid, round_ = _published_round(dora)
    table, other = round_["tables"]
    score_table(table, 1)
    by_view = APIClient().post(
        f"/api/v1/games/{table['game']['view_token']}/confirm/",
        {"by": table["players"][1]["name"]},
        format="json",
    )
    assert by_view.status_code == 403
    stranger = confirm(table, other["players"][0]["name"])
    assert stranger.status_code == 400 and stranger.json()["errors"][0]["where"] == "by"
    not_over = confirm(other, other["players"][0]["name"])
    assert not_over.status_code == 409
    assert not Table.objects.filter(confirmed_at__isnull=False).exists()


def test_it_answers_404_to_confirming_a_game_that_is_not_a_table() -> None:
    from scoring import services as scoring_services

    game = scoring_services.create_game(players=["Ann", "Bob"], ruleset="official")
    response = APIClient().post(f"/api/v1/games/{game.edit_token}/confirm/", {"by": "Ann"}, format="json")
    assert response.status_code == 404
    assert response.json()["errors"][0]["where"] == "game"
