"""The club pages' table rows as ready-to-print text, formatted once in Python.

A 200-member leaderboard or a member's 200-game history printed cell by cell through template
filters costs tens of milliseconds (each value localized on its own); here a number takes the
current language's decimal separator, looked up once per page, and the templates print plain
tuples unpacked in their loops.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.utils import formats, timezone

from clubs.selectors.head_to_head import HeadToHead
from clubs.selectors.leaderboard import LeaderboardRow
from clubs.selectors.member_stats import RatingPoint
from clubs.selectors.seasons import SeasonRow

DASH = "\u2013"


class Numbers:
    """Numbers and dates as the current language writes them."""

    def __init__(self) -> None:
        self.separator = str(formats.get_format("DECIMAL_SEPARATOR"))
        self.date_format = str(formats.get_format("SHORT_DATE_FORMAT"))

    def decimal(self, value: float | None, places: int = 1, *, signed: bool = False) -> str:
        """`value` to `places` decimals ("+" before a rise with `signed`); a dash for None."""
        if value is None:
            return DASH
        text = f"{value:+.{places}f}" if signed else f"{value:.{places}f}"
        return text.replace(".", self.separator)

    def day(self, moment: datetime) -> str:
        """The local date of `moment`, short."""
        return formats.date_format(timezone.localtime(moment), self.date_format)


def leaderboard_lines(board: Iterable[LeaderboardRow], member_base: str) -> list[tuple[str, ...]]:
    """(rank, name, member URL, rating, games) per member; rank and rating empty when not rated."""
    numbers = Numbers()
    return [
        (
            str(row.rank) if row.rank is not None else DASH,
            row.name,
            f"{member_base}{row.member_id}/",
            numbers.decimal(row.ordinal) if row.ordinal is not None else "",
            str(row.games),
        )
        for row in board
    ]


def season_lines(rows: Iterable[SeasonRow], member_base: str) -> list[tuple[str, ...]]:
    """(place, name, URL, holes, best hole, wins, games, average, low holes, points, rating change)."""
    numbers = Numbers()
    return [
        (
            str(place),
            row.name,
            f"{member_base}{row.member_id}/",
            str(row.record.holes_played),
            str(row.record.best_hole_score) if row.record.best_hole_score is not None else "",
            str(row.record.wins),
            str(row.record.games),
            numbers.decimal(row.record.average_per_hole, 2),
            str(row.record.low_hole_score),
            str(row.record.total_points),
            numbers.decimal(row.rating_change, signed=True),
        )
        for place, row in enumerate(rows, start=1)
    ]


def head_to_head_lines(rows: Iterable[HeadToHead], member_base: str) -> list[tuple[str, ...]]:
    """(name, URL, games, ahead, behind, tied) per member met."""
    return [
        (
            row.name,
            f"{member_base}{row.member_id}/",
            str(row.games),
            str(row.ahead),
            str(row.behind),
            str(row.tied),
        )
        for row in rows
    ]


def history_lines(points: Iterable[RatingPoint]) -> list[tuple[str, str, str]]:
    """(game number, date, rating) after each counted game."""
    numbers = Numbers()
    return [
        (str(number), numbers.day(point.finished_at), numbers.decimal(point.ordinal, 2))
        for number, point in enumerate(points, start=1)
    ]
