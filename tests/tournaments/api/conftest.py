"""Personas of the tournament API tests: Dora directs, Cora co-directs, Olive officiates, Sam is a
stranger with an account, and the anonymous visitor; API clients logged in as each (session)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import user
from tournaments import services
from tournaments.models import Tournament


def client_of(username: str | None) -> APIClient:
    """An API client logged in (by session, CSRF not enforced) as `username`, or anonymous."""
    client = APIClient()
    if username:
        client.force_login(user(username))
    return client


@pytest.fixture
def as_user(db) -> Callable[[str | None], APIClient]:
    """as_user("dora") -> a client logged in as Dora (None: anonymous)."""
    return client_of


@pytest.fixture
def dora(db) -> APIClient:
    """The director's client."""
    return client_of("dora")


def with_staff(tournament: Tournament) -> Tournament:
    """Give `tournament` its co-director Cora and official Olive (Sam exists and has no role)."""
    services.add_staff(tournament, user("cora").username, "co_director")
    services.add_staff(tournament, user("olive").username, "official")
    user("sam")
    return tournament


def create(client: APIClient, **body: Any) -> dict[str, Any]:
    """Create a tournament through the API (201), answering its body."""
    body = {
        "name": "Spring Open",
        "ruleset": "official",
        "rounds": 3,
        "seating": "fewest_repeats",
        "seed": 42,
    } | body
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def csv_post(client: APIClient, tournament_id: int, text: str) -> Any:
    """POST a CSV player list as `text/csv`."""
    return client.generic(
        "POST", f"/api/v1/tournaments/{tournament_id}/players/", text.encode(), content_type="text/csv"
    )
