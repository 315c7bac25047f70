"""A fast builder of a club's history for the benchmarks: M members and N finished four-player
games with real rows, written with `bulk_create` (seconds, where the services would take an hour).

    from bench.club_data import build_club
    data = build_club(members=200, games=10_000, seed=2026)

Writes a `Club` with an owner, its `Member`s, and per game a finished `scoring.Game` (the official
ruleset, followed by "clubs.game") with its four `Seat`s (totals, holes played), a `ClubGame`,
a `SeatMember` per seat and a `MemberResult` per member (place from the totals, shared when
level; low holes and best hole drawn consistently), one game a minute from `start`. With
`holes=True` each game also gets its nine holes' typed `HoleEntry` rows, the totals their sums (for
what reads the scorecards). The ratings are then computed by `clubs.services.ratings.recompute_club`,
so members and results hold what the app would have written. Needs Django set up and a database.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

SEATS = 4
HOLES = 9


@dataclass(frozen=True)
class ClubData:
    """What was built: the club, its members' ids and its games' ids (in finishing order)."""

    club: Any
    member_ids: list[int]
    game_ids: list[int]


def _places(totals: list[int]) -> list[int]:
    """Place of each seat: 1 + the number of strictly lower totals (level totals share it)."""
    return [1 + sum(other < total for other in totals) for total in totals]


def build_club(
    *,
    members: int = 200,
    games: int = 10_000,
    seed: int = 2026,
    name: str = "Bench Club",
    start: datetime | None = None,
    holes: bool = False,
) -> ClubData:
    """Build the club's members and `games` finished four-player games; answer their ids."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from clubs.models import Club, ClubGame, ClubOwner, Member
    from clubs.services.ratings import recompute_club
    from golfclub.core.names import name_key

    rnd = random.Random(seed)
    start = start or datetime(2026, 1, 1, 18, 0, tzinfo=UTC)
    with transaction.atomic():
        owner, _ = get_user_model().objects.get_or_create(username=f"{name_key(name)}-owner")
        club = Club.objects.create(name=name)
        ClubOwner.objects.create(club=club, user=owner)
        people = Member.objects.bulk_create(
            Member(club=club, name=f"Member {n:04d}", name_key=name_key(f"Member {n:04d}"))
            for n in range(1, members + 1)
        )
        member_ids = [m.pk for m in people]
        game_ids: list[int] = []
        for first in range(0, games, 2000):  # batches keep the memory flat at any size
            count = min(2000, games - first)
            tables = [rnd.sample(member_ids, SEATS) for _ in range(count)]
            times = [start + timedelta(minutes=first + i) for i in range(count)]
            built = _write_games(club, tables, times, rnd, holes)
            ClubGame.objects.bulk_create(ClubGame(game_id=g, club=club) for g in built)
            game_ids += built
    recompute_club(club)
    return ClubData(club=club, member_ids=member_ids, game_ids=game_ids)


def _rows_of_games(
    club: Any, games: list[Any], tables: list[list[int]], scores: list[Any], times: list[datetime]
) -> tuple[list[Any], list[Any], list[Any]]:
    """The seats, seats' members and members' results of a batch of finished games."""
    from clubs.models import MemberResult, SeatMember
    from golfclub.core.names import name_key
    from scoring.models import Seat

    seats, links, results = [], [], []
    for game, seated, card, at in zip(games, tables, scores, times, strict=True):
        totals = [sum(line) for line in card]
        places = _places(totals)
        lows = [min(line[h] for line in card) for h in range(HOLES)]
        for index, member_id in enumerate(seated):
            name = f"Member {member_id:04d}"
            seats.append(
                Seat(
                    game=game,
                    seat=index,
                    name=name,
                    name_key=name_key(name),
                    total=totals[index],
                    holes_played=HOLES,
                )
            )
            links.append(SeatMember(game=game, seat=index, member_id=member_id))
            results.append(
                MemberResult(
                    club=club,
                    member_id=member_id,
                    game=game,
                    finished_at=at,
                    players=SEATS,
                    place=places[index],
                    total_points=totals[index],
                    holes_played=HOLES,
                    low_hole_score=sum(card[index][h] == lows[h] for h in range(HOLES)),
                    best_hole_score=min(card[index]),
                    mu_before=25.0,
                    sigma_before=25.0 / 3,
                    mu_after=25.0,
                    sigma_after=25.0 / 3,
                )
            )
    return seats, links, results


def _write_games(
    club: Any, tables: list[list[int]], times: list[datetime], rnd: random.Random, holes: bool
) -> list[int]:
    """One batch: games, seats, seats' members, members' results (and holes); answers game ids."""
    from clubs.models import MemberResult, SeatMember
    from scoring.models import Game, GameStatus, Seat
    from scoring.rules import resolve_ruleset

    ruleset = resolve_ruleset("official").to_dict()
    scores = [[[rnd.randint(-2, 12) for _ in range(HOLES)] for _ in range(SEATS)] for _ in tables]
    games = Game.objects.bulk_create(
        Game(
            ruleset=ruleset,
            status=GameStatus.FINISHED,
            followed_by="clubs.game",
            ruleset_frozen_at=at,
            winners=[
                f"Member {seated[s]:04d}" for s, p in enumerate(_places([sum(x) for x in card])) if p == 1
            ],
        )
        for seated, card, at in zip(tables, scores, times, strict=True)
    )
    seats, links, results = _rows_of_games(club, games, tables, scores, times)
    seats = Seat.objects.bulk_create(seats)
    SeatMember.objects.bulk_create(links)
    MemberResult.objects.bulk_create(results)
    if holes:
        _write_holes(games, seats, scores)
    return [game.pk for game in games]


def _write_holes(games: list[Any], seats: list[Any], scores: list[list[list[int]]]) -> None:
    """Each game's nine holes, every seat's typed total."""
    from scoring.models import Hole, HoleEntry

    rows = Hole.objects.bulk_create(
        Hole(game=game, number=n, dealer_seat=(n - 1) % SEATS) for game in games for n in range(1, HOLES + 1)
    )
    entries = []
    for g in range(len(games)):
        for n in range(HOLES):
            hole = rows[g * HOLES + n]
            for s in range(SEATS):
                score = scores[g][s][n]
                entries.append(
                    HoleEntry(
                        hole=hole, seat=seats[g * SEATS + s], typed_total=score, grid_score=score, score=score
                    )
                )
    HoleEntry.objects.bulk_create(entries, batch_size=5000)
