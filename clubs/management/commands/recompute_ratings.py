"""manage.py recompute_ratings [--club ID]: rebuild every club's members' results and ratings (or
one club's) from the games as they stand.

Each club in its own transaction (`clubs.services.results.recount_club`): its counted games'
results are rewritten (places, totals, low holes, best hole; each live game keeps the moment it
was counted, each tournament table its round's finalizing time) and every rating recomputed in
order. On data the app wrote itself it changes nothing, to the last digit; run it after a fix to
how results are read, or to repair a database edited by hand.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from clubs.services.results import recount_club


class Command(BaseCommand):
    help = "Rebuild the clubs' members' results and ratings from their games (all clubs, or --club ID)."

    def add_arguments(self, parser: CommandParser) -> None:
        """--club ID."""
        parser.add_argument("--club", type=int, default=None, help="Only this club (its id).")

    def handle(self, *args: Any, club: int | None, **options: Any) -> None:
        """Recount each club, and say how many games each rated."""
        clubs = Club.objects.order_by("pk")
        if club is not None:
            clubs = clubs.filter(pk=club)
            if not clubs.exists():
                raise CommandError(f"No club with id {club}.")
        for each in clubs:
            rated = recount_club(each)
            self.stdout.write(f"Club {each.pk} ({each.name}): {rated} games rated.")
