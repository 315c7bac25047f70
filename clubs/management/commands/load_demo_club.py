"""manage.py load_demo_club: a demo club with months of history (idempotent; `make run` calls it).

"Friday Golf", owned by the demo account (`demo` / `demo-director`, shared with the demo
tournament): 7 members (one retired), a season for this year and one for last year, 30 finished
games of 3 to 5 players (some with a guest, some ending in a shared place) and one game in play.

Every game is started by the club's own service (`start_club_game`) and scored hole by hole
through `scoring.services.hole_record` with typed totals drawn from a fixed seed (each member
with their own average), so the results and ratings are written by the real club game follower.

Demo only, the back-dating: a game counts from the moment it finishes, so all of them would
finish "now". To spread them over the past months, the command then moves each game's
`MemberResult.finished_at` (and its link's, game's and holes' times) to an evening in the past,
in the order they were played, and calls `recompute_club`: the ratings are then exactly those a
real history in that order would have given (they depend only on that order and the places).
Outside this command a counted game's time is only ever the moment it finished.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from clubs.models import Club, ClubGame, Member, MemberResult
from clubs.services import members as member_services
from clubs.services import seasons as season_services
from clubs.services.club_games import start_club_game
from clubs.services.clubs import create_club
from clubs.services.ratings import recompute_club
from golfclub.core.demo_links import (
    DEMO_PASSWORD,
    DEMO_USERNAME,
    add_base_url_argument,
    demo_base_url,
    demo_user,
)
from scoring import selectors
from scoring import services as scoring_services

NAME = "Friday Golf"
SEED = 2026
GAMES = 30
#: The members and their average typed hole total (lower is better), so the ratings spread.
MEMBERS: tuple[tuple[str, float], ...] = (
    ("Ann", 5.0),
    ("Bob", 7.5),
    ("Chloé", 8.5),
    ("Dev", 10.0),
    ("Eli", 11.0),
    ("Fran", 12.5),
    ("Gus", 9.0),
)
RETIRED = "Gus"  # plays the first games only, then retires
GUESTS: tuple[tuple[str, float], ...] = (("Hana", 9.5), ("Ivo", 12.0))
OFFICIAL = "official"
#: The typed totals drawn stay in a plausible range: the official 2s score -2 (a pair in a column
#: -4); under the house rules (basic values) no hole scores below 0.
LOWEST_TOTAL = {OFFICIAL: -4}
HIGHEST_TOTAL = 30
#: The club's house rules for some evenings: players level at the end share the place.
HOUSE_RULES: dict[str, Any] = {"preset": "basic", "tiebreakers": ["shared"]}


@dataclass(frozen=True)
class Evening:
    """One game to play: its seats (a member or a guest's name), ruleset, and whether to end it in
    a tie for first place."""

    seats: tuple[Member | str, ...]
    ruleset: Any
    tie: bool


class Command(BaseCommand):
    """Load the demo club (idempotent) and print its links."""

    help = "Create the demo club Friday Golf with months of games (--reset rebuilds it)."

    def add_arguments(self, parser: CommandParser) -> None:
        """--reset deletes the demo club and its games first; --base-url is where links point."""
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo club and its games, then create it again."
        )
        add_base_url_argument(parser)

    def handle(self, *args: Any, reset: bool = False, **options: Any) -> None:
        """Create the club unless it is there, then print its links; refuse outside development."""
        base_url = demo_base_url(options.get("base_url"))
        if not settings.DEBUG:
            raise CommandError(
                "The demo club (owned by an account with a known password) is for development: "
                "set DEBUG=true."
            )
        owner = demo_user()
        existing = demo_club(owner)
        if existing is not None and reset:
            delete_demo_club(existing)
            existing = None
        if existing is None:
            with transaction.atomic():
                club = build_demo_club(owner, random.Random(SEED))
            self.stdout.write(f"{NAME} is ready.")
        else:
            club = existing
            self.stdout.write(f"{NAME} is already there.")
        self._print_links(club, base_url)

    def _print_links(self, club: Club, base_url: str) -> None:
        self.stdout.write(f"  log in as {DEMO_USERNAME} / {DEMO_PASSWORD}, then:")
        self.stdout.write(f"  club: {base_url}/clubs/{club.pk}/")
        self.stdout.write(f"  members: {base_url}/clubs/{club.pk}/members/")
        self.stdout.write(f"  seasons: {base_url}/clubs/{club.pk}/seasons/")
        live = ClubGame.objects.filter(club=club, game__status="in_progress").select_related("game").first()
        if live is not None:
            self.stdout.write(f"  game in play: {base_url}/games/e/{live.game.edit_token}/")


def demo_club(owner: Any) -> Club | None:
    """The demo club of the demo account, if it is there."""
    return Club.objects.filter(name=NAME, owners__user=owner).order_by("pk").first()


def delete_demo_club(club: Club) -> None:
    """Delete the demo club (members, seasons, results, links) and then its games."""
    with transaction.atomic():
        game_ids = list(ClubGame.objects.filter(club=club).values_list("game_id", flat=True))
        club.delete()
        scoring_services.delete_games(game_ids)


def build_demo_club(owner: Any, rng: random.Random) -> Club:
    """The club, its members and seasons, its past games (back-dated) and one game in play."""
    club = create_club(user=owner, name=NAME)
    members = member_services.add_members(club, [name for name, _mean in MEMBERS])
    today = timezone.localdate()
    for year in (today.year - 1, today.year):
        season_services.create_season(
            club, name=str(year), start=datetime.date(year, 1, 1), end=datetime.date(year, 12, 31)
        )
    means = dict(MEMBERS + GUESTS)
    evenings = plan_evenings(members, rng)
    finished: list[int] = []
    for evening in evenings:
        game = start_club_game(club, seats=evening.seats, ruleset=evening.ruleset, owner=owner)
        play(game, evening, means, rng, holes=None)
        finished.append(game.pk)
    backdate(club, finished, evening_times(len(finished), rng))
    member_services.retire_member(club, next(m for m in members if m.name == RETIRED), True)
    active = [member for member in members if member.name != RETIRED]
    live = Evening(tuple(rng.sample(active, 4)), OFFICIAL, tie=False)
    game = start_club_game(club, seats=live.seats, ruleset=OFFICIAL, owner=owner, title="Tonight")
    play(game, live, means, rng, holes=4)
    return club


def plan_evenings(members: Sequence[Member], rng: random.Random) -> list[Evening]:
    """The past games in the order played: 3 to 5 players; a guest every fourth evening; the house
    rules every third, those ending level at the top when a plausible last hole allows; the
    retired member only in the first two thirds."""
    evenings = []
    for index in range(GAMES):
        pool = [m for m in members if m.name != RETIRED or index < GAMES * 2 // 3]
        size = rng.randint(3, 5)
        seats: list[Member | str] = list(rng.sample(pool, size))
        if index % 4 == 1:
            seats[rng.randrange(size)] = GUESTS[index % len(GUESTS)][0]
        house = index % 3 == 2
        evenings.append(Evening(tuple(seats), HOUSE_RULES if house else OFFICIAL, tie=house))
    return evenings


def play(
    game: Any, evening: Evening, means: dict[str, float], rng: random.Random, *, holes: int | None
) -> None:
    """Record the game's holes as typed totals (each player around their average), to the end
    (sudden-death holes included) or `holes` holes; a tie evening's last hole puts the runner-up
    level with the leader. The scoreboard is read only after the ruleset's holes (it is the
    slowest part): before that every player plays every hole."""
    names = [seat.name if isinstance(seat, Member) else seat for seat in evening.seats]
    low = LOWEST_TOTAL.get(evening.ruleset if isinstance(evening.ruleset, str) else "", 0)
    totals = dict.fromkeys(names, 0)
    last = selectors.game_ruleset(game).holes
    for number in range(1, (holes or last) + 1):
        entries = {name: hole_total(means[name], low, rng) for name in names}
        if evening.tie and number == last:
            level_the_leaders(totals, entries, low)
        for name, total in entries.items():
            totals[name] += total
        scoring_services.hole_record(game, entries=entries, ender=None, actor=names[0])
    while holes is None and (next_hole := selectors.scoreboard(game).next_hole) is not None:
        entries = {name: hole_total(means[name], low, rng) for name in next_hole.players}
        scoring_services.hole_record(game, entries=entries, ender=None, playoff=True, actor=names[0])


def hole_total(mean: float, low: int, rng: random.Random) -> int:
    """A plausible typed hole total of a 6-card grid for a player of that average."""
    return max(low, min(HIGHEST_TOTAL, round(rng.gauss(mean, 5))))


def level_the_leaders(totals: dict[str, int], entries: dict[str, int], low: int) -> None:
    """Change the last hole of the leader or the runner-up so that both finish level (the house
    rules then share first place), whichever keeps that hole a plausible total."""
    after = {name: totals[name] + entries[name] for name in entries}
    leader, second = sorted(after, key=after.__getitem__)[:2]
    for name, target in ((second, after[leader]), (leader, after[second])):
        needed = target - totals[name]
        if low <= needed <= HIGHEST_TOTAL:
            entries[name] = needed
            return


def evening_times(count: int, rng: random.Random) -> list[datetime.datetime]:
    """`count` evenings in order, from some months back (into last year, so both seasons have
    games) to a few days ago, about evenly spread."""
    now = timezone.localtime()
    new_year = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    first = min(now - datetime.timedelta(days=120), new_year - datetime.timedelta(days=60))
    last = now - datetime.timedelta(days=3)
    step = (last - first) / max(count - 1, 1)
    times = []
    for index in range(count):
        day = first + step * index
        times.append(day.replace(hour=21, minute=rng.randrange(60), second=0, microsecond=0))
    return times


def backdate(club: Club, game_ids: Sequence[int], times: Sequence[datetime.datetime]) -> None:
    """Demo only: move each finished game to its evening (its results' `finished_at`, its link's
    and game's creation, its holes' times, as the exports and pages show them; the change history
    keeps the real times), then recompute the club's ratings in that order.

    The game and hole rows are reached through the link's relation: this command is the one place
    in clubs that writes scoring's rows directly, and only these timestamps."""
    game_model = ClubGame._meta.get_field("game").related_model
    hole_model = game_model._meta.get_field("holes").related_model
    for game_id, finished_at in zip(game_ids, times, strict=True):
        holes = list(hole_model.objects.filter(game_id=game_id).order_by("is_playoff", "number"))
        started_at = finished_at - datetime.timedelta(minutes=8 * len(holes))
        for index, hole in enumerate(holes, start=1):
            hole.created_at = hole.updated_at = started_at + datetime.timedelta(minutes=8 * index)
        hole_model.objects.bulk_update(holes, ["created_at", "updated_at"])
        MemberResult.objects.filter(club=club, game_id=game_id).update(finished_at=finished_at)
        ClubGame.objects.filter(game_id=game_id).update(added_at=started_at)
        game_model.objects.filter(pk=game_id).update(created_at=started_at, updated_at=finished_at)
    recompute_club(club)
