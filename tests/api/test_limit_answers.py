"""Issue 31 items 3 and 9: the OpenAPI schema says what the API does before any view runs.

Every POST documents the Idempotency-Key header (a future POST without it fails here); every
operation lists the 414 it gives for an over-long address, every operation with a body the 413,
and every rate-limited write the 429 with Retry-After; each documented body is the one sent."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from golfclub.core.limits import MAX_API_URL_LENGTH
from golfclub.core.parsers import MAX_BODY_BYTES
from scoring import services
from tests.tournaments.api.conftest import client_of

pytestmark = pytest.mark.django_db

_METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture
def schema(api: APIClient) -> dict:
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    return response.json()


def _operations(schema: dict):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method in _METHODS:
                yield path, method, operation


def test_every_post_of_the_schema_documents_the_idempotency_key_header(schema):
    posts = 0
    for path, method, operation in _operations(schema):
        if method != "post":
            continue
        posts += 1
        keys = [
            p
            for p in operation.get("parameters", [])
            if p["in"] == "header" and p["name"] == "Idempotency-Key"
        ]
        assert len(keys) == 1, f"POST {path} does not document the Idempotency-Key header"
        described = keys[0]["description"]
        writes = "422" in operation["responses"]
        # A write replays and refuses a reused key (422); a POST that only computes says it is safe.
        assert ("same key" in described and writes) or "writes nothing" in described, (path, described)
    assert posts >= 27  # 27 when this was written: the walk must find them all


def test_every_operation_lists_the_414_and_every_body_the_413_in_the_error_shape(schema):
    for path, method, operation in _operations(schema):
        responses = operation["responses"]
        assert responses["414"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }
        if method != "get":
            assert "413" in responses, (method, path)


def test_the_rate_limited_writes_list_the_429_with_retry_after_and_the_reads_do_not(schema):
    limited = {
        (path, method) for path, method, operation in _operations(schema) if "429" in operation["responses"]
    }
    for expected in [
        ("/api/v1/games/", "post"),
        ("/api/v1/games/{token}/holes/", "post"),
        ("/api/v1/games/{token}/holes/{number}/", "put"),
        ("/api/v1/games/{token}/holes/{number}/", "delete"),
        ("/api/v1/games/{token}/undo/", "post"),
        ("/api/v1/tournaments/", "post"),
    ]:
        assert expected in limited, expected
    assert not any(method == "get" for _path, method in limited)
    answer = schema["paths"]["/api/v1/games/"]["post"]["responses"]["429"]
    assert "Retry-After" in answer["headers"]


def test_the_413_answer_is_the_one_documented(api, schema):
    documented = schema["paths"]["/api/v1/games/"]["post"]["responses"]["413"]
    example = documented["content"]["application/json"]["example"]
    sent = api.generic(
        "POST",
        "/api/v1/games/",
        b"{}",
        content_type="application/json",
        CONTENT_LENGTH=str(MAX_BODY_BYTES + 1),
    )
    assert sent.status_code == 413
    assert sent.json() == example


def test_the_414_answer_is_the_one_documented_and_a_usual_address_passes(api, schema):
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    documented = schema["paths"]["/api/v1/games/{token}/"]["get"]["responses"]["414"]
    too_long = f"/api/v1/games/{game.view_token}/?actor=" + "a" * MAX_API_URL_LENGTH
    sent = api.get(too_long)
    assert sent.status_code == 414
    assert sent.json() == documented["content"]["application/json"]["example"]
    assert api.get(f"/api/v1/games/{game.view_token}/?actor=" + "a" * 100).status_code == 200


@pytest.mark.parametrize(
    ("setting", "url", "who"),
    [
        ("RATELIMIT_GAME_CREATE", "/api/v1/games/", None),
        ("RATELIMIT_TOURNAMENT_CREATE", "/api/v1/tournaments/", "dora"),
        ("RATELIMIT_CLUB_CREATE", "/api/v1/clubs/", "dora"),
    ],
)
def test_the_429_answer_has_the_documented_shape_and_retry_after(settings, schema, setting, url, who):
    cache.clear()
    setattr(settings, setting, "1/h")
    client = client_of(who)
    bodies = {
        "/api/v1/games/": {"players": ["ann", "bob"]},
        "/api/v1/tournaments/": {"name": "Spring Open", "ruleset": "official", "rounds": 1},
        "/api/v1/clubs/": {"name": "Friday Golf"},
    }
    assert client.post(url, bodies[url], format="json").status_code == 201
    refused = client.post(url, bodies[url], format="json")
    cache.clear()
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    documented = schema["paths"][url]["post"]["responses"]["429"]["content"]["application/json"]["example"]
    assert set(refused.json()) == set(documented)
    assert [set(problem) for problem in refused.json()["errors"]] == [set(documented["errors"][0])]
    assert refused.json()["errors"][0]["where"] == documented["errors"][0]["where"]
