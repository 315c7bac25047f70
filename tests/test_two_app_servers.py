"""Two app servers behind nginx (issue 21, item 2, the small version run in CI).

bench/cluster.py starts two gunicorn instances, separate processes on separate ports with the same
environment (the test database, one Redis database, production settings), and Debian's nginx in
front with the repository's site file over HTTPS. Whichever instance answers, the app behaves the
same: a session and a CSRF token made on one work on the other, a retried write with the same
Idempotency-Key gets the first answer from the other, a leaderboard's ETag from one is current on
the other, a rate limit counts the requests both took, and the round clock reads the same. Then
tables record their holes through nginx from several threads at once, each hole sent twice with
its key, and the database holds each acknowledged hole exactly once.
"""

from __future__ import annotations

import re
import secrets
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import redis
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from bench.cluster import BEHIND_TLS, Cluster, cluster, nginx_available
from scoring.models import Hole, Seat
from tests.tournaments.helpers import PASSWORD, event, event_in_play, user
from tournaments.models import Table, Tournament

REDIS_DB = 7  # a database of its own on the machine's Redis, emptied before the run
GAMES_PER_MINUTE = 4  # the cluster's limit on new games per client address


def _client(base: str, address: str) -> httpx.Client:
    """A client of one instance (as nginx would call it: HTTPS said, the client's address given)."""
    return httpx.Client(
        base_url=base, headers=BEHIND_TLS | {"X-Forwarded-For": address}, timeout=30, verify=False
    )


@pytest.fixture(scope="module")
def two(django_db_setup, django_db_blocker, tmp_path_factory) -> Cluster:
    if settings.DATABASES["default"]["ENGINE"] != "tests.postgresql_backend":
        pytest.skip("the app servers share the test database: PostgreSQL only (as in CI)")
    if not nginx_available():
        pytest.skip("no nginx at /usr/sbin/nginx (apt-get install nginx-light; .ci/run installs it)")
    try:
        redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB).flushdb()
    except redis.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    db = settings.DATABASES["default"]
    database_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "bench.served_settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "CLIENT_IP_HEADER": "X-Forwarded-For",
        "RATELIMIT_GAME_CREATE": f"{GAMES_PER_MINUTE}/m",
        "LOG_LEVEL": "WARNING",
    }
    with cluster(tmp_path_factory.mktemp("cluster"), env, instances=2) as running:
        yield running


def _director() -> None:
    """Dora, with a password the production servers can check (the tests' hasher is another)."""
    dora = user("dora")
    hasher = PBKDF2PasswordHasher()
    dora.password = hasher.encode(PASSWORD, hasher.salt())
    dora.save(update_fields=["password"])


@pytest.mark.django_db(transaction=True)
def test_a_session_and_a_csrf_token_made_on_one_instance_work_on_the_other(two) -> None:
    _director()
    tournament = event(8, rounds=2)
    a, b = (_client(url, "203.0.113.1") for url in two.instances)
    form = a.get("/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    csrf = form.cookies["csrftoken"]
    logged_in = b.post(
        "/accounts/login/",
        headers={
            "Referer": f"https://{b.base_url.netloc.decode()}/accounts/login/",
            "Cookie": f"csrftoken={csrf}",
        },
        data={"csrfmiddlewaretoken": token, "username": "dora", "password": PASSWORD},
    )
    assert logged_in.status_code == 302, logged_in.text[:300]
    session = logged_in.cookies["sessionid"]
    dashboard = a.get(f"/tournaments/{tournament.pk}/", headers={"Cookie": f"sessionid={session}"})
    assert dashboard.status_code == 200 and "Seat round 1" in dashboard.text
    assert a.get(f"/tournaments/{tournament.pk}/").status_code in (302, 403)  # without the session


def _without_host(answer: dict) -> dict:
    return answer | {"url": httpx.URL(answer["url"]).path}


@pytest.mark.django_db(transaction=True)
def test_a_write_retried_on_the_other_instance_gets_the_first_answer(two) -> None:
    a, b = (_client(url, "203.0.113.2") for url in two.instances)
    game = a.post("/api/v1/games/", json={"players": ["ann", "bob"], "ruleset": "official"})
    assert game.status_code == 201
    edit = game.json()["edit_token"]
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"entries": {"ann": 5, "bob": 7}}
    first = a.post(f"/api/v1/games/{edit}/holes/", json=body, headers=key)
    again = b.post(f"/api/v1/games/{edit}/holes/", json=body, headers=key)
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    # The same answer, but for its own address, which names the instance asked (behind nginx, one).
    assert _without_host(again.json()) == _without_host(first.json())
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Hole.objects.filter(game__edit_token=edit).count() == 1


