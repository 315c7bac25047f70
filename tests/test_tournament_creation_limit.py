"""Creating tournaments is rate-limited per client address, page and API together, on the shared
cache like the other limits (issue 20, finding 8): a 429 with Retry-After saying what was done too
often; reads are never counted and nothing is created over the limit."""

from __future__ import annotations

import pytest

from tests.tournaments.api.conftest import client_of
from tests.tournaments.web.conftest import as_user
from tests.tournaments.web.test_it_lists_creates_and_sets_up import NEW
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def low_limit(settings) -> None:
    # An hour window: a test never straddles a window's end.
    settings.RATELIMIT_TOURNAMENT_CREATE = "3/h"


def _create(client, **extra: str):
    return client.post("/api/v1/tournaments/", {"name": "Open", "rounds": 1}, format="json", **extra)


def test_it_answers_429_in_json_past_the_limit_and_creates_nothing() -> None:
    dora = client_of("dora")
    assert [_create(dora).status_code for _ in range(3)] == [201] * 3
    refused = _create(dora)
    assert refused.status_code == 429
    body = refused.json()
    assert body["errors"][0]["where"] == "request"
    assert body["detail"].startswith("Too many tournaments created from here.")
    assert 1 <= int(refused["Retry-After"]) <= 3600 and refused["Retry-After"] in body["detail"]
    assert Tournament.objects.count() == 3
    assert dora.get("/api/v1/tournaments/").status_code == 200  # reads are not counted


def test_it_counts_the_page_and_the_api_together_per_client_address() -> None:
    dora, page = client_of("dora"), as_user("dora")
    assert _create(dora).status_code == 201
    assert page.post("/tournaments/new/", NEW).status_code == 302
    assert _create(dora).status_code == 201
    refused = page.post("/tournaments/new/", NEW)
    assert refused.status_code == 429 and refused["Content-Type"].startswith("text/html")
    assert "Too many tournaments created from here." in refused.content.decode()
    assert page.get("/tournaments/new/").status_code == 200
    assert _create(client_of("cora"), REMOTE_ADDR="10.0.0.2").status_code == 201
    assert Tournament.objects.count() == 4
