"""Redis stopped: scoring goes on, the rate limits fall back to PostgreSQL, nothing answers 500.

The cache backend (golfclub.cache.ResilientRedisCache) is tested here on its own against a Redis
URL with nothing behind it, one that accepts and never answers, and a private Redis started late;
then a production gunicorn with REDIS_URL to a private redis-server records holes while that Redis
is shut down and started again.
"""

from __future__ import annotations

import logging
import socket
import time
from typing import Any

import pytest
import redis
from django.core.cache import caches

from bench.cluster import cluster, free_port
from golfclub.cache import ResilientRedisCache
from scoring.models import Hole
from tests.faults.helpers import (
    PrivateRedis,
    app_env,
    client,
    new_game,
    private_redis,
    shared_database_url,
    wait_for,
)
from tests.tournaments.helpers import event_in_play


def _backend(port: int, *, retry: float = 5, timeout: float = 0.2) -> ResilientRedisCache:
    """The backend as settings.py configures it, on `port`, falling back to the test database's cache."""
    return ResilientRedisCache(
        f"redis://127.0.0.1:{port}/0",
        {
            "FALLBACK": "default",
            "RETRY_SECONDS": retry,
            "OPTIONS": {"socket_connect_timeout": timeout, "socket_timeout": timeout},
        },
    )


@pytest.mark.django_db
def test_a_dead_redis_counts_in_the_database_and_says_so(caplog) -> None:
    cache = _backend(free_port())
    with caplog.at_level(logging.WARNING, logger="golfclub.cache"):
        assert cache.add("rate:ann", 0, 60) is True
        assert cache.incr("rate:ann") == 1
        assert cache.incr("rate:ann") == 2
    # Counted in PostgreSQL's cache table, where every process sees the same count.
    assert caches["default"].get("rate:ann") == 2
    assert cache.redis_is_down()
    assert cache.get("rate:ann") == 2 and cache.add("rate:ann", 0, 60) is False
    cache.set("standings", b"blob", 60)
    assert cache.get_many(["standings", "nothing"]) == {"standings": b"blob"}
    assert cache.has_key("standings") and cache.delete("standings") and not cache.has_key("standings")
    with pytest.raises(ValueError):
        cache.incr("never-added")  # as Redis and the database cache both say: no such key
    # Said once, when Redis failed; the calls after it, within the back-off, go straight to the database.
    warnings = [r.getMessage() for r in caplog.records if r.name == "golfclub.cache"]
    assert len(warnings) == 1 and "Redis did not answer (ConnectionError" in warnings[0]


@pytest.mark.django_db
def test_a_redis_that_never_answers_costs_one_short_timeout_per_back_off() -> None:
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        cache = _backend(silent.getsockname()[1], timeout=0.2)
        started = time.monotonic()
        assert cache.add("rate:bob", 0, 60) is True
        first = time.monotonic() - started
        started = time.monotonic()
        for _ in range(20):
            cache.incr("rate:bob")
        rest = time.monotonic() - started
    assert first < 1.5  # one socket timeout (0.2 s, for the connection or the reply), not forever
    assert rest < 1.0  # the back-off: the 20 increments never waited for Redis
    assert caches["default"].get("rate:bob") == 20


class SteppedClock:
    """`time` as golfclub.cache sees it, with a monotonic clock moved by the test, not by sleeping."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def monotonic(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@pytest.mark.django_db
def test_redis_is_used_again_once_it_answers_after_the_back_off(monkeypatch) -> None:
    clock = SteppedClock()
    monkeypatch.setattr("golfclub.cache.time", clock)
    port = free_port()
    cache = _backend(port, retry=0.3)
    cache.set("k", "from the database", 60)  # Redis is not there yet
    server = PrivateRedis(port)
    server.start()
    try:
        clock.now += 0.25
        assert cache.get("k") == "from the database"  # still within the back-off, however long the start
        clock.now += 0.1
        assert cache.get("k") is None  # past it: Redis again, which never had the key
        cache.set("k", "from redis", 60)
        assert cache.get("k") == "from redis" and not cache.redis_is_down()
        assert redis.Redis(port=port).dbsize() == 1
    finally:
        server.stop()


GAMES_PER_MINUTE = 3


@pytest.mark.django_db(transaction=True)
def test_scoring_goes_on_while_redis_is_stopped(tmp_path) -> None:
    tournament = event_in_play(8, rounds=1, public=True)
    leaderboard = f"/tournaments/{tournament.pk}/public/leaderboard/"
    with private_redis() as server:
        env = app_env(
            shared_database_url(),
            tmp_path,
            REDIS_URL=server.url,
            RATELIMIT_GAME_CREATE=f"{GAMES_PER_MINUTE}/m",
            REDIS_RETRY_SECONDS="0.5",
        )
        with cluster(tmp_path / "cluster", env, instances=1, workers=2) as running:
            app = running.instances[0]
            phone = client(app, "198.51.100.20")
            edit = new_game(phone)

            def hole(n: int) -> int:
                body = {"entries": {"ann": n, "bob": 10 - n}}
                key = {"Idempotency-Key": f"{edit[:8]}-{n}"}
                return phone.post(f"/api/v1/games/{edit}/holes/", json=body, headers=key).status_code

            assert [hole(1), hole(2)] == [201, 201]
            assert redis.Redis(port=server.port).dbsize() > 0  # the counters were in Redis
            assert phone.get(leaderboard).status_code == 200

            server.stop()
            assert [hole(3), hole(4)] == [201, 201]
            # The same key again is still the first answer (the keys are in PostgreSQL, not the cache).
            again = phone.post(
                f"/api/v1/games/{edit}/holes/",
                json={"entries": {"ann": 3, "bob": 7}},
                headers={"Idempotency-Key": f"{edit[:8]}-3"},
            )
            assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
            # The limit still holds, counted in PostgreSQL by both workers: never open, never a 500.
            other = client(app, "198.51.100.21")
            made = [
                other.post("/api/v1/games/", json={"players": ["cy", "di"]}).status_code
                for _ in range(GAMES_PER_MINUTE + 2)
            ]
            assert made == [201] * GAMES_PER_MINUTE + [429, 429]
            assert phone.get(leaderboard).status_code == 200
            assert phone.get(f"/games/e/{edit}/").status_code == 200

            server.start()  # an empty Redis, as after a restart without a snapshot
            restarted = redis.Redis(port=server.port)
            addresses = iter(range(22, 250))

            def a_new_game_counted_in_redis() -> bool:
                """A game made from a new address (never limited) is counted in Redis once the
                worker that takes it is past its back-off (0.5 s), in the database before."""
                third = client(app, f"198.51.100.{next(addresses)}")
                assert third.post("/api/v1/games/", json={"players": ["ed", "flo"]}).status_code == 201
                return any(restarted.scan_iter(match="*rl:*"))

            wait_for("the workers counting in Redis again", a_new_game_counted_in_redis, seconds=15)
            assert hole(5) == 201
            assert phone.get(leaderboard).status_code == 200
            errors = "".join(p.read_text() for p in (tmp_path / "cluster").glob("instance-*-error.log"))
    numbers = Hole.objects.filter(game__edit_token=edit).order_by("number").values_list("number", flat=True)
    assert list(numbers) == [1, 2, 3, 4, 5]
    assert "Redis did not answer" in errors  # the fallback is logged, not silent
    assert "Internal Server Error" not in errors
