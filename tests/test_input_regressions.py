"""Each input the issue reproduced as a 500 (NUL bytes, "²", 5,000-digit numbers, wrong JSON types):
now a 404 or a 400 naming the field, with nothing written.

Cases a form or serializer must refuse run twice: with the input-guard middleware, and without it,
so the fields themselves are shown to validate (the middleware is only the last line of defence).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Game, GameChange, Hole, HoleEntry, IdempotentRequest, Player, Seat

GUARD = "golfclub.middleware.InputGuardMiddleware"
HUGE = "9" * 5000
BAD_NUMBERS = pytest.mark.parametrize(
    "bad", ["²", "٣", "\uff13", HUGE], ids=["superscript", "arabic", "fullwidth", "huge"]
)


@pytest.fixture(autouse=True)
def production(settings) -> None:
    settings.DEBUG = False


@pytest.fixture(params=[True, False], ids=["guarded", "fields-only"])
def guard(request, settings) -> Iterator[bool]:
    """Run with the input-guard middleware, then without it (the forms and serializers alone)."""
    if not request.param:
        settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name != GUARD]
    yield request.param


@pytest.fixture
def game(db) -> Game:
    """Ann, Bob and Cy under the official rules, hole 1 recorded."""
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official", title="Friday")
    services.hole_record(game, entries={"Ann": 3, "Bob": 5, "Cy": 8}, ender=None)
    return game


@pytest.fixture
def web() -> Client:
    return Client(raise_request_exception=False)


@pytest.fixture
def api_client() -> APIClient:
    return APIClient(raise_request_exception=False)


def snapshot() -> tuple[Any, ...]:
    """Everything a write could change."""
    return (
        list(Game.objects.order_by("pk").values_list("pk", "title", "version", "ruleset")),
        list(Seat.objects.order_by("pk").values_list("pk", "name", "total")),
        list(HoleEntry.objects.order_by("pk").values_list("pk", "score", "typed_total")),
        Hole.objects.count(),
        GameChange.objects.count(),
        IdempotentRequest.objects.count(),
        Player.objects.count(),
    )


def json_error(response) -> dict[str, Any]:
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    body = response.json()
    assert body["errors"] and body["detail"], body
    return body


# --------------------------------------------------------------------------------------------
# Tokens with a NUL: 404 without asking the database


@pytest.mark.parametrize(
    "path",
    [
        "/games/e/abc%00def/",
        "/games/v/abc%00def/",
        "/games/v/abc%00def/holes/new/",
        "/games/e/abc%00def/undo/",
    ],
)
def test_it_answers_404_for_a_page_token_holding_a_nul(web, db, path, django_assert_num_queries) -> None:
    with django_assert_num_queries(0):
        response = web.get(path)
    assert response.status_code == 404


@pytest.mark.parametrize("method", ["get", "post", "patch", "delete"])
def test_it_answers_json_404_for_an_api_token_holding_a_nul(
    api_client, db, method, django_assert_num_queries
) -> None:
    with django_assert_num_queries(0):
        response = getattr(api_client, method)("/api/v1/games/abc%00def/", {}, format="json")
    assert response.status_code == 404
    json_error(response)


def test_it_answers_json_404_for_recording_a_hole_through_a_token_holding_a_nul(api_client, db) -> None:
    response = api_client.post("/api/v1/games/abc%00def/holes/", {"entries": {"a": 1}}, format="json")
    assert response.status_code == 404
    json_error(response)
    assert Hole.objects.count() == 0


@pytest.mark.parametrize("token", ["x" * 65, "a b", "a.b", "%C2%B2", "%ED%A0%80"])
def test_it_answers_404_for_any_token_outside_the_token_alphabet(api_client, web, db, token) -> None:
    assert web.get(f"/games/e/{token}/").status_code == 404
    assert api_client.get(f"/api/v1/games/{token}/").status_code == 404


def test_it_finds_no_game_for_a_token_outside_the_alphabet_without_a_query(
    db, django_assert_num_queries
) -> None:
    from scoring.selectors import game_for_token

    with django_assert_num_queries(0):
        assert game_for_token("abc\x00def") is None
        assert game_for_token("x" * 65) is None
        assert game_for_token("") is None


# --------------------------------------------------------------------------------------------
# NUL in form fields and query parameters


def test_it_refuses_a_player_name_with_a_nul_when_starting_a_game(web, db, guard) -> None:
    data = "ruleset=official&player=a%00b&player=Bob&first_dealer=0&start_key=k1"
    response = web.post("/games/new/", data, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    assert Game.objects.count() == 0


def test_it_refuses_a_player_name_with_a_nul_on_the_players_screen(web, db, guard) -> None:
    response = web.get("/games/new/?step=dealer&ruleset=official&player=a%00b&player=Bob")
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


@pytest.mark.parametrize(
    ("method", "path"),
    [("post", "undo/"), ("delete", "holes/1/"), ("post", "players/"), ("patch", "")],
)
def test_it_refuses_an_actor_with_a_nul_in_the_query(api_client, game, guard, method, path) -> None:
    before = snapshot()
    body = {"name": "Dee"} if path == "players/" else {"ruleset": "basic"} if path == "" else {}
    response = getattr(api_client, method)(
        f"/api/v1/games/{game.edit_token}/{path}?actor=a%00b", body, format="json", HTTP_IF_MATCH="*"
    )
    assert response.status_code == 400, response.content
    body = json_error(response)
    assert "NUL" in body["detail"]
    assert snapshot() == before


def test_it_names_the_actor_query_parameter_when_the_fields_alone_refuse_it(
    api_client, game, settings
) -> None:
    settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if name != GUARD]
    response = api_client.post(f"/api/v1/games/{game.edit_token}/undo/?actor=a%00b", {}, format="json")
    assert response.status_code == 400
    assert json_error(response)["errors"][0]["where"] == "actor"


@pytest.mark.parametrize(
    "data",
    [{"action": "title", "title": "a\x00b"}, {"action": "rename", "seat": "0", "name": "a\x00b"}],
    ids=["title", "name"],
)
def test_it_refuses_a_nul_on_the_settings_page(web, game, guard, data) -> None:
    before = snapshot()
    response = web.post(f"/games/e/{game.edit_token}/settings/", data)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()
    assert snapshot() == before


def hole_2(**extra: str) -> dict[str, str]:
    return {
        "p0-total": "1",
        "p1-total": "2",
        "p2-total": "3",
        "number": "2",
        "idempotency_key": "k2",
        **extra,
    }


@pytest.mark.parametrize(
    "data",
    [
        hole_2(scorer="a\x00b"),
        hole_2(idempotency_key="a\x00b"),
        hole_2(idempotency_key="a\x00b", number="1"),  # the "moved on" path looks the key up
    ],
    ids=["scorer", "idempotency-key", "idempotency-key-moved-on"],
)
def test_it_refuses_a_nul_in_the_hole_form(web, game, guard, data) -> None:
    before = snapshot()
    response = web.post(f"/games/e/{game.edit_token}/holes/new/", data)
    assert response.status_code in (400, 409), response.status_code
    if response.status_code == 400:
        assert "NUL" in response.content.decode()
    assert snapshot() == before


# --------------------------------------------------------------------------------------------
# "²", "٣", full-width and 5,000-digit numbers


@BAD_NUMBERS
def test_it_refuses_a_bad_seat_number_on_the_settings_page(web, game, bad) -> None:
    before = snapshot()
    response = web.post(
        f"/games/e/{game.edit_token}/settings/", {"action": "rename", "seat": bad, "name": "Zed"}
    )
    assert response.status_code == 400
    assert "whole number" in response.content.decode() or "digits" in response.content.decode()
    assert snapshot() == before


@BAD_NUMBERS
def test_it_refuses_a_bad_version_when_deleting_a_hole(web, game, bad) -> None:
    before = snapshot()
    response = web.post(f"/games/e/{game.edit_token}/holes/1/delete/", {"version": bad})
    assert response.status_code == 400
    assert "version" in response.content.decode()
    assert snapshot() == before


@BAD_NUMBERS
def test_it_refuses_a_bad_hole_number_in_the_hole_form(web, game, bad) -> None:
    before = snapshot()
    response = web.post(f"/games/e/{game.edit_token}/holes/new/", hole_2(number=bad))
    assert response.status_code == 400
    assert snapshot() == before


@BAD_NUMBERS
@pytest.mark.parametrize("field", ["p0-total", "ender", "version"])
def test_it_refuses_a_bad_number_in_the_hole_correction_form(web, game, bad, field) -> None:
    before = snapshot()
    data = {"p0-total": "1", "p1-total": "2", "p2-total": "3", "version": "1", field: bad}
    response = web.post(f"/games/e/{game.edit_token}/holes/1/", data)
    assert response.status_code == 400
    assert snapshot() == before


@BAD_NUMBERS
def test_it_refuses_a_bad_blocks_count_in_the_hole_form(web, db, bad) -> None:
    block = {"points": -20, "others_add": 0}
    game = services.create_game(
        players=["Ann", "Bob"], ruleset={"preset": "eight-card", "four_of_a_kind_block": block}
    )
    response = web.post(
        f"/games/e/{game.edit_token}/holes/new/",
        {"p0-total": "1", "p0-blocks": bad, "p1-total": "2", "number": "1"},
    )
    assert response.status_code == 400
    assert Hole.objects.count() == 0


@BAD_NUMBERS
def test_it_refuses_a_bad_hole_number_in_the_preview_query(web, game, bad) -> None:
    response = web.post(f"/games/e/{game.edit_token}/preview/?hole={bad}", {})
    assert response.status_code == 400


@BAD_NUMBERS
@pytest.mark.parametrize("field", ["p0-total", "ender", "p0-blocks"])
def test_it_previews_without_the_bad_number(web, game, bad, field) -> None:
    response = web.post(f"/games/e/{game.edit_token}/preview/", {"p1-total": "2", field: bad})
    assert response.status_code == 200


@BAD_NUMBERS
def test_it_refuses_a_bad_number_on_the_score_page(web, db, bad) -> None:
    response = web.get("/score/", {"mode": "hole", "players": bad, "ender": bad, "preset": "official"})
    assert response.status_code == 200
    response = web.get("/score/", {"preset": "official", "rules_for": "official", "value_Q": bad})
    assert response.status_code == 200
    assert "digits 0-9" in response.content.decode() or "digits" in response.content.decode()


@pytest.mark.parametrize("etag", ['"hole-' + "9" * 5000 + '"', '"hole-٣"', '"hole-99999999999"'])
def test_it_answers_412_for_an_if_match_no_version_could_have(api_client, game, etag) -> None:
    before = snapshot()
    response = api_client.patch(
        f"/api/v1/games/{game.edit_token}/holes/1/",
        {"entries": {"Ann": 4}},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert response.status_code == 412
    assert snapshot() == before


# --------------------------------------------------------------------------------------------
# Wrong JSON types


@pytest.fixture
def fresh(db) -> Game:
    """A game before its first hole: players may still join."""
    return services.create_game(players=["Ann", "Bob"], ruleset="official")


@pytest.mark.parametrize(
    ("method", "path", "body", "where"),
    [
        ("post", "players/", {"name": 0}, "name"),
        ("post", "players/", {"name": True}, "name"),
        ("post", "players/", {"name": ["Dee"]}, "name"),
        ("patch", "players/0/", {"name": 0}, "name"),
        ("post", "undo/", {"actor": 0}, "actor"),
        ("patch", "", {"title": 5}, "title"),
        ("patch", "", {"title": "a\x00b"}, "title"),
        ("post", "holes/", {"entries": {"Ann": 3, "Bob": 4}, "ender": 0}, "ender"),
        (
            "post",
            "holes/",
            {"entries": {"Ann": 3, "Bob": 4}, "blocks_marked": {"Ann": True}},
            "blocks_marked.Ann",
        ),
        (
            "post",
            "holes/",
            {"entries": {"Ann": 3, "Bob": 4}, "blocks_marked": {"Ann": "1"}},
            "blocks_marked.Ann",
        ),
        ("post", "holes/", {"entries": {"Ann": 3, "B\x00b": 4}}, "entries"),
    ],
)
def test_it_refuses_a_wrong_json_type_naming_the_field(api_client, fresh, method, path, body, where) -> None:
    before = snapshot()
    response = getattr(api_client, method)(f"/api/v1/games/{fresh.edit_token}/{path}", body, format="json")
    assert response.status_code == 400, response.content
    errors = json_error(response)["errors"]
    assert any(error["where"].startswith(where) for error in errors), errors
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"players": [1, 2]}, "players[1]"),
        ({"players": ["Ann", "Bob"], "title": 5}, "title"),
        ({"players": ["Ann", "Bob"], "first_dealer": "0"}, "first_dealer"),
        ({"players": ["Ann", "Bob"], "first_dealer": True}, "first_dealer"),
        ({"players": ["Ann", "Bob"], "first_dealer": 10**40}, "first_dealer"),
        ({"players": ["A\x00n", "Bob"]}, "players[1]"),
    ],
)
def test_it_refuses_a_wrong_json_type_when_starting_a_game(api_client, db, body, where) -> None:
    response = api_client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400, response.content
    errors = json_error(response)["errors"]
    assert any(error["where"] == where for error in errors), errors
    assert Game.objects.count() == 0


def test_it_refuses_a_wrong_json_type_on_the_roster(api_client, db, django_user_model) -> None:
    api_client.force_login(django_user_model.objects.create_user("sam", password="pw"))
    response = api_client.post("/api/v1/players/", {"name": 0}, format="json")
    assert response.status_code == 400
    assert json_error(response)["errors"][0]["where"] == "name"
    assert Player.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "where"), [({"total": "3"}, "total"), ({"total": 3, "blocks_marked": 2.0}, "blocks_marked")]
)
def test_it_refuses_a_wrong_json_type_in_one_entry(api_client, game, body, where) -> None:
    before = snapshot()
    response = api_client.put(
        f"/api/v1/games/{game.edit_token}/holes/1/entries/0/", body, format="json", HTTP_IF_MATCH="*"
    )
    assert response.status_code == 400
    assert json_error(response)["errors"][0]["where"] == where
    assert snapshot() == before
