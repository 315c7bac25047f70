"""The load test's database side, in-process: a fresh database, the event, and the final check.

`bench/loadtest.py` drives the app over HTTP only; this module prepares what a director would have
prepared before the day (the players imported, round 1 seated and published, an API token) and,
after the run, compares the database with what the clients were acknowledged.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432"


@dataclass(frozen=True)
class TableLink:
    """One table of a round, as its phone knows it: the edit token and the players in seat order."""

    number: int
    token: str
    players: tuple[str, ...]


def fresh_database(name: str, env: dict[str, str]) -> None:
    """Drop and create `name`, migrate it and make the cache table (as `make run` does)."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    for command in (["migrate", "--noinput"], ["createcachetable"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True
        )


def setup_django(env: dict[str, str]) -> None:
    """Use the load test's database and settings in this process too."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def create_event(players: int, rounds: int) -> tuple[int, str]:
    """A public event of `players` (live standings), round 1 seated and published; its id and the
    director's API token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments import services

    director = get_user_model().objects.create_user("director", password="load-test-director")
    tournament = services.create_tournament(
        director=director, name="Load test open", rounds=rounds, seed=2026, time_limit_minutes=60
    )
    services.import_entrants(
        tournament, "name,club\n" + "\n".join(f"Player {n:04d},Club {n % 40}" for n in range(1, players + 1))
    )
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    return tournament.pk, Token.objects.create(user=director).key


def tables_of(tournament_id: int, round_number: int) -> list[TableLink]:
    """The round's tables as their phones know them."""
    from tournaments.models import Table

    tables = Table.objects.filter(round__tournament_id=tournament_id, round__number=round_number)
    return [
        TableLink(
            number=table.number,
            token=table.game.edit_token,
            players=tuple(table.game.seats.order_by("seat").values_list("name", flat=True)),
        )
        for table in tables.select_related("game").order_by("number")
    ]


def check_against_acknowledged(acknowledged: dict[str, dict[int, dict[str, int]]]) -> dict[str, Any]:
    """Every acknowledged hole in the database exactly once, with the typed totals acknowledged,
    and no hole that was not acknowledged; each seat's total the sum of its holes."""
    from scoring.models import Game, HoleEntry

    lost, doubled, wrong, extra, totals_off = [], [], [], [], []
    for token, holes in acknowledged.items():
        game = Game.objects.get(edit_token=token)
        stored: dict[int, list[dict[str, int]]] = {}
        entries = HoleEntry.objects.filter(hole__game=game, hole__is_playoff=False).select_related(
            "hole", "seat"
        )
        by_hole: dict[int, dict[int, dict[str, int]]] = {}
        for entry in entries:
            by_hole.setdefault(entry.hole.number, {}).setdefault(entry.hole_id, {})[entry.seat.name] = (
                entry.typed_total
            )
        for number, copies in by_hole.items():
            stored[number] = list(copies.values())
        for number, typed in holes.items():
            if number not in stored:
                lost.append((token, number))
            elif len(stored[number]) > 1:
                doubled.append((token, number))
            elif stored[number][0] != typed:
                wrong.append((token, number))
        extra += [(token, number) for number in stored if number not in holes]
        for seat in game.seats.all():
            if seat.total != sum(h.get(seat.name, 0) for h in holes.values()):
                totals_off.append((token, seat.name))
    return {
        "holes acknowledged": sum(len(h) for h in acknowledged.values()),
        "lost": lost,
        "doubled": doubled,
        "different": wrong,
        "never acknowledged": extra,
        "seat totals off": totals_off,
    }


def standings_match_a_recomputation(tournament_id: int, answered: list[dict[str, Any]]) -> bool:
    """The standings the API answered at the end equal the standings computed afresh, no cache."""
    from tournaments.models import Tournament
    from tournaments.standings import compute_standings

    fresh = compute_standings(Tournament.objects.get(pk=tournament_id), live=True)
    return [line.to_api() for line in fresh.lines] == answered


def casual_games(base: str, count: int) -> list[TableLink]:
    """`count` casual 4-player games created through the API (each from its own address: the
    creation limit counts per address), for the knee's steady hole writes."""
    import httpx

    links = []
    players = ("ann", "bob", "cat", "dan")
    with httpx.Client(base_url=base, verify=False, timeout=30) as client:
        for number in range(count):
            answer = client.post(
                "/api/v1/games/",
                json={"players": list(players), "ruleset": "official"},
                headers={"X-Forwarded-For": f"10.4.{number // 250}.{number % 250}"},
            )
            answer.raise_for_status()
            links.append(
                TableLink(number=10_000 + number, token=answer.json()["edit_token"], players=players)
            )
    return links
