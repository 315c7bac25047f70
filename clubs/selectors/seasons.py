"""A season's leaderboard and the games it counts (SPEC "Seasons").

A season counts the club's games finished within its dates (both days included, in the site's time
zone). Each member with a game in it gets their season's record and `rating_change`: their rating
(ordinal, mu - 3 sigma) after their last game of the season minus their rating before their first
one. The rating itself runs on across seasons. One query for the rows, two for the games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from enum import StrEnum

from django.db import connection
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from clubs.models import Member, MemberResult, Season
from clubs.selectors.records import Record, record_of
from golfclub.core.limits import MAX_PLAYERS

SEASON_GAMES_SHOWN = 30


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
    # The game's members by place (guests are not the club's): who won and who else played.
    members: tuple[tuple[int, str], ...] = ()

    @property
    def winners(self) -> list[str]:
        """The members in first place (more than one on a shared first place)."""
        return [name for place, name in self.members if place == 1]

    @property
    def others(self) -> list[str]:
        """The members who played and did not win."""
        return [name for place, name in self.members if place != 1]


def season_bounds(season: Season) -> tuple[datetime, datetime]:
    """The season's first moment and the moment after its last day, in the site's time zone (a
    range on `finished_at` itself, so the club's (club, finished_at) index answers it)."""
    zone = timezone.get_current_timezone()
    start = datetime.combine(season.start, time.min, tzinfo=zone)
    end = datetime.combine(season.end + timedelta(days=1), time.min, tzinfo=zone)
    return start, end


def season_results(season: Season) -> QuerySet:
    """The club's results of games finished within the season's dates."""
    start, end = season_bounds(season)
    return MemberResult.objects.filter(club_id=season.club_id, finished_at__gte=start, finished_at__lt=end)


_SEASON_SQL = """
SELECT a.*, m.name,
  (SELECT r.mu_after - 3 * r.sigma_after FROM {results} AS r
   WHERE r.member_id = a.member_id AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
   ORDER BY r.finished_at DESC, r.game_id DESC LIMIT 1)
  - (SELECT r.mu_before - 3 * r.sigma_before FROM {results} AS r
     WHERE r.member_id = a.member_id AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
     ORDER BY r.finished_at, r.game_id LIMIT 1) AS rating_change
FROM (
  SELECT r.member_id,
         COUNT(*) AS games,
         COUNT(*) FILTER (WHERE r.place = 1) AS wins,
         SUM(r.holes_played) AS holes_played,
         SUM(r.total_points) AS total_points,
         SUM(r.low_hole_score) AS low_hole_score,
         MIN(r.best_hole_score) AS best_hole_score
  FROM {results} AS r
  WHERE r.club_id = %(club)s AND r.finished_at >= %(start)s AND r.finished_at < %(end)s
  GROUP BY r.member_id
) AS a JOIN {members} AS m ON m.id = a.member_id
"""


def season_leaderboard(season: Season, order: SeasonOrder = SeasonOrder.WINS) -> list[SeasonRow]:
    """The season's members sorted by `order` (ties: more wins, then lower average, then name).

    One query: one pass over the season's results for the figures, then for each member their
    first and last result of the season down the (member, finished_at, game) index (rating order)."""
    start, end = season_bounds(season)
    sql = _SEASON_SQL.format(
        results=connection.ops.quote_name(MemberResult._meta.db_table),
        members=connection.ops.quote_name(Member._meta.db_table),
    )
    with connection.cursor() as cursor:
        # Adapted as the ORM adapts a DateTimeField's value (SQLite compares them as text).
        adapt = connection.ops.adapt_datetimefield_value
        cursor.execute(sql, {"club": season.club_id, "start": adapt(start), "end": adapt(end)})
        columns = [column[0] for column in cursor.description]  # DB-API: the name first
        rows = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    board = [
        SeasonRow(
            member_id=row["member_id"],
            name=row["name"],
            record=record_of(row),
            rating_change=round(row["rating_change"], 4),
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
    """How many games the season counts, and the latest `limit` of them (newest first). Two queries.

    The latest games are read as the latest results down the club's (club, finished_at, game) index,
    at most `MAX_PLAYERS` a game, and told apart here: no sort of the whole season."""
    count = season_results(season).values("game_id").distinct().count()
    rows = (
        season_results(season)
        .order_by("-finished_at", "-game_id")
        .values_list("game_id", "finished_at", "game__view_token", "place", "member__name")[
            : (limit + 1) * MAX_PLAYERS
        ]
    )
    latest: dict[int, tuple[datetime, str, list[tuple[int, str]]]] = {}
    for game_id, finished_at, token, place, name in rows:
        if game_id not in latest:
            if len(latest) == limit:
                break  # the rows of a game come together: the last one shown is whole
            latest[game_id] = (finished_at, token, [])
        latest[game_id][2].append((place, name))
    return count, [
        SeasonGame(game_id, finished_at, reverse("games:view", args=[token]), tuple(sorted(members)))
        for game_id, (finished_at, token, members) in latest.items()
    ]
