"""Rate limits: game creation per client address, hole writes per game link; 429 with Retry-After.

The limits are lowered here (tests/settings.py raises them for the rest of the suite). The counters
live in the shared cache: the database cache table by default, so they hold across processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from golfclub.cache import DatabaseCache
from scoring import services

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def low_limits(settings) -> None:
    # Hour windows, as the settings' own; the clock is stopped (`stopped_clock`): no window ends mid-test.
    settings.RATELIMIT_GAME_CREATE = "5/h,50/d"
    settings.RATELIMIT_HOLE_WRITES = "4/h"


@pytest.fixture
def fresh_cache(transactional_db) -> Iterator[None]:
    """Committed counters outlive a transactional test (the cache table is no model): clear them."""
    cache.clear()
    yield
    cache.clear()


class StoppedClock:
    """`time` as the rate limits see it (django-ratelimit's windows, golfclub's Retry-After), stopped
    at `now`: every request of a test is counted in one window, whenever it runs. The windows are
    fixed (requests on either side of a window's end are counted apart), so a test that needs its
    requests counted together would otherwise fail by the clock, or have to sleep past the end."""

    def __init__(self, now: int) -> None:
        self.now = now

    def time(self) -> float:
        return float(self.now)

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


# What a second process runs, once Django is set up, to stop its rate limits' clock at `{now}`.
STOP_THE_CLOCK = (
    "import time, types, django_ratelimit.core, golfclub.core.rate_limits; "
    "clock = types.SimpleNamespace(time=lambda: float({now})); "
    "django_ratelimit.core.time = clock; golfclub.core.rate_limits.time = clock; "
)


@pytest.fixture(autouse=True)
def stopped_clock(monkeypatch) -> int:
    """The rate limits' clock stopped at the present second, in this process, for every test here:
    answers that second (a second process stops its own with `STOP_THE_CLOCK`)."""
    clock = StoppedClock(int(time.time()))
    monkeypatch.setattr("django_ratelimit.core.time", clock)
    monkeypatch.setattr("golfclub.core.rate_limits.time", clock)
    return clock.now


def create_api(api: APIClient, **extra: str):
    return api.post("/api/v1/games/", {"players": ["Ann", "Bob"]}, format="json", **extra)


def assert_429(response) -> int:
    """A 429 in the API's error shape with a usable Retry-After; answers the seconds to wait."""
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["errors"][0]["where"] == "request" and "Too many requests" in body["detail"]
    wait = int(response["Retry-After"])
    assert 1 <= wait <= 3600
    assert str(wait) in body["detail"]
    return wait


@pytest.mark.django_db
def test_it_answers_429_with_retry_after_in_json_to_a_game_creation_flood(api: APIClient) -> None:
    answers = [create_api(api).status_code for _ in range(5)]
    assert answers == [201] * 5
    assert_429(create_api(api))
    # Reads are never counted.
    assert api.get("/api/v1/rulesets/").status_code == 200


@pytest.mark.django_db
def test_it_counts_game_creation_per_client_address(api: APIClient) -> None:
    for _ in range(5):
        assert create_api(api, REMOTE_ADDR="10.0.0.1").status_code == 201
    assert create_api(api, REMOTE_ADDR="10.0.0.1").status_code == 429
    assert create_api(api, REMOTE_ADDR="10.0.0.2").status_code == 201


@pytest.mark.django_db
def test_it_takes_the_client_address_from_the_configured_proxy_header(api: APIClient, settings) -> None:
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    # Behind the balancer every request has its address; the header's last entry is the client.
    for _ in range(5):
        assert create_api(api, HTTP_X_FORWARDED_FOR="6.6.6.6, 10.0.0.1").status_code == 201
    assert create_api(api, HTTP_X_FORWARDED_FOR="7.7.7.7, 10.0.0.1").status_code == 429
    assert create_api(api, HTTP_X_FORWARDED_FOR="6.6.6.6, 10.0.0.2").status_code == 201


@pytest.mark.django_db
def test_it_answers_a_page_with_retry_after_to_a_game_creation_flood_on_pages(client: Client) -> None:
    for index in range(5):
        data = {
            "ruleset": "official",
            "player": ["Ann", "Bob"],
            "first_dealer": "0",
            "start_key": f"k{index}",
        }
        assert client.post("/games/new/", data).status_code == 302
    response = client.post(
        "/games/new/", {"ruleset": "official", "player": ["Ann", "Bob"], "start_key": "k9"}
    )
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert response["Content-Type"].startswith("text/html")
    assert "Too many requests. Try again in" in response.content.decode()
    # The first screen (a GET) still opens.
    assert client.get("/games/new/").status_code == 200


@pytest.mark.django_db
def test_it_limits_hole_writes_per_game_link_across_pages_and_api(api: APIClient, client: Client) -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    other = services.create_game(players=["Cy", "Dee"], ruleset="official")
    token = game.edit_token
    # Four writes of any kind count, whether they succeed or not: a bad body, a page post, undo.
    assert api.post(f"/api/v1/games/{token}/holes/", {"entries": "x"}, format="json").status_code == 400
    assert api.post(f"/api/v1/games/{token}/holes/", {"entries": "x"}, format="json").status_code == 400
    assert client.post(f"/games/e/{token}/holes/new/", {"p0-total": "5", "p1-total": "9"}).status_code in {
        200,
        302,
    }
    assert api.post(f"/api/v1/games/{token}/undo/", format="json").status_code != 429
    assert_429(api.post(f"/api/v1/games/{token}/holes/", {"entries": "x"}, format="json"))
    assert_429(api.delete(f"/api/v1/games/{token}/holes/1/"))
    page = client.post(f"/games/e/{token}/holes/new/", {"p0-total": "5", "p1-total": "9"})
    assert page.status_code == 429 and int(page["Retry-After"]) >= 1
    # Reading the game is not a write; another game has its own counter.
    assert api.get(f"/api/v1/games/{token}/").status_code == 200
    assert client.get(f"/games/e/{token}/").status_code == 200
    assert (
        api.post(f"/api/v1/games/{other.edit_token}/holes/", {"entries": "x"}, format="json").status_code
        == 400
    )


def test_it_keeps_the_counters_in_a_shared_cache_never_in_process_memory() -> None:
    # tests/settings.py keeps the project's CACHES: the database cache unless REDIS_URL is set.
    assert isinstance(caches["default"], DatabaseCache) or os.environ.get("REDIS_URL")
    assert "LocMemCache" not in caches["default"].__class__.__name__


@pytest.mark.postgres
def test_it_counts_requests_from_another_process_against_the_same_limit(
    api: APIClient, settings, fresh_cache, stopped_clock: int
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the test database must be reachable from a second process: needs PostgreSQL")
    for _ in range(4):
        assert create_api(api).status_code == 201
    # A second Python process, with its own Django, cache object and database connection, makes the
    # fifth and sixth requests from the same address: it sees the four counted here.
    script = (
        "import django, json; django.setup(); "
        + STOP_THE_CLOCK.format(now=stopped_clock)
        + "from django.conf import settings; "
        "settings.RATELIMIT_GAME_CREATE = '5/h,50/d'; settings.ALLOWED_HOSTS = ['testserver']; "
        "from rest_framework.test import APIClient; c = APIClient(); "
        "print(json.dumps([c.post('/api/v1/games/', {'players': ['A', 'B']}, format='json').status_code "
        "for _ in range(2)]))"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": _url_of_test_database(settings),
    }
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [201, 429]
    # And back here, the other process's requests count too.
    assert_429(create_api(api))


@pytest.mark.postgres
def test_it_counts_every_one_of_many_parallel_requests(fresh_cache) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("parallel writers on one counter need PostgreSQL row locks")
    shared = caches["default"]
    shared.add("parallel-counter", 0, 60)
    errors: list[BaseException] = []

    def bump() -> None:
        from django.db import connections

        try:
            for _ in range(25):
                shared.incr("parallel-counter")
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    # Django's own DatabaseCache.incr reads and writes back, losing increments under concurrency.
    assert shared.get("parallel-counter") == 100


def _url_of_test_database(settings) -> str:
    """DATABASE_URL of the test database this test runs in (test_<name>)."""
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


@pytest.mark.django_db
def test_it_limits_confirmations_through_a_table_link_on_the_page_and_the_api() -> None:
    """A table's link is a game link: its confirmation (page or API) counts with its hole writes, so a
    script cannot hammer the confirmation of a table it holds the link of."""
    from tests.tournaments.helpers import event, play_round
    from tournaments.models import Table

    tournament = event(4, rounds=1, holes=2)
    play_round(tournament, confirm=False)
    table = Table.objects.select_related("game").get(round__tournament=tournament)
    token = table.game.edit_token
    api, page = APIClient(), Client()
    answers = [api.post(f"/api/v1/games/{token}/confirm/", {"by": "P01"}, format="json") for _ in range(2)]
    confirm = {"action": "confirm", "by": "P01"}
    answers += [page.post(f"/tournaments/table/{token}/", confirm) for _ in range(2)]
    assert [a.status_code for a in answers[:2]] == [200, 200]  # confirming again answers the same
    assert all(a.status_code != 429 for a in answers)
    assert_429(api.post(f"/api/v1/games/{token}/confirm/", {"by": "P01"}, format="json"))
    assert page.post(f"/tournaments/table/{token}/", {"action": "confirm", "by": "P01"}).status_code == 429
    table.refresh_from_db()
    assert table.confirmed_by is not None and table.confirmed_by.name == "P01"
