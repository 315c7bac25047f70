"""Benchmark: a 1,000-player, 5-round tournament on PostgreSQL, and its standings.

    .venv/bin/python bench/tournament.py [--players 1000] [--rounds 5] [--baseline 100] [--samples 20]
    .venv/bin/python bench/tournament.py --keep     # keep the database ...
    .venv/bin/python bench/tournament.py --reuse    # ... and measure its standings again (no build)

Reads DATABASE_URL (PostgreSQL; the server of that URL) and works in a database of its own,
`<name>_tournament_bench`, created and migrated for the run and dropped at the end (`--keep`
keeps it, `--reuse` measures the events a `--keep` run left, without the seating figures). What
it does, in-process:

1. builds the event through the services, as a director and the tables would: the players
   imported as a CSV, then each round seated (`seat_next_round`, timed), published, every table
   recording its 9 holes (`scoring.services.hole_record` with typed totals, as a phone sends them,
   under the tables' capabilities, so the TableManager's check_hole_change and after_change run), a second
   player confirming each table, the round finalized: 250 tables a round, 45,000 hole entries;
2. builds a baseline event of `--baseline` players the same way, in the same run;
3. times the standings for both: the selector without any cache (`compute_standings`) and
   through the shared cache (`cached_standings`): after a hole (before each call a hole of a
   random table of the last round corrected through `scoring.services.hole_update`, every score
   moved by 1 to 3: that game's version moves in the correction's transaction, as with any hole),
   after a round changed (the last round's own version and the tournament's bumped, as by a
   director's change: the table is computed again, the last round read again, the others kept),
   and unchanged; then the standings page `/tournaments/<id>/standings/` and
   `GET /api/v1/tournaments/<id>/standings/` through Django's test client as the director, after
   a hole and unchanged (server time, p50/p95 over `--samples` requests, query counts).
   A route that does not exist yet is reported as such.

Targets: seating <= 0.1 s a round after the first, and round 1 (which makes the whole event's
seating plan, at most 1 s, then seats the round) <= 1.1 s (issue 34); standings <= 200 ms and
<= 15 queries whatever the size (issue 8), and the cached selector after a hole <= 20 ms at the
large size (issue 34). Exits with status 1 when one is missed.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
# The bench settings are the production ones: a throwaway key when none is given.
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)

SEATING_TARGET_S = 0.1  # a round after the first: its tables read from the plan and written
FIRST_ROUND_TARGET_S = 1.1  # round 1: the whole plan (<= 1 s) made, then the round seated
AFTER_A_HOLE_TARGET_MS = 20.0  # the cached selector after a hole, at the large size (issue 34)
STANDINGS_TARGET_MS = 200.0
STANDINGS_MAX_QUERIES = 15


def percentile(values: list[float], pct: float) -> float:
    """The pct-th percentile (nearest rank) of values."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered)) - 1))
    return ordered[index]


def build_event(players: int, rounds: int, seed: int) -> tuple[Any, list[float], float]:
    """A finished event of `players` players over `rounds` rounds, built through the services.

    Returns the tournament, the seating time of each round (s) and the time the holes took (s)."""
    from django.contrib.auth import get_user_model

    from scoring import services as scoring_services
    from tournaments import services
    from tournaments.models import Table

    director = get_user_model().objects.create_user(f"director{players}", password="bench-pw-12345")
    tournament = services.create_tournament(
        director=director,
        name=f"Bench Open {players}",
        ruleset="official",
        rounds=rounds,
        seating="fewest_repeats",
        seed=seed,
    )
    csv = "name,club\n" + "\n".join(f"Player {n:04d},Club {n % 40}" for n in range(1, players + 1))
    services.import_entrants(tournament, csv)
    holes = tournament.ruleset["holes"]
    rng = random.Random(seed)
    seating_s: list[float] = []
    holes_s = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        round_ = services.seat_next_round(tournament, actor=director)
        seating_s.append(time.perf_counter() - start)
        services.publish_round(tournament, round_.number, actor=director)
        tables = list(Table.objects.filter(round=round_).select_related("game").order_by("number"))
        start = time.perf_counter()
        for table in tables:
            names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
            for _hole in range(holes):
                scoring_services.hole_record(
                    table.game,
                    entries={name: rng.randint(-4, 30) for name in names},
                    ender=None,
                    capabilities={"view", "score"},
                )
            services.confirm_table(table.game, names[1])
        holes_s += time.perf_counter() - start
        services.finalize_round(tournament, round_.number, actor=director)
        print(
            f"  {players} players, round {round_.number}: {len(tables)} tables, seated in "
            f"{seating_s[-1]:.2f} s, holes recorded in {time.perf_counter() - start:.1f} s",
            flush=True,
        )
    tournament.refresh_from_db()
    return tournament, seating_s, holes_s


