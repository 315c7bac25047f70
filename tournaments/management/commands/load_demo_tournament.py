"""manage.py load_demo_tournament: a demo event to look around (idempotent; `make run` calls it).

"Demo Open": 12 players, 3 rounds; round 1 played, confirmed and finalized, round 2 seated and in
play with a few holes recorded. Directed by the user `demo` (password `demo-director`, created
if missing; only where DEBUG is on, as `load_demo`'s links). A second run leaves it as it is
(use --reset to rebuild it).
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from golfclub.core.demo_links import (
    DEMO_PASSWORD,
    DEMO_USERNAME,
    add_base_url_argument,
    demo_base_url,
    demo_user,
)
from scoring import selectors
from scoring import services as scoring_services
from tournaments import services
from tournaments.models import Table, Tournament

NAME = "Demo Open"
DIRECTOR = DEMO_USERNAME
PASSWORD = DEMO_PASSWORD
PLAYERS = "name,club,rating\n" + "\n".join(
    f"{name},{club},{rating}"
    for name, club, rating in [
        ("Ann", "North", 1510),
        ("Bob", "North", 1480),
        ("Cy", "South", 1620),
        ("Di", "South", 1390),
        ("Ed", "East", 1550),
        ("Flo", "East", 1440),
        ("Gus", "West", 1700),
        ("Hal", "West", 1350),
        ("Ivy", "North", 1600),
        ("Jo", "South", 1420),
        ("Kai", "East", 1580),
        ("Lu", "West", 1460),
    ]
)


class Command(BaseCommand):
    help = "Create the demo tournament (12 players, round 1 finalized, round 2 in play)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="Delete the demo tournament first.")
        add_base_url_argument(parser)

    def handle(self, *args: Any, reset: bool = False, **options: Any) -> None:
        # Checked first, so a mistyped address stops the command before it writes anything.
        tournaments_url = f"{demo_base_url(options.get('base_url'))}/tournaments/"
        if not settings.DEBUG:
            raise CommandError(
                "The demo tournament (with a known password) is for development: set DEBUG=true."
            )
        director = demo_user()
        existing = Tournament.objects.filter(name=NAME, director=director)
        if existing.exists() and not reset:
            self.stdout.write(
                f"{NAME} is already there: log in as {DIRECTOR} / {PASSWORD} at {tournaments_url}"
            )
            return
        with transaction.atomic():
            for old in existing:
                services.delete_tournament(old)
            tournament = services.create_tournament(
                director=director, name=NAME, venue="Club house", rounds=3, seed=2026, time_limit_minutes=60
            )
            services.import_entrants(tournament, PLAYERS, actor=director)
            rng = random.Random(2026)
            self._play(tournament, rng, holes=None)
            services.finalize_round(tournament, 1, actor=director)
            self._play(tournament, rng, holes=4)
        self.stdout.write(f"{NAME} is ready: log in as {DIRECTOR} / {PASSWORD} at {tournaments_url}")

    def _play(self, tournament: Tournament, rng: random.Random, *, holes: int | None) -> None:
        round_ = services.seat_next_round(tournament)
        services.publish_round(tournament, round_.number)
        tournament.refresh_from_db()
        count = holes or tournament.ruleset["holes"]
        for table in Table.objects.filter(round=round_).select_related("game"):
            names = selectors.seat_names(table.game_id)
            for _hole in range(count):
                scoring_services.hole_record(
                    table.game, entries={name: rng.randint(-2, 24) for name in names}, ender=None
                )
            if holes is None:
                services.confirm_table(table.game, names[1])
