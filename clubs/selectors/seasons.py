"""A season's leaderboard and the games it counts (SPEC "Seasons").

A season counts the club's games finished within its dates (both days included, in the site's time
zone). Each member with a game in it gets their season's record and `rating_change`: their rating
(ordinal, mu - 3 sigma) after their last game of the season minus their rating before their first
one. The rating itself runs on across seasons. One query for the rows, one for the games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.db.models import F, QuerySet
from django.urls import reverse

from clubs.models import MemberResult, Season
from clubs.selectors.records import RECORD_AGGREGATES, Record, record_of

SEASON_GAMES_SHOWN = 50


class SeasonOrder(StrEnum):
    """The columns a season leaderboard sorts by."""

    WINS = "wins"  # most wins first
    AVERAGE = "average_per_hole"  # fewest points per hole first (lower is better)
    LOW_HOLES = "low_hole_score"  # most holes with the table's lowest score first
    TOTAL_POINTS = "total_points"  # fewest points first (lower is better)
    RATING_CHANGE = "rating_change"  # the biggest rise first


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One member's season."""

    member_id: int
    name: str
    record: Record
    rating_change: float


@dataclass(frozen=True, slots=True)
class SeasonGame:
    """A game the season counts."""

    game_id: int
    finished_at: datetime
    board_url: str


def season_results(season: Season) -> QuerySet:
    """The club's results of games finished within the season's dates."""
    return MemberResult.objects.filter(
        club_id=season.club_id, finished_at__date__gte=season.start, finished_at__date__lte=season.end
    )


def _first_last_ordinals(season: Season) -> dict[int, tuple[float, float]]:
    """Each member's ordinal before their first game of the season and after their last one."""
    ordered = season_results(season).order_by("member_id", "finished_at", "game_id")
    firsts = ordered.distinct("member_id").values_list("member_id", F("mu_before") - 3 * F("sigma_before"))
    lasts = (
        season_results(season)
        .order_by("member_id", "-finished_at", "-game_id")
        .distinct("member_id")
        .values_list("member_id", F("mu_after") - 3 * F("sigma_after"))
    )
    before = dict(firsts)
    return {member_id: (before[member_id], after) for member_id, after in lasts}


def season_leaderboard(season: Season, order: SeasonOrder = SeasonOrder.WINS) -> list[SeasonRow]:
    """The season's members sorted by `order` (ties: more wins, then lower average, then name).
    Three queries."""
    rows = season_results(season).values("member_id", "member__name").annotate(**RECORD_AGGREGATES).order_by()
    ordinals = _first_last_ordinals(season)
    board = [
        SeasonRow(
            member_id=row["member_id"],
            name=row["member__name"],
            record=record_of(row),
            rating_change=round(ordinals[row["member_id"]][1] - ordinals[row["member_id"]][0], 4),
        )
        for row in rows
    ]
    return sorted(board, key=_sort_key(order))


def _sort_key(order: SeasonOrder):
    def tiebreak(row: SeasonRow) -> tuple:
        average = row.record.average_per_hole
        return (-row.record.wins, average if average is not None else float("inf"), row.name.casefold())

    def key(row: SeasonRow) -> tuple:
        record = row.record
        average = record.average_per_hole if record.average_per_hole is not None else float("inf")
        first = {
            SeasonOrder.WINS: -record.wins,
            SeasonOrder.AVERAGE: average,
            SeasonOrder.LOW_HOLES: -record.low_hole_score,
            SeasonOrder.TOTAL_POINTS: record.total_points,
            SeasonOrder.RATING_CHANGE: -row.rating_change,
        }[order]
        return (first, *tiebreak(row), row.member_id)

    return key


def season_games(season: Season, limit: int = SEASON_GAMES_SHOWN) -> tuple[int, list[SeasonGame]]:
    """How many games the season counts, and the latest `limit` of them (newest first). Two queries."""
    games = season_results(season).values("game_id").distinct()
    count = games.count()
    latest = (
        season_results(season)
        .order_by("-finished_at", "-game_id")
        .distinct("finished_at", "game_id")
        .values_list("game_id", "finished_at", "game__view_token")[:limit]
    )
    return count, [
        SeasonGame(game_id, finished_at, reverse("games:view", args=[token]))
        for game_id, finished_at, token in latest
    ]