def _record_a_hole(client: httpx.Client, tournament) -> None:
    """Round 1's first table records a hole (4 each) through `client`."""
    table = Table.objects.filter(round__tournament=tournament).select_related("game").first()
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    recorded = client.post(
        f"/api/v1/games/{table.game.edit_token}/holes/",
        json={"entries": dict.fromkeys(names, 4)},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    assert recorded.status_code == 201, recorded.text


@pytest.mark.django_db(transaction=True)
def test_a_leaderboard_etag_from_one_instance_is_current_on_the_other(two) -> None:
    tournament = event_in_play(8, rounds=2, public=True)
    a, b = (_client(url, "203.0.113.3") for url in two.instances)
    url = f"/tournaments/{tournament.pk}/public/leaderboard/"
    etag = a.get(url).headers["ETag"]
    assert b.get(url, headers={"If-None-Match": etag}).status_code == 304
    _record_a_hole(b, tournament)
    moved = a.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


@pytest.mark.django_db(transaction=True)
def test_a_rate_limit_counts_what_both_instances_took(two) -> None:
    a, b = (_client(url, "203.0.113.4") for url in two.instances)
    answers = [
        (a if n % 2 == 0 else b).post("/api/v1/games/", json={"players": ["ann", "bob"]}).status_code
        for n in range(GAMES_PER_MINUTE + 2)
    ]
    assert answers == [201] * GAMES_PER_MINUTE + [429, 429]


@pytest.mark.django_db(transaction=True)
def test_the_round_clock_reads_the_same_on_both_instances(two) -> None:
    tournament = event_in_play(8, rounds=2, time_limit_minutes=50)
    me = tournament.entrants.get(name="P01")
    a, b = (_client(url, "203.0.113.5") for url in two.instances)
    left = [
        int(
            re.search(r'data-seconds-left="(-?\d+)"', c.get(f"/tournaments/player/{me.token}/").text).group(1)
        )
        for c in (a, b, a)
    ]
    assert 50 * 60 - 30 <= left[0] <= 50 * 60
    assert left[0] >= left[1] >= left[2] >= left[0] - 5  # one clock, counting down wherever it is read


@pytest.mark.django_db(transaction=True)
def test_tables_record_through_nginx_and_every_acknowledged_hole_is_there_once(two) -> None:
    tournament = event_in_play(16, rounds=1, holes=9)
    tables = list(Table.objects.filter(round__tournament=tournament).select_related("game"))
    served_before = two.requests_served()

    # Each table's players read here: the phones' threads send HTTP only (no database connection).
    seated = {t.pk: list(t.game.seats.order_by("seat").values_list("name", flat=True)) for t in tables}

    def play(table: Table) -> list[tuple[int, dict]]:
        names = seated[table.pk]
        acknowledged = []
        with _client(two.url, "198.51.100.1") as phone:
            for hole in range(1, 10):
                body = {"entries": {name: (hole * 3 + i) % 11 for i, name in enumerate(names)}}
                key = {"Idempotency-Key": f"{table.game.edit_token[:8]}-{hole}"}
                first = phone.post(f"/api/v1/games/{table.game.edit_token}/holes/", json=body, headers=key)
                retry = phone.post(f"/api/v1/games/{table.game.edit_token}/holes/", json=body, headers=key)
                assert first.status_code == 201 and retry.json() == first.json(), (first.text, retry.text)
                acknowledged.append((hole, body["entries"]))
        return acknowledged

    with ThreadPoolExecutor(len(tables)) as pool:
        results = dict(zip((t.pk for t in tables), pool.map(play, tables), strict=True))
    for table in tables:
        holes = list(Hole.objects.filter(game=table.game).order_by("number").values_list("number", flat=True))
        assert holes == list(range(1, 10))  # each acknowledged hole once, none doubled
        for seat in Seat.objects.filter(game=table.game):
            assert seat.total == sum(entries[seat.name] for _, entries in results[table.pk])
    served = [after - before for after, before in zip(two.requests_served(), served_before, strict=True)]
    assert all(count >= 9 for count in served), served  # nginx spread the tables over both instances
    # nginx's own log names no path, so no link token. nginx writes a request's line after sending
    # its answer: on a loaded machine the last line can come a moment after the client has it.
    deadline = time.monotonic() + 5
    while (proxy_log := two.proxy_log.read_text()).count('"POST"') < 2 * 9 * len(tables):
        if time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert proxy_log.count('"POST"') >= 2 * 9 * len(tables)
    assert "/api/" not in proxy_log and not any(t.game.edit_token in proxy_log for t in tables)


@pytest.mark.django_db(transaction=True)
def test_nginx_answers_the_publics_leaderboard_polls_and_lets_one_a_second_through(two) -> None:
    tournament = event_in_play(8, rounds=2, public=True)
    url = f"/tournaments/{tournament.pk}/public/leaderboard/"
    served_before = sum(two.requests_served())
    with _client(two.url, "198.51.100.7") as phone:
        first = phone.get(url)
        assert first.status_code == 200 and first.headers["X-Cache"] == "MISS"
        etag = first.headers["ETag"]
        again = [phone.get(url) for _ in range(10)]
        seen = {(a.status_code, a.headers["X-Cache"], a.headers["ETag"]) for a in again}
        assert seen == {(200, "HIT", etag)}
        assert all(a.text == first.text for a in again)
        # The phone's If-None-Match is answered by nginx from the cached ETag, and set no cookie.
        unchanged = phone.get(url, headers={"If-None-Match": etag})
        assert unchanged.status_code == 304 and unchanged.headers["X-Cache"] == "HIT"
        assert "set-cookie" not in {k.lower() for k in first.headers}
        assert sum(two.requests_served()) - served_before == 1  # twelve polls, one reached an app server

        # The staff (a session cookie) and the API (a token) always reach the app, uncached.
        staff = phone.get(url, headers={"Cookie": "sessionid=anything"})
        token = phone.get(url, headers={"Authorization": "Token anything"})
        assert staff.headers["X-Cache"] == token.headers["X-Cache"] == "BYPASS"

        # A hole moves the leaderboard: the public sees it once the second has passed.
        _record_a_hole(phone, tournament)
        deadline = time.monotonic() + 5
        while (moved := phone.get(url, headers={"If-None-Match": etag})).status_code == 304:
            assert time.monotonic() < deadline, "the leaderboard did not move within 5 s of a hole"
            time.sleep(0.2)
        assert moved.status_code == 200 and moved.headers["ETag"] != etag


@pytest.mark.django_db(transaction=True)
def test_nginx_keeps_no_refusal_of_a_private_events_leaderboard(two) -> None:
    private = event(8, rounds=1)
    Tournament.objects.filter(pk=private.pk).update(public=False)  # the public's leaderboard is refused
    url = f"/tournaments/{private.pk}/public/leaderboard/"
    with _client(two.url, "198.51.100.8") as phone:
        answers = [phone.get(url) for _ in range(3)]
    assert all(a.status_code != 200 for a in answers), [a.status_code for a in answers]
    assert [a.headers["X-Cache"] for a in answers] == ["MISS"] * 3  # each asked the app, none kept
