"""The OpenAPI schema documents every tournament route with its request and answer shapes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_it_documents_the_tournament_contract_in_the_schema(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    create = paths["/api/v1/tournaments/"]["post"]
    assert set(create["responses"]) >= {"201", "400", "401"}
    players = paths["/api/v1/tournaments/{tournament_id}/players/"]["post"]
    assert {"application/json", "text/csv"} <= set(players["requestBody"]["content"])
    for path in (
        "/api/v1/tournaments/{tournament_id}/rounds/",
        "/api/v1/tournaments/{tournament_id}/rounds/{number}/finalize/",
        "/api/v1/tournaments/{tournament_id}/players/{player_id}/drop/",
        "/api/v1/games/{token}/confirm/",
    ):
        assert "409" in paths[path]["post"]["responses"] or "403" in paths[path]["post"]["responses"], path
    assert "/api/v1/tournaments/{tournament_id}/standings/" in paths
    assert {"Standing", "Standings", "Round", "TournamentCreateRequest"} <= set(
        schema["components"]["schemas"]
    )
    # Token and session authentication are declared for scripts and browsers.
    assert {"tokenAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])