def timed(call: Callable[[], Any], samples: int, before: Callable[[], None] | None = None) -> dict[str, Any]:
    """p50/p95 (ms) of `samples` calls, and the queries of one more call (after `before` each time)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times: list[float] = []
    for _ in range(samples):
        if before:
            before()
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    if before:
        before()
    with CaptureQueriesContext(connection) as queries:
        call()
    return {
        "p50": statistics.median(times),
        "p95": percentile(times, 95),
        "queries": len(queries),
    }


def measure(tournament: Any, samples: int) -> dict[str, dict[str, Any] | None]:
    """The standings' server time and queries: selector, page and API (None for a missing route)."""
    from django.db.models import F
    from django.test import Client

    from tournaments.models import Round
    from tournaments.services.events import bump_version
    from tournaments.standings import cached_standings, compute_standings

    rng = random.Random(tournament.pk)

    def round_changed() -> None:
        # As after a director's change to the last round (seating, publishing, finalizing): the
        # round's own version and the tournament's move on, so the cached table cannot answer and
        # the last round's records are read again from the database (the others are kept).
        Round.objects.filter(tournament=tournament, number=tournament.rounds).update(version=F("version") + 1)
        bump_version(tournament.pk)
        tournament.refresh_from_db(fields=["version"])

    def hole_changed() -> None:
        hole_corrected(tournament, rng)

    results: dict[str, dict[str, Any] | None] = {
        "selector (no cache)": timed(lambda: compute_standings(tournament), samples, round_changed),
        "cached selector, after a hole": timed(lambda: cached_standings(tournament), samples, hole_changed),
        "cached selector, after a round changed": timed(
            lambda: cached_standings(tournament), samples, round_changed
        ),
        "cached selector, unchanged": timed(lambda: cached_standings(tournament), samples),
    }
    client = Client()
    client.force_login(tournament.director)
    for label, url in (
        ("page", f"/tournaments/{tournament.pk}/standings/"),
        ("API", f"/api/v1/tournaments/{tournament.pk}/standings/"),
    ):
        if client.get(url).status_code == 404:
            results[label] = None
            continue

        def get(url: str = url) -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        results[f"{label}, after a hole"] = timed(get, samples, hole_changed)
        results[f"{label}, unchanged"] = timed(get, samples)
    return results


def moved(score: int, by: int) -> int:
    """`score` moved `by` up or down, staying within the scores the event was built with (-4 to 30)."""
    return score + by if score + by <= 30 else score - by


def hole_corrected(tournament: Any, rng: random.Random) -> None:
    """A hole of a random table of the last round corrected through the scoring service (new
    scores for its players, as a director's late correction writes them): that game's version
    moves in the correction's transaction, and nothing else the standings read changes, as after
    a hole recorded while a round is in play."""
    from scoring import services as scoring_services
    from tournaments.models import Table

    table = rng.choice(
        list(Table.objects.filter(round__tournament=tournament, round__number=tournament.rounds))
    )
    game = table.game
    hole = rng.choice(list(game.holes.filter(is_playoff=False)))
    # Each score moved by 1 to 3: the standings change on every run, also on a reused
    # database whose holes an earlier run corrected from the same seed.
    scores = dict(hole.entries.values_list("seat__name", "score"))
    scoring_services.hole_update(
        game,
        hole.number,
        expected_version=None,
        entries={name: moved(score, rng.choice((1, 2, 3))) for name, score in scores.items()},
        ender=None,
        capabilities=None,
        reason="bench: a late correction",
        actor="bench",
    )


def setup_database() -> tuple[Any, list[Any]]:
    """A fresh database of its own on the DATABASE_URL server, migrated."""
    import django
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, setup_test_environment

    django.setup()
    # No collectstatic in a bench run, and a route not merged yet is reported in the table.
    warnings.filterwarnings("ignore", message="No directory at")
    logging.getLogger("django.request").setLevel(logging.ERROR)
    if connection.vendor != "postgresql":
        raise SystemExit("bench/tournament.py needs PostgreSQL: set DATABASE_URL=postgres://...")
    base = settings.DATABASES["default"]["NAME"]
    settings.DATABASES["default"]["TEST"]["NAME"] = f"{base}_tournament_bench"
    setup_test_environment()
    print(f"Creating and migrating {base}_tournament_bench ...", flush=True)
    old = setup_databases(verbosity=0, interactive=False)
    return connection, old


