"""Benchmark: recomputing a club's ratings against openskill rating the same games in a bare loop.

    .venv/bin/python bench/club_ratings.py [--members 200] [--games 10000] [--samples 3]

Reads DATABASE_URL (PostgreSQL) and works in a database of its own, `<name>_club_bench`, created
and migrated for the run and dropped at the end (`--keep` keeps it). It builds the club with
`bench/club_data.py` (M members, N four-player games, real rows), then times, in the same run:

1. the baseline: openskill's `PlackettLuce().rate` over the same games, in the same order, in a
   bare loop over lists already in memory (no database: the floor any implementation pays);
2. `clubs.services.ratings.recompute_club` after a correction of the club's first game (two
   places swapped, untimed): one query reading every result, the same loop, one UPDATE writing
   the results that changed (nearly all), one writing the members; and again with nothing changed
   (what `manage.py recompute_ratings` pays on good data: nothing written);
3. a game finishing at the end of the history (`recompute_from` its game: what the hole that
   finishes a club game pays in its transaction).

Both loops must end with the same ratings (checked to the last digit). Targets (issue 33):
recompute <= 3 s and <= 2x the bare loop for 10,000 games of 200 members. Exits with status 1
when one is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)

TARGET_S = 3.0
TARGET_RATIO = 2.0


def bare_loop(games: list[list[tuple[int, int]]]) -> dict[int, tuple[float, float]]:
    """openskill alone: each game's (member, place) list rated in order; the final (mu, sigma)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[int, Any] = {}
    for game in games:
        ratings = [current.get(member) or model.rating() for member, _place in game]
        teams = model.rate([[r] for r in ratings], ranks=[place for _member, place in game])
        for (member, _place), team in zip(game, teams, strict=True):
            current[member] = team[0]
    return {member: (r.mu, r.sigma) for member, r in current.items()}


def games_in_order(club: Any) -> list[list[tuple[int, int]]]:
    """The club's games as the bare loop takes them: (member, place) lists in rating order."""
    from clubs.models import MemberResult

    games: dict[int, list[tuple[int, int]]] = {}
    for game_id, member_id, place in (
        MemberResult.objects.filter(club=club)
        .order_by("finished_at", "game_id", "member_id")
        .values_list("game_id", "member_id", "place")
    ):
        games.setdefault(game_id, []).append((member_id, place))
    return [game for game in games.values() if len(game) >= 2]


def correct_first_game(club: Any) -> None:
    """Swap the places of two members of the club's first game (a correction of the oldest game:
    from there on every rating changes, so the recompute rewrites nearly every result)."""
    from clubs.models import MemberResult

    first = MemberResult.objects.filter(club=club).order_by("finished_at", "game_id").first()
    rows = list(MemberResult.objects.filter(game_id=first.game_id).order_by("place"))
    low, high = rows[0], rows[-1]
    low.place, high.place = high.place, low.place
    MemberResult.objects.bulk_update([low, high], ["place"])


def median_time(call: Any, samples: int, before: Any = None) -> float:
    """The median wall time (s) of `samples` calls (`before` run untimed before each)."""
    times = []
    for _ in range(samples):
        if before is not None:
            before()
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(club: Any, samples: int) -> dict[str, Any]:
    """The timings, and the check that the recompute and the bare loop end alike."""
    from django.db import transaction

    from clubs.models import Member, MemberResult
    from clubs.services.ratings import recompute_club, recompute_from

    rated = recompute_club(club)
    recompute_s = median_time(lambda: recompute_club(club), samples, before=lambda: correct_first_game(club))
    games = games_in_order(club)
    bare_s = median_time(lambda: bare_loop(games), samples)
    stored = dict(
        (
            (m, (mu, sigma))
            for m, mu, sigma in Member.objects.filter(club=club).values_list("pk", "mu", "sigma")
        )
    )
    unchanged_s = median_time(lambda: recompute_club(club), samples)
    last = MemberResult.objects.filter(club=club).order_by("-finished_at", "-game_id").first()

    def finish_last() -> None:
        with transaction.atomic():
            recompute_from(club.pk, last.finished_at, last.game_id)

    return {
        "games": len(games),
        "rated": rated,
        "bare_s": bare_s,
        "recompute_s": recompute_s,
        "ratio": recompute_s / bare_s if bare_s else float("nan"),
        "unchanged_s": unchanged_s,
        "last_game_ms": median_time(finish_last, samples) * 1000,
        "same": stored == bare_loop(games),
    }


def report(figures: dict[str, Any], members: int) -> list[str]:
    """Print the figures as docs/performance.md shows them; answer the targets missed."""
    print(f"\n{figures['games']:,} four-player games of {members} members:")
    print("| what | time | ratio to the bare loop |")
    print("|---|---:|---:|")
    print(f"| openskill alone, bare loop | {figures['bare_s']:.2f} s | 1.00x |")
    print(
        "| recompute_club after a correction of the first game (every result rewritten) "
        f"| {figures['recompute_s']:.2f} s | {figures['ratio']:.2f}x |"
    )
    unchanged = figures["unchanged_s"] / figures["bare_s"]
    print(
        "| recompute_club, nothing changed (nothing written) "
        f"| {figures['unchanged_s']:.2f} s | {unchanged:.2f}x |"
    )
    print(f"| one game finishing at the end (recompute_from) | {figures['last_game_ms']:.1f} ms | |")
    print(f"Same ratings as the bare loop, to the last digit: {figures['same']}")
    missed = []
    if not figures["same"]:
        missed.append("the ratings differ from the bare loop's")
    if figures["recompute_s"] > TARGET_S:
        missed.append(f"recompute {figures['recompute_s']:.2f} s > {TARGET_S} s")
    if figures["ratio"] > TARGET_RATIO:
        missed.append(f"recompute {figures['ratio']:.2f}x the bare loop > {TARGET_RATIO}x")
    return missed


def setup_database() -> list[Any]:
    """A fresh database of its own on the DATABASE_URL server, migrated."""
    import django
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, setup_test_environment

    django.setup()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/club_ratings.py needs PostgreSQL: set DATABASE_URL=postgres://...")
    base = settings.DATABASES["default"]["NAME"]
    settings.DATABASES["default"]["TEST"]["NAME"] = f"{base}_club_bench"
    setup_test_environment()
    print(f"Creating and migrating {base}_club_bench ...", flush=True)
    return setup_databases(verbosity=0, interactive=False)


def main() -> None:
    """Build the club, measure, print; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    old = setup_database()
    from django.db import connection
    from django.test.utils import teardown_databases

    from bench.club_data import build_club

    try:
        started = time.perf_counter()
        data = build_club(members=args.members, games=args.games, seed=args.seed)
        print(f"Built {args.games:,} games in {time.perf_counter() - started:.1f} s", flush=True)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # what autovacuum does after a bulk load
        missed = report(measure(data.club, args.samples), args.members)
    finally:
        if not args.keep:
            teardown_databases(old, verbosity=0)
    for line in missed:
        print(f"MISSED: {line}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
