"""Every rate of a write counted in one round trip (golfclub/cache.py `count_hits`): one statement on
the database cache, one script (EVALSHA) on Redis. The limits still refuse at the limit, the counters still
live in the shared cache (readable by `get` and django-ratelimit's `get_usage`), and a Redis that does
not answer still leaves the counting to PostgreSQL.
"""

from __future__ import annotations

import gc
import threading
import time

import pytest
import redis
from django.core.cache import cache, caches
from django.db import connection
from django.test import RequestFactory
from django_ratelimit.core import get_usage
from rest_framework.test import APIClient

from golfclub.cache import ResilientRedisCache
from golfclub.core.rate_limits import _token_key
from scoring import db_batch, services
from tests.faults.helpers import private_redis
from tests.games.test_concurrency_pg import at_once
from tests.games.test_query_counts import HOLE_POST_BUDGET

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="one statement for every counter needs PostgreSQL"
)


@pytest.fixture(autouse=True)
def low_limits(settings) -> None:
    # Hour and day windows: a test never straddles a window's end.
    settings.RATELIMIT_HOLE_WRITES = "3/h,5/d"


@pytest.fixture
def fresh_cache(transactional_db):
    """Committed counters outlive a transactional test (the cache table is no model): clear them."""
    cache.clear()
    yield
    cache.clear()


def hole(api: APIClient, token: str, n: int):
    """POST hole `n` of a two-player game (typed totals) with an Idempotency-Key."""
    body = {"entries": {"Ann": n, "Bob": 10 - n}}
    return api.post(f"/api/v1/games/{token}/holes/", body, format="json", HTTP_IDEMPOTENCY_KEY=f"k-{n}")


def usage(token: str, rate: str) -> int:
    """django-ratelimit's own reading of a game link's counter for `rate` (nothing counted)."""
    request = RequestFactory().post(f"/api/v1/games/{token}/holes/")
    request.resolver_match = type("Match", (), {"kwargs": {"token": token}})()
    found = get_usage(
        request,
        group=f"hole-writes:{rate}",
        key=_token_key,
        rate=rate,
        method=("POST", "PUT", "PATCH", "DELETE"),
        increment=False,
    )
    return found["count"]