def main() -> None:
    """Build both events, measure, print the figures and their ratios; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=int, default=100)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="measure the standings of the events a --keep run left (no build, no seating figures)",
    )
    args = parser.parse_args()

    if args.reuse:
        reuse_database()
        sys.exit(1 if run(args) else 0)
    _connection, old = setup_database()
    from django.test.utils import teardown_databases

    try:
        missed = run(args)
    finally:
        if not args.keep:
            teardown_databases(old, verbosity=0)
    sys.exit(1 if missed else 0)


def reuse_database() -> None:
    """Connect to the bench database a `--keep` run left, as it is (nothing created or dropped)."""
    import django
    from django.conf import settings
    from django.db import connection

    django.setup()
    warnings.filterwarnings("ignore", message="No directory at")
    logging.getLogger("django.request").setLevel(logging.ERROR)
    if connection.vendor != "postgresql":
        raise SystemExit("bench/tournament.py needs PostgreSQL: set DATABASE_URL=postgres://...")
    name = f"{settings.DATABASES['default']['NAME']}_tournament_bench"
    settings.DATABASES["default"]["NAME"] = name
    connection.settings_dict["NAME"] = name
    from django.test.utils import setup_test_environment

    setup_test_environment()
    print(f"Reusing {name} (built by an earlier --keep run) ...", flush=True)


def reused_event(players: int) -> tuple[Any, list[float], float]:
    """The event of `players` players a `--keep` run built (no seating or hole figures)."""
    from tournaments.models import Tournament

    found = Tournament.objects.filter(name=f"Bench Open {players}").order_by("-pk").first()
    if found is None:
        raise SystemExit(f"no {players}-player event in the bench database: run once with --keep")
    return found, [], 0.0


def seating_missed(seating_s: list[float]) -> list[str]:
    """The rounds seated slower than their target (round 1 makes the whole plan)."""
    return [
        f"seating round {n} {s:.2f} s"
        for n, s in enumerate(seating_s, 1)
        if s > (FIRST_ROUND_TARGET_S if n == 1 else SEATING_TARGET_S)
    ]


def run(args: argparse.Namespace) -> list[str]:
    """The benchmark itself; returns the targets missed."""
    from scoring.models import HoleEntry

    built = {}
    for size in (args.baseline, args.players):
        if args.reuse:
            built[size] = reused_event(size)
            continue
        print(f"Building a {size}-player, {args.rounds}-round event through the services ...", flush=True)
        built[size] = build_event(size, args.rounds, args.seed)
    # What autovacuum does after a bulk load: the planner sees the tables as they now are.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    big, seating_s, holes_s = built[args.players]
    small = built[args.baseline][0]
    entries = HoleEntry.objects.filter(hole__game__tournament_table__round__tournament=big).count()
    print(f"\n{args.players} players: {entries:,} hole entries")
    if not args.reuse:
        seated = ", ".join(f"{s:.2f}" for s in seating_s)
        print(f"Holes recorded in {holes_s:.0f} s; seating per round (s): {seated}")
    missed = seating_missed(seating_s)

    figures = {size: measure(built[size][0], args.samples) for size in (args.baseline, args.players)}
    del small
    print(f"\nStandings, server time in ms over {args.samples} requests (queries of one request):")
    print(f"| what | {args.baseline} players p50 / p95 | {args.players} players p50 / p95 | ratio p50 |")
    print("|---|---:|---:|---:|")
    for label, result in figures[args.players].items():
        base = figures[args.baseline][label]
        if result is None or base is None:
            print(f"| {label} | not yet available | not yet available | |")
            continue
        ratio = result["p50"] / base["p50"] if base["p50"] else float("nan")
        print(
            f"| {label} | {base['p50']:.1f} / {base['p95']:.1f} ({base['queries']} q) | "
            f"{result['p50']:.1f} / {result['p95']:.1f} ({result['queries']} q) | {ratio:.2f}x |"
        )
        for size in (args.baseline, args.players):
            got = figures[size][label]
            assert got is not None
            if got["p50"] > STANDINGS_TARGET_MS:
                missed.append(f"{label} at {size} players: p50 {got['p50']:.0f} ms")
            if got["queries"] > STANDINGS_MAX_QUERIES:
                missed.append(f"{label} at {size} players: {got['queries']} queries")
    after_a_hole = figures[args.players].get("cached selector, after a hole")
    if after_a_hole is not None and after_a_hole["p50"] > AFTER_A_HOLE_TARGET_MS:
        missed.append(
            f"cached selector after a hole at {args.players} players: p50 {after_a_hole['p50']:.1f} ms"
        )
    print(
        f"\nTargets: seating <= {SEATING_TARGET_S} s a round after the first, round 1 (the plan made) <= "
        f"{FIRST_ROUND_TARGET_S} s; standings <= {STANDINGS_TARGET_MS:.0f} ms and <= {STANDINGS_MAX_QUERIES} "
        f"queries; the cached selector after a hole <= {AFTER_A_HOLE_TARGET_MS:.0f} ms "
        f"at {args.players} players."
    )
    print("Missed: " + "; ".join(missed) if missed else "Every target met.")
    return missed


if __name__ == "__main__":
    main()
