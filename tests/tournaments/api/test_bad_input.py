"""Bad input of every kind answers 400 in the error shape naming where, never a 500, never a
partial write: NUL bytes, Unicode digits, 10**30, wrong JSON types, unknown keys, huge bodies."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, EventLogEntry, Round, Staff, Table, TableSeat, Tournament

from .conftest import create, csv_post

pytestmark = pytest.mark.django_db


def state() -> tuple[Any, ...]:
    return (
        list(
            Tournament.objects.order_by("pk").values_list(
                "pk", "name", "ruleset", "seed", "version", "public"
            )
        ),
        list(Entrant.objects.order_by("pk").values_list("pk", "name", "status", "checked_in")),
        list(Round.objects.order_by("pk").values_list("pk", "status")),
        list(TableSeat.objects.order_by("pk").values_list("pk", "entrant_id")),
        list(Table.objects.order_by("pk").values_list("pk", "confirmed_at", "disputed_at")),
        Staff.objects.count(),
        EventLogEntry.objects.count(),
    )


CREATE_CASES = [
    ({"name": "a\x00b"}, "name"),
    ({"name": 7}, "name"),
    ({"name": ""}, "name"),
    ({"name": "x" * 500}, "name"),
    ({"name": "Open", "rounds": "٣"}, "rounds"),
    ({"name": "Open", "rounds": "3"}, "rounds"),
    ({"name": "Open", "rounds": 3.0}, "rounds"),
    ({"name": "Open", "rounds": True}, "rounds"),
    ({"name": "Open", "rounds": 22}, "rounds"),
    ({"name": "Open", "rounds": 0}, "rounds"),
    ({"name": "Open", "seed": 10**30}, "seed"),
    ({"name": "Open", "seed": -1}, "seed"),
    ({"name": "Open", "seating": "best"}, "seating"),
    ({"name": "Open", "seating": ["random"]}, "seating"),
    ({"name": "Open", "ruleset": "nope"}, "ruleset"),
    ({"name": "Open", "ruleset": {"preset": "official", "holes": 10**30}}, "ruleset.holes"),
    ({"name": "Open", "ruleset": 5}, "ruleset"),
    ({"name": "Open", "tiebreakers": ["countback", "countback"]}, "tiebreakers"),
    ({"name": "Open", "tiebreakers": ["coin_toss"]}, "tiebreakers"),
    ({"name": "Open", "tiebreakers": "countback"}, "tiebreakers"),
    ({"name": "Open", "public": "yes"}, "public"),
    ({"name": "Open", "date": "2026-13-01"}, "date"),
    ({"name": "Open", "date": "٢٠٢٦-01-01"}, "date"),
    ({"name": "Open", "standings_release": "never"}, "standings_release"),
    ({"name": "Open", "time_limit_minutes": 10**30}, "time_limit_minutes"),
    ({"name": "Open", "colour": "red"}, "colour"),
    ([], "body"),
    ("Open", "body"),
]


@pytest.mark.parametrize(("body", "where"), CREATE_CASES)
def test_it_refuses_a_bad_tournament_naming_where(dora: APIClient, body: Any, where: str) -> None:
    before = state()
    response = dora.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400, response.content
    wheres = [e["where"] for e in response.json()["errors"]]
    assert any(w == where or w.startswith(where + "[") for w in wheres), wheres
    assert state() == before


@pytest.mark.parametrize(
    "raw",
    [b'{"name": ', b"\xff\xfe", b"[" * 5000 + b"]" * 5000, b'{"name": NaN}', b'{"name": "\\ud800"}'],
)
def test_it_refuses_a_body_that_is_not_json(dora: APIClient, raw: bytes) -> None:
    response = dora.generic("POST", "/api/v1/tournaments/", raw, content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["where"] == "body"
    assert not Tournament.objects.exists()


def test_it_refuses_a_huge_body_with_413(dora: APIClient) -> None:
    body = json.dumps({"name": "x" * 300_000})
    response = dora.generic("POST", "/api/v1/tournaments/", body, content_type="application/json")
    assert response.status_code == 413 and response.json()["errors"][0]["where"] == "body"
    assert not Tournament.objects.exists()


PLAYER_CASES = [
    ({"name": "a\x00b"}, "name"),
    ({"name": None}, "name"),
    ({"name": ["Ann"]}, "name"),
    ({"name": "Ann", "rating": "٣"}, "rating"),
    ({"name": "Ann", "rating": 10**30}, "rating"),
    ({"name": "Ann", "rating": 1.5}, "rating"),
    ({"name": "Ann", "club": 3}, "club"),
    ({"name": "Ann", "club": "x\x00"}, "club"),
    ({"name": "Ann", "status": "active"}, "status"),
    ({}, "name"),
]


@pytest.mark.parametrize(("body", "where"), PLAYER_CASES)
def test_it_refuses_a_bad_player_naming_where(dora: APIClient, body: Any, where: str) -> None:
    tid = create(dora)["id"]
    before = state()
    response = dora.post(f"/api/v1/tournaments/{tid}/players/", body, format="json")
    assert response.status_code == 400, response.content
    assert where in [e["where"] for e in response.json()["errors"]]
    assert state() == before


CSV_CASES = [
    ("name\nAnn\n\x00Bob\n", "line 3"),
    ("name,rating\nAnn,٣\n", "line 2"),
    ("name,rating\nAnn,1\nBob," + "9" * 30 + "\n", "line 3"),
    ("name\nAnn\nann\n", "line 3"),
    ("club\nElm\n", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "where"), CSV_CASES)
def test_it_refuses_a_bad_csv_naming_the_line_and_creates_nobody(
    dora: APIClient, text: str, where: str | None
) -> None:
    tid = create(dora)["id"]
    before = state()
    response = csv_post(dora, tid, text)
    assert response.status_code == 400, response.content
    if where:
        assert where in [e["where"] for e in response.json()["errors"]]
    assert state() == before


def test_it_refuses_a_csv_that_is_not_utf8(dora: APIClient) -> None:
    tid = create(dora)["id"]
    response = dora.generic(
        "POST",
        f"/api/v1/tournaments/{tid}/players/",
        "name\nJosé\n".encode("latin-1"),
        content_type="text/csv",
    )
    assert response.status_code == 400 and response.json()["errors"][0]["where"] == "body"
    assert not Entrant.objects.exists()


@pytest.fixture
def seated() -> Tournament:
    tournament = event(8, rounds=2, holes=1)
    services.seat_next_round(tournament)
    return tournament


ROUND_CASES = [
    ("rounds/1/swap/", {"players": [1], "reason": "x"}, "players"),
    ("rounds/1/swap/", {"players": ["1", "2"], "reason": "x"}, "players[1]"),
    ("rounds/1/swap/", {"players": [10**30, 1], "reason": "x"}, "players[1]"),
    ("rounds/1/swap/", {"players": "1,2", "reason": "x"}, "players"),
    ("rounds/1/finalize/", {"override": "yes"}, "override"),
    ("rounds/1/finalize/", {"override": True, "reason": "\x00"}, "reason"),
    ("rounds/1/publish/", {"now": True}, "now"),
    ("rounds/", {"number": 2}, "number"),
    ("players/{pid}/check-in/", {"checked_in": 1}, "checked_in"),
    ("players/{pid}/drop/", {"reason": 5}, "reason"),
    ("staff/", {"username": "x\x00", "role": "official"}, "username"),
    ("staff/", {"username": "sam", "role": "boss"}, "role"),
    ("staff/", {"username": "nobody", "role": "official"}, "username"),
    ("", {"rounds": "٢"}, "rounds"),
]


@pytest.mark.parametrize(("path", "body", "where"), ROUND_CASES)
def test_it_refuses_bad_writes_naming_where(
    dora: APIClient, seated: Tournament, path: str, body: Any, where: str
) -> None:
    user("sam")
    pid = Entrant.objects.filter(tournament=seated).first().pk
    url = f"/api/v1/tournaments/{seated.pk}/" + path.format(pid=pid)
    before = state()
    method = "PATCH" if path == "" else "POST"
    response = dora.generic(method, url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert where in [e["where"] for e in response.json()["errors"]], response.json()
    assert state() == before


def test_it_refuses_a_bad_confirmation_naming_where() -> None:
    tournament = event(8, rounds=1, holes=1)
    play_round(tournament, confirm=False)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").first()
    url = f"/api/v1/games/{table.game.edit_token}/confirm/"
    before = state()
    for body, where in [
        ({"by": 3}, "by"),
        ({"by": "P01\x00"}, "by"),
        ({}, "by"),
        ({"by": "P01", "disagree": "true"}, "disagree"),
        ({"by": "P01", "note": "x" * 501}, "note"),
        ({"by": "P01", "extra": 1}, "extra"),
    ]:
        response = APIClient().post(url, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert where in [e["where"] for e in response.json()["errors"]], body
    assert state() == before


def test_it_answers_the_list_page_parameter_strictly(dora: APIClient) -> None:
    for page in ("٣", "0", "9" * 30, "x"):
        response = dora.get(f"/api/v1/tournaments/?page={page}")
        assert response.status_code == 400 and response.json()["errors"][0]["where"] == "page"
    assert dora.get("/api/v1/tournaments/?page=7").json()["results"] == []