@on_postgresql
@pytest.mark.django_db
def test_the_database_cache_counts_every_rate_in_one_statement(django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        assert cache.count_hits({"rate:a": 60, "rate:b": 3600}) == {"rate:a": 1, "rate:b": 1}
    with django_assert_num_queries(1):
        assert cache.count_hits({"rate:a": 60, "rate:b": 3600}) == {"rate:a": 2, "rate:b": 2}
    assert cache.get("rate:a") == 2 and cache.get("rate:b") == 2  # read as any value of the cache


@on_postgresql
@pytest.mark.django_db
def test_an_expired_counter_starts_again_with_its_new_expiry() -> None:
    cache.count_hits({"rate:old": 60})
    cache.count_hits({"rate:old": 60})
    with connection.cursor() as cursor:
        cursor.execute("UPDATE golfclub_cache SET expires = now() - interval '1 second'")
    assert cache.get("rate:old") is None
    assert cache.count_hits({"rate:old": 60}) == {"rate:old": 1}
    assert cache.get("rate:old") == 1  # live again: the expiry was renewed


@pytest.mark.django_db
def test_a_counter_stored_by_add_is_counted_on_from_its_value() -> None:
    cache.add("rate:added", 7, 60)  # Django's own pickle, as django-ratelimit's `add` stores it
    assert cache.count_hits({"rate:added": 60}) == {"rate:added": 8}
    assert cache.count_hits({"rate:added": 60}) == {"rate:added": 9}
    assert cache.get("rate:added") == 9


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_parallel_requests_are_each_counted_once(fresh_cache) -> None:
    def hit() -> None:
        for _ in range(25):
            caches["default"].count_hits({"rate:p1": 60, "rate:p2": 3600})

    results = at_once(hit, hit, hit, hit)
    assert results == [None] * 4, results
    assert cache.get("rate:p1") == 100 and cache.get("rate:p2") == 100


@pytest.mark.django_db
def test_live_counters_of_many_game_links_outlive_the_cache_s_culling() -> None:
    # With Django's default size (300 entries), this set deleted a third of the live counters.
    for index in range(400):
        cache.count_hits({f"rate:{index:04d}": 3600})
    cache.set("tournaments:standings", b"blob", 60)
    assert [cache.get(f"rate:{index:04d}") for index in range(400)] == [1] * 400


@pytest.mark.django_db
def test_hole_writes_are_refused_at_the_limit_and_read_by_django_ratelimit() -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    api = APIClient()
    assert [hole(api, game.edit_token, n).status_code for n in (1, 2, 3)] == [201, 201, 201]
    refused = hole(api, game.edit_token, 4)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 3600
    assert usage(game.edit_token, "3/h") == 4 and usage(game.edit_token, "5/d") == 4


@pytest.mark.django_db
def test_counting_both_rates_costs_a_hole_post_one_statement(django_assert_max_num_queries) -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    api = APIClient()
    # PostgreSQL: the hole's statements and the counters' one; elsewhere `add` and `incr` per rate.
    budget = HOLE_POST_BUDGET + (1 if db_batch.sends_at_once() else 12)
    with django_assert_max_num_queries(budget):
        assert hole(api, game.edit_token, 1).status_code == 201


def redis_backend(url: str) -> ResilientRedisCache:
    """The Redis backend as settings.py configures it, falling back to the test database's cache."""
    return ResilientRedisCache(
        url,
        {
            "FALLBACK": "default",
            "RETRY_SECONDS": 5,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    )


@pytest.mark.django_db
def test_redis_counts_every_rate_in_one_round_trip_with_expiries() -> None:
    with private_redis() as server:
        shared = redis_backend(server.url)
        raw = redis.Redis(port=server.port)
        assert shared.count_hits({"rate:a": 65, "rate:b": 3605}) == {"rate:a": 1, "rate:b": 1}
        raw.config_resetstat()  # the first use also loaded the script into this server
        assert shared.count_hits({"rate:a": 65, "rate:b": 3605}) == {"rate:a": 2, "rate:b": 2}
        stats = raw.info("commandstats")
        # One command from the client; inside it, SET NX and INCR per counter.
        assert stats["cmdstat_evalsha"]["calls"] == 1
        assert stats["cmdstat_set"]["calls"] == 2 and stats["cmdstat_incr"]["calls"] == 2
        assert "cmdstat_exec" not in stats and "cmdstat_eval" not in stats
        assert shared.get("rate:a") == 2  # read as any value of the cache
        assert 0 < raw.ttl(shared.make_key("rate:a")) <= 65
        assert 3600 < raw.ttl(shared.make_key("rate:b")) <= 3605


@pytest.mark.django_db
def test_redis_that_forgot_the_script_still_counts() -> None:
    # A restarted Redis (or SCRIPT FLUSH) no longer knows the script: it is loaded again, and the
    # counters go on from where they stand.
    with private_redis() as server:
        shared = redis_backend(server.url)
        assert shared.count_hits({"rate:f": 60}) == {"rate:f": 1}
        redis.Redis(port=server.port).script_flush()
        assert shared.count_hits({"rate:f": 60}) == {"rate:f": 2}
        assert caches["default"].get("rate:f") is None  # counted in Redis, not in the fallback


@pytest.mark.django_db
def test_redis_that_forbids_scripts_counts_with_a_pipeline() -> None:
    # Some managed Redis servers give an app no right to run scripts (an ACL without @scripting).
    with private_redis() as server:
        raw = redis.Redis(port=server.port)
        raw.acl_setuser("counter", enabled=True, nopass=True, keys=["*"], commands=["+@all", "-@scripting"])
        shared = redis_backend(f"redis://counter:x@127.0.0.1:{server.port}/0")
        assert shared.count_hits({"rate:a": 65, "rate:b": 3605}) == {"rate:a": 1, "rate:b": 1}
        assert shared.count_hits({"rate:a": 65, "rate:b": 3605}) == {"rate:a": 2, "rate:b": 2}
        assert 0 < raw.ttl(shared.make_key("rate:a")) <= 65
        assert caches["default"].get("rate:a") is None  # in Redis, not in the fallback


@pytest.mark.django_db
def test_counting_keeps_no_redis_connection_of_a_cache_gone() -> None:
    # Django makes a cache object per thread (and per request under ASGI): the counting script
    # lives with the cache's client, so a finished thread's connection is closed with it.
    with private_redis() as server:
        raw = redis.Redis(port=server.port)

        def count_once() -> None:
            assert redis_backend(server.url).count_hits({"rate:t": 60})["rate:t"] >= 1

        for _ in range(20):
            thread = threading.Thread(target=count_once)
            thread.start()
            thread.join()
        gc.collect()
        assert raw.get(redis_backend(server.url).make_key("rate:t")) == b"20"
        assert raw.info("clients")["connected_clients"] <= 2  # this test's own, and at most one more


@pytest.mark.django_db
def test_hole_writes_counted_in_redis_are_refused_at_the_limit(settings) -> None:
    with private_redis() as server:
        settings.CACHES = {
            "default": {
                "BACKEND": "golfclub.cache.ResilientRedisCache",
                "LOCATION": server.url,
                "FALLBACK": "database",
                "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
            },
            "database": {"BACKEND": "golfclub.cache.DatabaseCache", "LOCATION": "golfclub_cache"},
        }
        game = services.create_game(players=["Ann", "Bob"], ruleset="official")
        api = APIClient()
        assert [hole(api, game.edit_token, n).status_code for n in (1, 2, 3)] == [201, 201, 201]
        assert hole(api, game.edit_token, 4).status_code == 429
        assert usage(game.edit_token, "3/h") == 4
        assert redis.Redis(port=server.port).dbsize() == 2  # both rates' counters, in Redis


@pytest.mark.django_db
def test_a_redis_that_does_not_answer_leaves_the_counting_to_the_database() -> None:
    with private_redis() as server:
        url = server.url
    shared = redis_backend(url)  # stopped: nothing answers there now
    started = time.monotonic()
    assert shared.count_hits({"rate:down": 60}) == {"rate:down": 1}
    assert shared.count_hits({"rate:down": 60}) == {"rate:down": 2}
    assert time.monotonic() - started < 1.5  # one short timeout, then the back-off
    assert caches["default"].get("rate:down") == 2  # counted in PostgreSQL's cache table


def test_the_redis_backend_makes_its_redis_py_client_once() -> None:
    # Django makes one per operation, each building redis-py's table of reply parsers: about half
    # of what counting cost. No server is needed to make a client.
    shared = redis_backend("redis://127.0.0.1:1/0")
    client = shared._cache.get_client(write=True)
    assert shared._cache.get_client("rate:a", write=True) is client
    assert client.connection_pool is shared._cache._get_connection_pool(True)
