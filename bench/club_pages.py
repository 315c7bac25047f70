"""Benchmark: a club's leaderboard, a season's leaderboard and a member's page at 200 members and
10,000 four-player games, on PostgreSQL, against baselines measured in the same run.

    DATABASE_URL=postgres://... .venv/bin/python bench/club_pages.py [--members 200] [--games 10000]
        [--samples 30] [--seed 2026] [--keep]

Works in a database of its own on the DATABASE_URL server, `<name>_club_pages_bench`, created and
migrated for the run and dropped at the end (`--keep` keeps it). In-process, through Django's test
client as the club's owner (server time: the whole request, middleware and template included):

1. builds the club in bulk: `--games` finished four-player games (real `Game` rows linked to the
   club, 4 members drawn at random from `--members`, random places with ties, points, holes), one
   `MemberResult` per seat with ratings from openskill's PlackettLuce in finishing order, spread
   over two years; a season covering the second year (half the games); and a small club of
   20 members and 200 games built the same way;
2. times `/clubs/<id>/` (leaderboard), `/clubs/<id>/seasons/<id>/` (season leaderboard) and
   `/clubs/<id>/members/<id>/` (the member with the most games), and their API twins, on both
   clubs, with the site's home page `/` as the baseline of an ordinary page: p50 / p95 over
   `--samples` requests, and the queries of one.

Targets (issue 33): each page <= 50 ms server time (p50) with a bounded number of queries (the
same count on both clubs). Exits with status 1 when one is missed.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)

PAGE_TARGET_MS = 50.0
START = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)


def percentile(values: list[float], pct: float) -> float:
    """The pct-th percentile (nearest rank) of values."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered)) - 1))]


def build_club(name: str, members: int, games: int, seed: int, owner: Any) -> dict[str, Any]:
    """A club of `members` members and `games` finished four-player games, written in bulk."""
    from openskill.models import PlackettLuce

    from clubs.models import Club, ClubGame, ClubOwner, Member, MemberResult, Season
    from golfclub.core.names import name_key
    from scoring.models import Game

    rng = random.Random(seed)
    model = PlackettLuce()
    club = Club.objects.create(name=name)
    ClubOwner.objects.create(club=club, user=owner)
    names = [f"Member {i:03d}" for i in range(members)]
    people = Member.objects.bulk_create(Member(club=club, name=n, name_key=name_key(n)) for n in names)
    ratings = {m.pk: model.rating() for m in people}
    rows = Game.objects.bulk_create(Game(ruleset={}, status="finished") for _ in range(games))
    ClubGame.objects.bulk_create(ClubGame(game=game, club=club) for game in rows)
    step = timedelta(days=730) / games
    results = []
    for number, game in enumerate(rows):
        table = rng.sample(people, 4)
        totals = [rng.randint(0, 80) for _ in table]
        places = [1 + sum(other < total for other in totals) for total in totals]
        before = [ratings[m.pk] for m in table]
        after = model.rate([[r] for r in before], ranks=places)
        for member, place, total, old, (new,) in zip(table, places, totals, before, after, strict=True):
            ratings[member.pk] = new
            results.append(
                MemberResult(
                    club=club, member=member, game=game, finished_at=START + step * number, players=4,
                    place=place, total_points=total, holes_played=9, low_hole_score=rng.randint(0, 5),
                    best_hole_score=rng.randint(-5, 8), mu_before=old.mu, sigma_before=old.sigma,
                    mu_after=new.mu, sigma_after=new.sigma,
                )
            )  # fmt: skip
    MemberResult.objects.bulk_create(results, batch_size=5000)
    played = Counter(result.member_id for result in results)
    for member in people:
        rating = ratings[member.pk]
        member.mu, member.sigma, member.ordinal = rating.mu, rating.sigma, rating.mu - 3 * rating.sigma
        member.rated_games = played[member.pk]
    Member.objects.bulk_update(people, ["mu", "sigma", "ordinal", "rated_games"], batch_size=1000)
    season = Season.objects.create(club=club, name="Year two", start=date(2027, 1, 1), end=date(2027, 12, 31))
    busiest = max(people, key=lambda m: played[m.pk])
    return {"club": club, "season": season, "member": busiest}


