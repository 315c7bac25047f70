"""The club pages' long tables' rows (`<tr>`s), built in Python.

A 200-member leaderboard or a member's 200-game history printed cell by cell through the template
language (or `format_html_join`) costs tens of milliseconds: each value looked up, localized and
escaped on its own. Here every text (names, dates, translated words) is escaped with the standard
library's `html.escape` (quotes included), numbers are formatted here with the current language's
decimal separator, looked up once a page. The templates keep the tables, headings and captions.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from html import escape

from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

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


def leaderboard_rows(board: Iterable[LeaderboardRow], member_base: str) -> SafeString:
    """A row per member: rank, name (a link to their page), rating (or "not rated"), games."""
    numbers, base = Numbers(), escape(member_base)
    unrated = escape(gettext("not rated"))
    return _joined(
        f'<tr{' class="leader"' if row.rank == 1 else ""}><td class="num">'
        f"{row.rank if row.rank is not None else DASH}</td>"
        f'<th scope="row"><a href="{base}{row.member_id}/">{escape(row.name)}</a></th>'
        f'<td class="num">{numbers.decimal(row.ordinal) if row.ordinal is not None else unrated}</td>'
        f'<td class="num">{row.games}</td></tr>'
        for row in board
    )


def season_rows(rows: Iterable[SeasonRow], member_base: str) -> SafeString:
    """A row per member: place and name (holes played and best hole under it), wins of games,
    average per hole, low holes, points, rating change."""
    numbers, base = Numbers(), escape(member_base)
    holes, best = escape(gettext("holes")), escape(gettext("best"))
    of = escape(pgettext("wins of games played", "of"))
    lines = []
    for place, row in enumerate(rows, start=1):
        record = row.record
        best_hole = f" \u00b7 {best} {record.best_hole_score}" if record.best_hole_score is not None else ""
        lines.append(
            f'<tr><th scope="row"><a href="{base}{row.member_id}/">{place}. {escape(row.name)}</a> '
            f'<span class="hint small">{record.holes_played} {holes}{best_hole}</span></th>'
            f'<td class="num">{record.wins}<span class="hint"> {of} {record.games}</span></td>'
            f'<td class="num">{numbers.decimal(record.average_per_hole, 2)}</td>'
            f'<td class="num">{record.low_hole_score}</td><td class="num">{record.total_points}</td>'
            f'<td class="num">{numbers.decimal(row.rating_change, signed=True)}</td></tr>'
        )
    return _joined(lines)


def head_to_head_rows(rows: Iterable[HeadToHead], member_base: str) -> SafeString:
    """A row per member met: name (a link), games, ahead, behind, tied."""
    base = escape(member_base)
    return _joined(
        f'<tr><th scope="row"><a href="{base}{r.member_id}/">{escape(r.name)}</a></th>'
        f'<td class="num">{r.games}</td><td class="num">{r.ahead}</td>'
        f'<td class="num">{r.behind}</td><td class="num">{r.tied}</td></tr>'
        for r in rows
    )


def history_rows(points: Iterable[RatingPoint]) -> SafeString:
    """A row per counted game: its number, date and the rating after it."""
    numbers = Numbers()
    return _joined(
        f'<tr><td class="num">{number}</td><td>{escape(numbers.day(point.finished_at))}</td>'
        f'<td class="num">{numbers.decimal(point.ordinal, 2)}</td></tr>'
        for number, point in enumerate(points, start=1)
    )


def _joined(lines: Iterable[str]) -> SafeString:
    """Rows whose every text was escaped above (names, dates, words; numbers are ours)."""
    return mark_safe("\n".join(lines))  # each interpolated text is escaped above
