"""What noting a table's phone costs a request (issue 32 item 3: `scoring/phone_contact.py`).

    .venv/bin/python bench/phone_contact.py [--requests 2000] [--writes 500]

In-process against a fresh PostgreSQL database (golfclub_profile_phone) with the benchmark's settings
(bench/settings.py), no HTTP: the middleware is called around a view that answers at once, so its own
cost is all there is to time. It prints, per request, the CPU and wall time of:
1. a request of a link heard less than 30 s ago with the same count (the common case: no statement);
2. a request that writes (first contact, a new count, or 30 s gone): one upsert in its own transaction,
   its commit not waiting for the disk, and the same upsert with a commit that waits (for comparison);
3. a request of an unknown link (404: no statement).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DB_NAME = "golfclub_profile_phone"
PG = "postgres://postgres@127.0.0.1:5432"


def configure() -> None:
    """A fresh database with the benchmark's settings, migrated."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    from bench.live_games import bench_environment

    os.environ.update(bench_environment(f"{PG}/{DB_NAME}", limits=False))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(call, times: int) -> tuple[float, float]:
    """(CPU ms, wall ms) per call of `call(i)`."""
    started, cpu = time.perf_counter(), time.process_time()
    for i in range(times):
        call(i)
    return (time.process_time() - cpu) / times * 1000, (time.perf_counter() - started) / times * 1000


def main() -> None:
    """Time the three cases and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--writes", type=int, default=500)
    args = parser.parse_args()
    configure()
    from django.http import HttpResponse, HttpResponseNotFound
    from django.test import RequestFactory
    from django.urls import resolve

    from golfclub.middleware import PhoneContactMiddleware
    from scoring import phone_contact, services

    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    path = f"/api/v1/games/{game.edit_token}/scoreboard/"
    factory = RequestFactory()

    def request(url: str, pending: str):
        made = factory.get(url, headers={"X-Golf-Pending": pending})
        made.resolver_match = resolve(url)
        return made

    ok = PhoneContactMiddleware(lambda _request: HttpResponse("{}"))
    missing = PhoneContactMiddleware(lambda _request: HttpResponseNotFound("{}"))
    heard = request(path, "0")
    ok(heard)  # the first contact: written; the next ones within 30 s are not
    quiet = timed(lambda _i: ok(heard), args.requests)
    counts = [request(path, str(i % 2)) for i in range(args.writes)]
    writing = timed(lambda i: ok(counts[i]), args.writes)  # the count changes every time: written
    waiting = dict(phone_contact._UPSERTS)
    phone_contact._UPSERTS["postgresql"] = phone_contact._UPSERTS["other"]  # a commit that waits
    waited = timed(lambda i: ok(counts[i]), args.writes)
    phone_contact._UPSERTS.update(waiting)
    unknown = request(f"/api/v1/games/{'x' * 32}/scoreboard/", "1")
    lost = timed(lambda _i: missing(unknown), args.requests)
    print(f"{'per request (ms)':<52}{'CPU':>8}{'wall':>8}")
    for name, (cpu, wall) in (
        ("heard < 30 s ago, same count: no statement", quiet),
        ("written (a new count): one upsert, commit not waiting", writing),
        ("written, the commit waiting for the disk (not used)", waited),
        ("unknown link (404): no statement", lost),
    ):
        print(f"{name:<52}{cpu:>8.3f}{wall:>8.3f}")


if __name__ == "__main__":
    main()
