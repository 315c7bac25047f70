"""Server time of the scoreboard page of an 18-hole, 6-player game, rendered in-process.

    .venv/bin/python bench/scoreboard.py [--samples 50]

Run on its own it uses the configured database (SQLite by default); bench/live_games.py runs it
against the PostgreSQL bench database. Prints one JSON line: p50_ms, p99_ms, bytes, queries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]


def build_game():
    """An official 18-hole game of 6 players with random legal grids (two packs: 6 players)."""
    from scoring import services

    rng = random.Random(7)
    game = services.create_game(players=NAMES, ruleset={"preset": "official", "holes": 18, "decks": 2})
    for number in range(18):
        deck = [rank for rank in RANKS for _ in range(8)]
        rng.shuffle(deck)
        entries = {
            name: [deck[i * 6 : i * 6 + 3], deck[i * 6 + 3 : i * 6 + 6]] for i, name in enumerate(NAMES)
        }
        services.hole_record(game, entries=entries, ender=NAMES[number % 6], actor="bench")
    return game


def main() -> None:
    """Build the game, warm the page once, then time `samples` renders."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=50)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    if connection.vendor == "sqlite" and not os.environ.get("DATABASE_URL"):
        call_command("migrate", verbosity=0)
    game = build_game()
    client = Client()
    url = f"/games/v/{game.view_token}/"
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    times = []
    for _ in range(args.samples):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    times.sort()
    print(
        json.dumps(
            {
                "p50_ms": statistics.median(times) * 1000,
                "p99_ms": times[max(0, int(len(times) * 0.99) - 1)] * 1000,
                "bytes": len(response.content),
                "queries": len(queries),
            }
        )
    )


if __name__ == "__main__":
    main()
