"""PostgreSQL restarted while four tables record their holes.

A private PostgreSQL (initdb'd here, on a free port; the machine's shared one is never touched)
gets the test database's schema, which `migrate` built, copied with pg_dump: migrating from scratch
costs 20 s, copying it one. A production gunicorn (two workers, persistent connections with
health checks) serves it. Four phones record 9 holes each with their keys; mid-way PostgreSQL is
restarted (`pg_ctl restart -m fast`, which ends every session and rolls back open transactions),
and each phone sends a failed hole again with the same key until it is acknowledged. While the
database is down the app answers 503 with Retry-After and says so in JSON, never 500; afterwards
every acknowledged hole is there exactly once, and each game's holes, entries, seat totals and
version agree.
"""

from __future__ import annotations

import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest
from django.conf import settings

from bench.cluster import cluster, nginx_available
from tests.faults.helpers import PG_BIN, app_env, client, new_game, private_postgres, shared_database_url

TABLES, HOLES = 4, 9
PLAYERS = ("ann", "bob", "cy")


def _copy_schema(source_url: str, target_url: str) -> None:
    """The test database's tables, and the rows saying which migrations built them, into the target."""
    dump = subprocess.run(
        [str(PG_BIN / "pg_dump"), "--no-owner", "--no-privileges", "--schema-only", source_url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    migrations = subprocess.run(
        [str(PG_BIN / "pg_dump"), "--data-only", "--table=django_migrations", source_url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    subprocess.run(
        [str(PG_BIN / "psql"), "-q", "-v", "ON_ERROR_STOP=1", target_url],
        input=dump + migrations,
        check=True,
        capture_output=True,
        text=True,
    )


@pytest.mark.django_db(transaction=True)
def test_tables_keep_recording_through_a_postgresql_restart(tmp_path) -> None:
    if not nginx_available():
        pytest.skip("no nginx at /usr/sbin/nginx (bench/cluster.py puts it in front)")
    source = shared_database_url()
    with private_postgres() as database:
        _copy_schema(
            source.replace("postgres://", "postgresql://"),
            database.url.replace("postgres://", "postgresql://"),
        )
        env = app_env(database.url, tmp_path, CONN_MAX_AGE="60")
        with cluster(tmp_path / "cluster", env, instances=1, workers=2, threads=2) as running:
            app = running.instances[0]
            games = [new_game(client(app, f"198.51.100.{30 + n}"), PLAYERS) for n in range(TABLES)]
            acknowledged = {edit: [] for edit in games}
            refusals: list[httpx.Response] = []
            dropped: list[httpx.TransportError] = []
            lock = threading.Lock()
            count = 0

            def play(edit: str) -> None:
                nonlocal count
                with client(app, "198.51.100.40", timeout=10) as phone:
                    for n in range(1, HOLES + 1):
                        body = {"entries": {name: (n * 5 + i) % 12 for i, name in enumerate(PLAYERS)}}
                        key = {"Idempotency-Key": f"{edit[:10]}-{n}"}
                        deadline = time.monotonic() + 60
                        while True:  # the phone's retry: the same body, the same key, until acknowledged
                            try:
                                answer = phone.post(f"/api/v1/games/{edit}/holes/", json=body, headers=key)
                            except httpx.TransportError as error:
                                answer = None
                                with lock:
                                    dropped.append(error)
                            if answer is not None and answer.status_code == 201:
                                break
                            if answer is not None:
                                with lock:
                                    refusals.append(answer)
                            assert time.monotonic() < deadline, "never acknowledged"
                            time.sleep(0.2)
                        with lock:
                            acknowledged[edit].append((answer.json()["number"], body["entries"]))
                            count += 1
                        time.sleep(0.05)

            with ThreadPoolExecutor(TABLES) as pool:
                done = [pool.submit(play, edit) for edit in games]
                deadline = time.monotonic() + 60
                while count < TABLES * 2 and time.monotonic() < deadline:  # a couple of holes each
                    time.sleep(0.02)
                database.pg_ctl("restart", "-m", "fast")
                for future in done:
                    future.result()
            errors = "".join(p.read_text() for p in (tmp_path / "cluster").glob("instance-*-error.log"))

        # The restart did land mid-way: phones were refused, and retried.
        assert refusals, "no request met the restart"
        assert not dropped, dropped  # the app servers always answered, the database was away
        # What the phones were told while the database was away: 503, in words, never a 500.
        assert {r.status_code for r in refusals} <= {503}, [(r.status_code, r.text[:200]) for r in refusals]
        for refusal in refusals:
            assert refusal.headers["Retry-After"] == "5"
            assert refusal.json()["detail"].startswith("The database is restarting; try again")
        assert "Internal Server Error" not in errors

        with psycopg.connect(database.url.replace("postgres://", "postgresql://")) as db:
            for edit in games:
                ((game_id, version),) = db.execute(
                    "SELECT id, version FROM scoring_game WHERE edit_token = %s", [edit]
                ).fetchall()
                numbers = [n for (n,) in db.execute(
                    "SELECT number FROM scoring_hole WHERE game_id = %s ORDER BY number", [game_id]
                )]  # fmt: skip
                assert numbers == list(range(1, HOLES + 1))  # every acknowledged hole, once
                assert sorted(n for n, _ in acknowledged[edit]) == numbers
                entries = db.execute(
                    "SELECT count(*) FROM scoring_holeentry e JOIN scoring_hole h ON h.id = e.hole_id "
                    "WHERE h.game_id = %s", [game_id],
                ).fetchone()[0]  # fmt: skip
                assert entries == HOLES * len(PLAYERS)  # no hole without its entries
                totals = dict(
                    db.execute("SELECT name, total FROM scoring_seat WHERE game_id = %s", [game_id])
                )
                expected = {name: sum(entries[name] for _, entries in acknowledged[edit]) for name in PLAYERS}
                assert totals == expected  # the seats' totals are the holes' sums
                assert version == 1 + HOLES  # one version step per hole, none lost or doubled
                keys = db.execute(
                    "SELECT count(*) FROM scoring_idempotentrequest WHERE game_id = %s", [game_id]
                ).fetchone()[0]
                assert keys == HOLES
    assert settings.DATABASES["default"]["ENGINE"] == "tests.postgresql_backend"