def timed(get: Callable[[], Any], samples: int) -> dict[str, float]:
    """p50/p95 (ms) of `samples` calls, and the queries of one more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(samples):
        start = time.perf_counter()
        get()
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        get()
    return {
        "min": min(times),
        "p50": statistics.median(times),
        "p95": percentile(times, 95),
        "queries": len(queries),
    }


def urls(built: dict[str, Any]) -> dict[str, str]:
    """The pages and API answers measured, by label."""
    club, season, member = built["club"].pk, built["season"].pk, built["member"].pk
    return {
        "leaderboard page": f"/clubs/{club}/",
        "season leaderboard page": f"/clubs/{club}/seasons/{season}/",
        "member page": f"/clubs/{club}/members/{member}/",
        "ratings API": f"/api/v1/clubs/{club}/ratings/",
        "season leaderboard API": f"/api/v1/clubs/{club}/seasons/{season}/leaderboard/",
        "member API": f"/api/v1/clubs/{club}/members/{member}/",
    }


def measure(client: Any, built: dict[str, Any], samples: int) -> dict[str, dict[str, float]]:
    """Each URL of `built`'s club, warmed once then timed."""
    figures = {}
    for label, url in urls(built).items():

        def get(url: str = url) -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        get()
        figures[label] = timed(get, samples)
    return figures


def setup_database() -> Any:
    """A fresh database of its own on the DATABASE_URL server, migrated."""
    import django
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, setup_test_environment

    django.setup()
    warnings.filterwarnings("ignore", message="No directory at")
    logging.getLogger("django.request").setLevel(logging.ERROR)
    if connection.vendor != "postgresql":
        raise SystemExit("bench/club_pages.py needs PostgreSQL: set DATABASE_URL=postgres://...")
    base = settings.DATABASES["default"]["NAME"]
    settings.DATABASES["default"]["TEST"]["NAME"] = f"{base}_club_pages_bench"
    setup_test_environment()
    print(f"Creating and migrating {base}_club_pages_bench ...", flush=True)
    return setup_databases(verbosity=0, interactive=False)


def run(args: argparse.Namespace) -> list[str]:
    """Build, measure, print the table; the targets missed."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    owner = get_user_model().objects.create_user("club-bench")
    started = time.perf_counter()
    big = build_club("Big club", args.members, args.games, args.seed, owner)
    small = build_club("Small club", 20, 200, args.seed, owner)
    print(f"Built {args.games:,} + 200 games in {time.perf_counter() - started:.0f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # what autovacuum does after a bulk load
    client = Client()
    client.force_login(owner)
    client.get("/")
    baseline = timed(lambda: client.get("/"), args.samples)
    figures = {"small": measure(client, small, args.samples), "big": measure(client, big, args.samples)}
    print(f"\nServer time in ms, min / p50 / p95 over {args.samples} requests (queries of one request)")
    print(
        f"home page `/`: min {baseline['min']:.1f} / p50 {baseline['p50']:.1f} / p95 {baseline['p95']:.1f} "
        f"({baseline['queries']} q); load average {os.getloadavg()[0]:.1f}\n"
    )
    print(f"| what | 20 members, 200 games | {args.members} members, {args.games:,} games | "
          "x small club | x home page |")  # fmt: skip
    print("|---|---:|---:|---:|---:|")
    missed = []
    for label, got in figures["big"].items():
        base = figures["small"][label]
        print(
            f"| {label} | {base['min']:.1f} / {base['p50']:.1f} / {base['p95']:.1f} ({base['queries']} q) | "
            f"{got['min']:.1f} / {got['p50']:.1f} / {got['p95']:.1f} ({got['queries']} q) | "
            f"{got['p50'] / base['p50']:.2f}x | {got['p50'] / baseline['p50']:.2f}x |"
        )
        if got["p50"] > PAGE_TARGET_MS:
            missed.append(f"{label}: p50 {got['p50']:.0f} ms")
        if got["queries"] != base["queries"]:
            missed.append(
                f"{label}: {got['queries']} queries at the big club, {base['queries']} at the small"
            )
    print("\nTargets missed: " + ("; ".join(missed) if missed else "none"))
    return missed


def main() -> None:
    """Build both clubs, measure, print; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    old = setup_database()
    from django.test.utils import teardown_databases

    try:
        missed = run(args)
    finally:
        if not args.keep:
            teardown_databases(old, verbosity=0)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
