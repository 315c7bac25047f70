"""Everything a member's page and `GET /api/v1/clubs/{id}/members/{member_id}/` show, read from the
member's `MemberResult` rows in a fixed, small number of queries (at most seven, whatever the history):

1. their record (games, wins, holes, points, low holes, best hole) as one SQL aggregate;
2. their rating history (the rating after each counted game, in rating order);
3. head-to-head against every member met (`clubs.selectors.head_to_head`: one self-join);
4. their recent games, with the board each was played on;
5. who else of the club sat at those recent games.

Average time per turn comes from the turn timer's readings (`scoring.selectors.turn_times`): one
query for the member's seats in their counted games, one for the readings (none without seats).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.urls import reverse

from clubs.models import Member, MemberResult, SeatMember
from clubs.selectors.head_to_head import HeadToHead, head_to_head, nemesis_of, rival_of
from clubs.selectors.records import Record, record
from scoring.selectors import turn_times as timer_readings

RECENT_GAMES = 10
# openskill PlackettLuce's defaults: the rating of a member before their first rated game.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3

# `turn_times(game_ids) -> {(game_id, seat): (milliseconds, turns)}`, the turn timer's selector.
TurnTimes = Callable[[Sequence[int]], Mapping[tuple[int, int], tuple[int, int]]]


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """The member's rating right after one counted game."""

    game_id: int
    finished_at: datetime
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma, the rating shown."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RecentGame:
    """One of the member's latest counted games and the board it was played on."""

    game_id: int
    finished_at: datetime
    place: int
    players: int
    total_points: int
    board_url: str
    with_members: tuple[str, ...] = ()

    @property
    def won(self) -> bool:
        """A first place, shared or not."""
        return self.place == 1


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's record, rating and history, head-to-head, rival and nemesis, and recent games."""

    member: Member
    record: Record
    history: list[RatingPoint]
    start_ordinal: float  # the rating before their first counted game
    head_to_head: list[HeadToHead]
    rival: HeadToHead | None
    nemesis: HeadToHead | None
    recent: list[RecentGame] = field(default_factory=list)
    # Seconds per turn over the games the turn timer measured; None without a timer reading.
    average_turn_seconds: float | None = None


def member_stats(member: Member, *, turn_times: TurnTimes = timer_readings) -> MemberStats:
    """All of `member`'s stats (at most seven queries); `turn_times` reads the turn timer's times."""
    results = MemberResult.objects.filter(member=member)
    meetings = head_to_head(member)
    rows = list(
        results.order_by("finished_at", "game_id").values_list(
            "game_id", "finished_at", "mu_after", "sigma_after", "mu_before", "sigma_before"
        )
    )
    history = [RatingPoint(*row[:4]) for row in rows]
    start = rows[0][4] - 3 * rows[0][5] if rows else DEFAULT_MU - 3 * DEFAULT_SIGMA
    return MemberStats(
        member=member,
        record=record(results),
        history=history,
        start_ordinal=start,
        head_to_head=meetings,
        rival=rival_of(meetings),
        nemesis=nemesis_of(meetings),
        recent=recent_games(member),
        average_turn_seconds=_average_turn_seconds(member, turn_times),
    )


def recent_games(member: Member, limit: int = RECENT_GAMES) -> list[RecentGame]:
    """The member's latest `limit` counted games, newest first, with the club's other members at
    each table (two queries)."""
    rows = list(
        MemberResult.objects.filter(member=member)
        .order_by("-finished_at", "-game_id")
        .values_list("game_id", "finished_at", "place", "players", "total_points", "game__view_token")[:limit]
    )
    others: dict[int, list[str]] = {}
    for game_id, name in (
        MemberResult.objects.filter(game_id__in=[row[0] for row in rows])
        .exclude(member=member)
        .order_by("place", "member__name_key")
        .values_list("game_id", "member__name")
    ):
        others.setdefault(game_id, []).append(name)
    return [
        RecentGame(
            game_id=game_id,
            finished_at=finished_at,
            place=place,
            players=players,
            total_points=total,
            board_url=reverse("games:view", args=[token]),
            with_members=tuple(others.get(game_id, ())),
        )
        for game_id, finished_at, place, players, total, token in rows
    ]


def average_turn_seconds(
    seats: Sequence[tuple[int, int]], times: Mapping[tuple[int, int], tuple[int, int]]
) -> float | None:
    """Seconds per turn over the member's `seats` ((game_id, seat) pairs) that `times` measured
    (`{(game_id, seat): (milliseconds, turns)}`); None when no turn was timed."""
    milliseconds = turns = 0
    for seat in seats:
        spent, count = times.get(seat, (0, 0))
        milliseconds += spent
        turns += count
    return round(milliseconds / turns / 1000, 1) if turns else None


def _average_turn_seconds(member: Member, turn_times: TurnTimes) -> float | None:
    """The member's seats in their counted games, and the turn timer's readings of them."""
    seats = list(
        SeatMember.objects.filter(member=member, game__member_results__member=member).values_list(
            "game_id", "seat"
        )
    )
    if not seats:
        return None
    return average_turn_seconds(seats, turn_times(sorted({game_id for game_id, _seat in seats})))
