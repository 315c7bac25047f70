"""Every write of the tournament API is safe to repeat (issue 20, must-show 2): with an
`Idempotency-Key`, a replay answers the first status and body and writes nothing; the same key with
another request answers 422 naming the header; a bad key is a 400. The races (copies at once) are
in test_idempotency_races_pg.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from scoring.models import Game, GameChange, IdempotentRequest
from tests.tournaments.api.conftest import client_of, with_staff
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Penalty, Round, Staff, Table, Tournament

pytestmark = pytest.mark.django_db

# (client's user, method, url, first body, another body, content type)
Case = tuple[str | None, str, str, Any, Any, str]


def _names(table: Table) -> list[str]:
    return list(table.game.seats.order_by("seat").values_list("name", flat=True))


def _first_table(tournament: Tournament) -> Table:
    return Table.objects.filter(round__tournament=tournament).select_related("game").order_by("pk").first()


def _create(t: Tournament) -> Case:
    return ("dora", "POST", "/api/v1/tournaments/", {"name": "Autumn"}, {"name": "Winter"}, "json")


def _settings(t: Tournament) -> Case:
    return ("dora", "PATCH", f"/api/v1/tournaments/{t.pk}/", {"venue": "Hall"}, {"venue": "Barn"}, "json")


def _staff_add(t: Tournament) -> Case:
    user("vic")
    body = {"username": "vic", "role": "official"}
    return (
        "dora",
        "POST",
        f"/api/v1/tournaments/{t.pk}/staff/",
        body,
        {**body, "role": "co_director"},
        "json",
    )


def _staff_remove(t: Tournament) -> Case:
    member = Staff.objects.get(tournament=t, user__username="olive")
    return ("dora", "DELETE", f"/api/v1/tournaments/{t.pk}/staff/{member.pk}/", {}, {"x": 1}, "json")


def _player_add(t: Tournament) -> Case:
    return ("dora", "POST", f"/api/v1/tournaments/{t.pk}/players/", {"name": "Zed"}, {"name": "Zia"}, "json")


def _csv_import(t: Tournament) -> Case:
    url = f"/api/v1/tournaments/{t.pk}/players/"
    return ("dora", "POST", url, "name\nZed\nZia\n", "name\nZed\nZoe\n", "csv")


def _status(change: str) -> Callable[[Tournament], Case]:
    def case(t: Tournament) -> Case:
        player = t.entrants.get(name="P01")
        if change == "reinstate":
            services.drop_entrant(t, player.pk)
        url = f"/api/v1/tournaments/{t.pk}/players/{player.pk}/{change}/"
        return ("dora", "POST", url, {"reason": "ill"}, {"reason": "gone home"}, "json")

    return case


def _check_in(t: Tournament) -> Case:
    url = f"/api/v1/tournaments/{t.pk}/players/{t.entrants.get(name='P01').pk}/check-in/"
    return ("dora", "POST", url, {"checked_in": True}, {"checked_in": False}, "json")


def _seat(t: Tournament) -> Case:
    return ("dora", "POST", f"/api/v1/tournaments/{t.pk}/rounds/", {}, {"round": 2}, "json")


def _publish(t: Tournament) -> Case:
    services.seat_next_round(t)
    return ("dora", "POST", f"/api/v1/tournaments/{t.pk}/rounds/1/publish/", {}, {"again": True}, "json")


def _finalize(t: Tournament) -> Case:
    play_round(t, confirm=False)
    body = {"override": True, "reason": "table 2 left early"}
    return ("dora", "POST", f"/api/v1/tournaments/{t.pk}/rounds/1/finalize/", body, {}, "json")


def _swap(t: Tournament) -> Case:
    services.seat_next_round(t)
    tables = list(Table.objects.filter(round__tournament=t).order_by("number"))
    first, second = (table.seats.order_by("seat").first().entrant_id for table in tables[:2])
    body = {"players": [first, second], "reason": "family"}
    url = f"/api/v1/tournaments/{t.pk}/rounds/1/swap/"
    return ("dora", "POST", url, body, {**body, "reason": "friends"}, "json")


def _clear_dispute(t: Tournament) -> Case:
    play_round(t, confirm=False)
    table = _first_table(t)
    services.confirm_table(table.game, _names(table)[0], disagree=True, note="hole 1 was 4")
    url = f"/api/v1/tournaments/{t.pk}/rounds/1/tables/{table.number}/clear-dispute/"
    return ("dora", "POST", url, {"note": "checked"}, {"note": "not checked"}, "json")


def _confirm(t: Tournament) -> Case:
    play_round(t, confirm=False)
    table = _first_table(t)
    names = _names(table)
    url = f"/api/v1/games/{table.game.edit_token}/confirm/"
    return (None, "POST", url, {"by": names[1]}, {"by": names[2]}, "json")


def _penalty(t: Tournament) -> Case:
    body = {"player": t.entrants.get(name="P02").pk, "offence": "illegal_move", "note": "drew two"}
    url = f"/api/v1/tournaments/{t.pk}/penalties/"
    return ("olive", "POST", url, body, {**body, "note": "drew three"}, "json")


def _rescind(t: Tournament) -> Case:
    penalty = services.give_penalty(t, player=t.entrants.get(name="P02").pk, offence="illegal_move")
    url = f"/api/v1/tournaments/{t.pk}/penalties/{penalty.pk}/rescind/"
    return ("dora", "POST", url, {"reason": "appeal upheld"}, {"reason": "appeal"}, "json")


def _ruling(t: Tournament) -> Case:
    body = {
        "situation": "looked_at_face_down_card",
        "facts": {},
        "player": t.entrants.get(name="P03").pk,
        "note": "seen by the table",
    }
    url = f"/api/v1/tournaments/{t.pk}/rulings/"
    return ("olive", "POST", url, body, {**body, "note": "seen by one player"}, "json")


def _bulk_check_in(t: Tournament) -> Case:
    ids = list(t.entrants.order_by("pk").values_list("pk", flat=True))
    url = f"/api/v1/tournaments/{t.pk}/players/check-in/"
    return ("dora", "POST", url, {"players": ids[:2]}, {"players": ids[2:4]}, "json")


#: Every write route of the tournament API (tournaments/api/urls.py: each POST, PATCH, DELETE).
WRITES: dict[str, Callable[[Tournament], Case]] = {
    "create": _create,
    "settings": _settings,
    "staff-add": _staff_add,
    "staff-remove": _staff_remove,
    "player-add": _player_add,
    "csv-import": _csv_import,
    "drop": _status("drop"),
    "withdraw": _status("withdraw"),
    "reinstate": _status("reinstate"),
    "check-in": _check_in,
    "bulk-check-in": _bulk_check_in,
    "seat": _seat,
    "publish": _publish,
    "finalize": _finalize,
    "swap": _swap,
    "clear-dispute": _clear_dispute,
    "confirm": _confirm,
    "penalty": _penalty,
    "rescind": _rescind,
    "ruling": _ruling,
}


def _send(client: APIClient, method: str, url: str, body: Any, kind: str, key: str | None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    if kind == "csv":
        return client.generic(method, url, body.encode(), content_type="text/csv", **headers)
    return client.generic(method, url, json.dumps(body), content_type="application/json", **headers)


def _everything() -> dict[str, Any]:
    """Every row of the tournaments app (its keys aside) and of the games: what a write changes."""
    rows: dict[str, Any] = {}
    for model in apps.get_app_config("tournaments").get_models():
        if model is not IdempotentRequest:
            rows[model._meta.label] = list(model.objects.order_by("pk").values())
    rows["games"] = list(Game.objects.order_by("pk").values())
    rows["changes"] = GameChange.objects.count()
    return rows


def _event() -> Tournament:
    return with_staff(event(8, rounds=3, holes=1))


def test_it_covers_every_write_route_of_the_tournament_api() -> None:
    from tournaments.api.urls import urlpatterns

    # Each route that writes is in WRITES (staff and its member, the player's four changes, ...).
    writing = {p.name for p in urlpatterns} - {
        "api-tournament-player",
        "api-tournament-round",
        "api-tournament-round-phones",  # reads each table's phone contact (issue 32)
        "api-rulings-situations",
        "api-rulings-advise",  # writes nothing (open to anyone)
        "api-tournament-standings",
    }
    assert len(writing) == 19
    assert len(WRITES) == 20  # the players' route twice: JSON and CSV


@pytest.mark.parametrize("name", list(WRITES))
def test_it_replays_a_write_with_the_same_key_and_writes_nothing(name: str) -> None:
    tournament = _event()
    who, method, url, body, _other, kind = WRITES[name](tournament)
    client = client_of(who)
    first = _send(client, method, url, body, kind, "key-1")
    assert 200 <= first.status_code < 300, first.content
    assert "Idempotent-Replayed" not in first
    before = _everything()
    replay = _send(client, method, url, body, kind, "key-1")
    assert replay.status_code == first.status_code
    assert replay.content == first.content
    assert replay["Idempotent-Replayed"] == "true"
    if first.has_header("Location"):
        assert replay["Location"] == first["Location"]
    assert _everything() == before
    assert IdempotentRequest.objects.count() == 1


@pytest.mark.parametrize("name", list(WRITES))
def test_it_refuses_the_same_key_with_another_body_with_a_422_naming_the_header(name: str) -> None:
    tournament = _event()
    who, method, url, body, other, kind = WRITES[name](tournament)
    client = client_of(who)
    assert 200 <= _send(client, method, url, body, kind, "key-1").status_code < 300
    before = _everything()
    refused = _send(client, method, url, other, kind, "key-1")
    assert refused.status_code == 422, refused.content
    assert refused.json()["errors"][0]["where"] == "Idempotency-Key"
    assert "Idempotency-Key" in refused.json()["detail"]
    assert _everything() == before


def test_it_refuses_the_same_key_at_another_address() -> None:
    tournament = _event()
    olive = client_of("olive")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": tournament.entrants.get(name="P02").pk, "offence": "illegal_move"}
    assert olive.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    other = client_of("olive").post(
        f"/api/v1/tournaments/{tournament.pk}/rulings/",
        {"situation": "stock_exhausted", "facts": {}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert other.status_code == 422
    assert Penalty.objects.count() == 1


def test_it_writes_again_without_a_key_or_with_a_new_key() -> None:
    tournament = _event()
    olive = client_of("olive")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": tournament.entrants.get(name="P02").pk, "offence": "time", "seconds_over": 61}
    for headers in ({}, {}, {"HTTP_IDEMPOTENCY_KEY": "a"}, {"HTTP_IDEMPOTENCY_KEY": "b"}):
        answer = olive.post(url, body, format="json", **headers)
        assert answer.status_code == 201 and "Idempotent-Replayed" not in answer
    assert list(Penalty.objects.values_list("points", flat=True)) == [4, 4, 4, 4]
    assert IdempotentRequest.objects.count() == 2


def test_it_keeps_each_users_keys_apart() -> None:
    tournament = _event()
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": tournament.entrants.get(name="P02").pk, "offence": "unsportsmanlike"}
    for who in ("olive", "cora"):
        answer = client_of(who).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="same")
        assert answer.status_code == 201 and "Idempotent-Replayed" not in answer
    assert list(Penalty.objects.order_by("pk").values_list("step", flat=True)) == ["warning", "event_dq"]


def test_it_keeps_nothing_of_a_refused_write_so_its_retry_is_carried_out() -> None:
    tournament = _event()
    dora = client_of("dora")
    publish = f"/api/v1/tournaments/{tournament.pk}/rounds/1/publish/"
    refused = dora.post(publish, {}, format="json", HTTP_IDEMPOTENCY_KEY="p")
    assert refused.status_code == 404  # no round 1 yet
    assert not IdempotentRequest.objects.exists()
    services.seat_next_round(tournament)
    done = dora.post(publish, {}, format="json", HTTP_IDEMPOTENCY_KEY="p")
    assert done.status_code == 200 and "Idempotent-Replayed" not in done
    assert Round.objects.get(tournament=tournament).status == "published"


@pytest.mark.parametrize(
    "key",
    ["x" * 256, "tab\there", "nul\x00key", "", "   "],
    ids=["too long", "control character", "NUL", "empty", "blank"],
)
def test_it_refuses_a_bad_key_with_a_400_naming_the_header(key: str) -> None:
    tournament = _event()
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": tournament.entrants.get(name="P02").pk, "offence": "illegal_move"}
    answer = client_of("olive").post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["where"] == "Idempotency-Key"
    assert not Penalty.objects.exists() and not IdempotentRequest.objects.exists()


def test_it_takes_a_key_of_255_characters() -> None:
    tournament = _event()
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": tournament.entrants.get(name="P02").pk, "offence": "illegal_move"}
    olive = client_of("olive")
    for _ in range(2):
        assert olive.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k" * 255).status_code == 201
    assert Penalty.objects.count() == 1


def test_it_refuses_an_anonymous_write_before_looking_at_its_key() -> None:
    tournament = _event()
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    answer = APIClient().post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert answer.status_code == 401
    assert not IdempotentRequest.objects.exists()


def test_it_purges_keys_older_than_the_days_given() -> None:
    tournament = _event()
    olive = client_of("olive")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": tournament.entrants.get(name="P02").pk, "offence": "illegal_move"}
    for key in ("old", "new"):
        assert olive.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key).status_code == 201
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - timedelta(days=8))
    assert IdempotentRequest.objects.get(key="new").about == f"tournament:{tournament.pk}"
    call_command("purge_idempotency_keys")
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]
    call_command("purge_idempotency_keys", "--days", "0")
    assert not IdempotentRequest.objects.exists()


def test_it_documents_the_header_and_the_422_on_every_write_in_the_schema(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    writes = 0
    for path, operations in schema["paths"].items():
        if not (path.startswith("/api/v1/tournaments/") or path == "/api/v1/games/{token}/confirm/"):
            continue
        for method, operation in operations.items():
            named = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
            if method in ("post", "patch", "put", "delete"):
                writes += 1
                assert "Idempotency-Key" in named, (method, path)
                assert "422" in operation["responses"], (method, path)
            else:
                assert "Idempotency-Key" not in named, (method, path)
    assert writes == 19
    # Asking for advice writes nothing: the header is documented as accepted and not needed (issue 31).
    advise = schema["paths"]["/api/v1/rulings/advise/"]["post"]
    (key,) = [p for p in advise.get("parameters", []) if p["name"] == "Idempotency-Key"]
    assert "writes nothing" in key["description"]
