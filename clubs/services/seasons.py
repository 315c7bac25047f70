"""A club's seasons: named date ranges (both days included) whose games make a season leaderboard.

A season has no version column: an edit names the version it read as the season's fingerprint
(`season_version`, its name and dates), so an edit against a season changed meanwhile is refused
(`StaleVersion`) and nothing is overwritten unseen.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import ClubError, NotFoundInClub
from clubs.models import Club, Season
from clubs.services._common import clean_label, lock_club
from golfclub.core.limits import MAX_SEASON_NAME_LENGTH
from golfclub.core.names import name_key
from scoring.game_errors import StaleVersion
from scoring.rules.errors import Problem


def season_version(season: Season) -> int:
    """The season's fingerprint as a version number (its ETag's): changes whenever its name or
    dates do (28 bits of their SHA-256: two edits colliding is a one in 268 million chance)."""
    text = f"{season.pk}|{season.name}|{season.start.isoformat()}|{season.end.isoformat()}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:7], 16)


def _date(value: Any, where: str) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise ClubError(Problem(where, _("Give the day as YYYY-MM-DD, e.g. 2027-01-31.")))


def _clean(club: Club, name: Any, start: Any, end: Any, *, other_than: Season | None = None) -> tuple:
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    for where, check in (
        (
            "name",
            lambda: clean_label(name, "name", max_length=MAX_SEASON_NAME_LENGTH, what=_("The season's name")),
        ),
        ("start", lambda: _date(start, "start")),
        ("end", lambda: _date(end, "end")),
    ):
        try:
            values[where] = check()
        except ClubError as bad:
            problems.extend(bad.problems)
    if not problems and values["start"] > values["end"]:
        problems.append(Problem("end", _("The last day comes before the first day.")))
    if "name" in values:
        # Compared as the app compares names ("2027" and "Spring" differ; "spring" is "Spring").
        others = Season.objects.filter(club=club).exclude(pk=other_than.pk if other_than else None)
        if name_key(values["name"]) in {name_key(n) for n in others.values_list("name", flat=True)}:
            problems.append(Problem("name", _("This club already has a season of that name.")))
    if problems:
        raise ClubError(problems)
    return values["name"], values["start"], values["end"]


def create_season(club: Club, *, name: Any, start: Any, end: Any) -> Season:
    """A new season of `club` from `start` to `end` (days, both included); names unique in the club."""
    with transaction.atomic():
        locked = lock_club(club)
        clean, first, last = _clean(locked, name, start, end)
        return Season.objects.create(club=locked, name=clean, start=first, end=last)


def _check_season_version(season: Season, version: int | None) -> None:
    if version is not None and version != season_version(season):
        raise StaleVersion(
            Problem(
                "If-Match",
                _("%(name)s was changed by someone else since you read it: nothing was changed.")
                % {"name": season.name},
            )
        )


def _locked_season(club: Club, season: Season) -> Season:
    found = Season.objects.select_for_update().filter(club=club, pk=season.pk).first()
    if found is None:
        raise NotFoundInClub(Problem("season", _("No such season in this club.")))
    return found


def update_season(
    club: Club,
    season: Season,
    *,
    name: Any = None,
    start: Any = None,
    end: Any = None,
    version: int | None = None,
) -> Season:
    """Change a season's name and/or days (None keeps a value); `version` is the `season_version`
    the client read (`StaleVersion` when the season changed since)."""
    with transaction.atomic():
        locked = lock_club(club)
        row = _locked_season(locked, season)
        _check_season_version(row, version)
        clean, first, last = _clean(
            locked,
            row.name if name is None else name,
            row.start if start is None else start,
            row.end if end is None else end,
            other_than=row,
        )
        row.name, row.start, row.end = clean, first, last
        row.save(update_fields=["name", "start", "end"])
    return row


def delete_season(club: Club, season: Season, *, version: int | None = None) -> None:
    """Delete a season (its games stay: a season is only a date range); `version` as for an edit."""
    with transaction.atomic():
        row = _locked_season(lock_club(club), season)
        _check_season_version(row, version)
        row.delete()
