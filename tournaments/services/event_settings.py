"""A tournament's settings (`SETTINGS`) checked and cleaned, for `create_tournament` and
`update_tournament` (tournaments.services.events): every bad setting is named at once."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules import Ruleset, resolve_ruleset
from scoring.rules.errors import Problem, RulesError
from scoring.rules.ruleset import TIEBREAKERS
from tournaments.errors import TournamentError
from tournaments.limits import (
    MAX_HOLE_TIME_LIMIT,
    MAX_ROUNDS,
    MAX_SEED,
    MAX_TIME_LIMIT,
    MAX_TOURNAMENT_NAME,
    MAX_VENUE,
)
from tournaments.models import SeatingMode, StandingsRelease

#: The settings `update_tournament` accepts, by name.
SETTINGS = (
    "name",
    "date",
    "venue",
    "ruleset",
    "rounds",
    "seating",
    "seed",
    "tiebreakers",
    "time_limit_minutes",
    "hole_time_limit_minutes",
    "standings_release",
    "public",
    "rulings_public",
    "public_table_links",
)


def clean_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Check every setting and answer them cleaned (the ruleset resolved to its dict); a
    `TournamentError` names every bad one at once."""
    problems: list[Problem] = []
    cleaned: dict[str, Any] = {
        "name": _name(values.get("name"), problems),
        "date": _date(values.get("date"), problems),
        "venue": _venue(values.get("venue") or "", problems),
        "ruleset": _ruleset(values.get("ruleset"), problems),
        "rounds": _whole(values.get("rounds"), "rounds", 1, MAX_ROUNDS, problems),
        "seating": _choice(values.get("seating"), "seating", SeatingMode.values, problems),
    }
    seed = values.get("seed")
    cleaned["seed"] = None if seed is None else _whole(seed, "seed", 0, MAX_SEED, problems)
    cleaned["tiebreakers"] = _tiebreakers(values.get("tiebreakers"), problems)
    limit = values.get("time_limit_minutes")
    cleaned["time_limit_minutes"] = (
        None if limit in (None, "") else _whole(limit, "time_limit_minutes", 1, MAX_TIME_LIMIT, problems)
    )
    hole_limit = values.get("hole_time_limit_minutes")
    cleaned["hole_time_limit_minutes"] = (
        None
        if hole_limit in (None, "")
        else _whole(hole_limit, "hole_time_limit_minutes", 1, MAX_HOLE_TIME_LIMIT, problems)
    )
    cleaned["standings_release"] = _choice(
        values.get("standings_release"), "standings_release", StandingsRelease.values, problems
    )
    cleaned["public"] = _flag(values.get("public"), "public", _("Public must be true or false."), problems)
    cleaned["rulings_public"] = _flag(
        values.get("rulings_public", False),
        "rulings_public",
        _("Whether the rulings log is public: true or false."),
        problems,
    )
    cleaned["public_table_links"] = _flag(
        values.get("public_table_links", False),
        "public_table_links",
        _("Whether players find their table link: true or false."),
        problems,
    )
    if problems:
        raise TournamentError(problems)
    return cleaned


def _name(name: Any, problems: list[Problem]) -> str | None:
    if not isinstance(name, str) or not name.strip() or "\x00" in name:
        problems.append(Problem("name", _("The tournament needs a name.")))
        return None
    if len(name.strip()) > MAX_TOURNAMENT_NAME:
        problems.append(
            Problem(
                "name", _("The name is too long (%(max)s characters at most).") % {"max": MAX_TOURNAMENT_NAME}
            )
        )
        return None
    return name.strip()


def _venue(venue: Any, problems: list[Problem]) -> str | None:
    if not isinstance(venue, str) or len(venue) > MAX_VENUE or "\x00" in venue:
        problems.append(
            Problem("venue", _("The venue must be text of %(max)s characters at most.") % {"max": MAX_VENUE})
        )
        return None
    return venue.strip()


def _ruleset(ruleset: Any, problems: list[Problem]) -> dict[str, Any] | None:
    """The ruleset (a Ruleset, a preset's name or a dict; "official" when missing) resolved to its dict."""
    try:
        resolved = (
            ruleset
            if isinstance(ruleset, Ruleset)
            else resolve_ruleset(ruleset if ruleset is not None else "official")
        )
        return resolved.to_dict()
    except RulesError as error:
        problems.extend(
            # The engine's paths may already start at "ruleset" ("ruleset.holes"): prefix only bare ones.
            Problem(
                p.where if (p.where or "ruleset").startswith("ruleset") else f"ruleset.{p.where}", p.message
            )
            for p in error.problems
        )
        return None


def _flag(value: Any, where: str, message: str, problems: list[Problem]) -> Any:
    """A true-or-false setting (answered as it came: with a problem, nothing is stored)."""
    if not isinstance(value, bool):
        problems.append(Problem(where, message))
    return value


def _whole(value: Any, where: str, low: int, high: int, problems: list[Problem]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append(
            Problem(
                where,
                _("%(what)s must be a whole number from %(low)s to %(high)s.")
                % {"what": where, "low": low, "high": high},
            )
        )
        return low
    return value


def _choice(value: Any, where: str, choices: list[str], problems: list[Problem]) -> str:
    if value not in choices:
        problems.append(
            Problem(
                where,
                _("%(what)s must be one of: %(choices)s.") % {"what": where, "choices": ", ".join(choices)},
            )
        )
        return choices[0]
    return str(value)


def _date(value: Any, problems: list[Problem]) -> datetime.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str) and value.isascii():
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    problems.append(Problem("date", _("The date must be a day written YYYY-MM-DD.")))
    return None


def _tiebreakers(value: Any, problems: list[Problem]) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or not value or not all(isinstance(v, str) for v in value):
        problems.append(
            Problem(
                "tiebreakers",
                _("The tiebreak chain is a list of: %(all)s.") % {"all": ", ".join(TIEBREAKERS)},
            )
        )
        return None
    unknown = [v for v in value if v not in TIEBREAKERS]
    if unknown or len(set(value)) != len(value):
        problems.append(
            Problem(
                "tiebreakers", _("Use each of these at most once: %(all)s.") % {"all": ", ".join(TIEBREAKERS)}
            )
        )
        return None
    return list(value)
