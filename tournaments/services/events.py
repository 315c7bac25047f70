"""A tournament as a whole: create it, change its settings, add and remove its staff.

Every write is one transaction that locks the tournament row first (`lock_tournament`, the first
step of the one lock order in `tournaments.services.locks`), so two directors' requests at once
are taken one after the other, never interleaved.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club
from clubs.services.ratings import recompute_club
from golfclub.core.limits import MAX_REASON_LENGTH
from scoring import services as scoring_services
from scoring.rules import Ruleset, resolve_ruleset
from scoring.rules.errors import Problem, RulesError
from scoring.rules.ruleset import TIEBREAKERS
from scoring.services.idempotency import forget_keys_about
from tournaments.errors import TournamentError, WrongState
from tournaments.limits import (
    MAX_HOLE_TIME_LIMIT,
    MAX_ROUNDS,
    MAX_SEED,
    MAX_TIME_LIMIT,
    MAX_TOURNAMENT_NAME,
    MAX_VENUE,
)
from tournaments.live_versions import event_version
from tournaments.models import (
    EventLogEntry,
    Ruling,
    SeatingMode,
    StandingsRelease,
    Table,
    Tournament,
)
from tournaments.services.club_choice import NO_CHANGE, apply_club, club_of_director
from tournaments.services.locks import lock_tournament  # the first lock of every write (`locks`)
from tournaments.services.seating_plans import refresh_seating_plan
from tournaments.services.versions import check_version, settings_digest

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


def bump_version(tournament_id: int) -> None:
    """Mark the tournament's standings as changed (their cache key moves on)."""
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)


def log_event(
    tournament: Tournament,
    action: str,
    *,
    actor: Any = None,
    round_number: int | None = None,
    reason: str = "",
    **details: Any,
) -> EventLogEntry:
    """Record something the staff did, with who and why."""
    return EventLogEntry.objects.create(
        tournament=tournament,
        action=action,
        actor=actor if actor is not None and getattr(actor, "is_authenticated", False) else None,
        round_number=round_number,
        reason=reason,
        details=details,
    )


def clean_reason(reason: Any, *, required: str = "") -> str:
    """A reason for the event's log, stripped; `TournamentError` when it is too long, or missing
    while `required` (the message to show) is given."""
    text = reason.strip() if isinstance(reason, str) else ""
    if required and not text:
        raise TournamentError(Problem("reason", required))
    if len(text) > MAX_REASON_LENGTH or "\x00" in text:
        raise TournamentError(
            Problem(
                "reason",
                _("The reason is too long (%(max)s characters at most).") % {"max": MAX_REASON_LENGTH},
            )
        )
    return text


def create_tournament(*, director: Any, name: str, **settings: Any) -> Tournament:
    """Create a tournament directed by `director` (a logged-in user).

    `settings` are those of `SETTINGS`; missing ones take their defaults: the `official` ruleset,
    3 rounds, `fewest_repeats` after round 1, a random seed (stored, so the seating can be
    reproduced), the ruleset's tiebreak chain (rule 4.2), live standings, public. Raises
    `TournamentError` (or the engine's `RulesError`) naming every bad setting at once.
    """
    values = {
        "name": name,
        "date": None,
        "venue": "",
        "ruleset": "official",
        "rounds": 3,
        "seating": SeatingMode.FEWEST_REPEATS,
        "seed": None,
        "tiebreakers": None,
        "time_limit_minutes": None,
        "hole_time_limit_minutes": None,
        "standings_release": StandingsRelease.LIVE,
        "public": True,
        "rulings_public": False,
        "public_table_links": False,
    }
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise TournamentError([Problem(key, _("Unknown setting.")) for key in sorted(unknown)])
    values.update(settings)
    cleaned = clean_settings(values)
    if cleaned.get("seed") is None:
        cleaned["seed"] = secrets.randbelow(10**9)
    if cleaned.get("tiebreakers") is None:
        cleaned["tiebreakers"] = list(cleaned["ruleset"]["tiebreakers"])
    return Tournament.objects.create(director=director, **cleaned)


#: Settings a change may not set to null.
NOT_CLEARABLE = ("ruleset", "seed", "tiebreakers")


def update_tournament(
    tournament: Tournament,
    *,
    actor: Any = None,
    expected_version: int | None = None,
    read_digest: str | None = None,
    **changes: Any,
) -> Tournament:
    """Change some settings. The ruleset and seed are frozen once round 1 is seated; the number of
    rounds cannot go below the rounds already seated. `WrongState` (409) names what is in the way.

    `expected_version` is the `Tournament.version` the client read (If-Match): another one under
    the lock is a `StaleEdit` (412) and nothing changes. A page form also sends `read_digest`, the
    `settings_digest` it was read with: while the settings themselves are unchanged (only scores
    moved the version on) its submit goes through."""
    # The club is checked against its owners (the director must own it) before the lock.
    club = changes.pop("club", NO_CHANGE)
    club = club if club is NO_CHANGE else club_of_director(tournament, club)
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TournamentError([Problem(key, _("Unknown setting.")) for key in sorted(unknown)])
    # On creation null means "the default"; a stored event's seed, tiebreak chain and ruleset are
    # always set, so clearing one is refused by name (it was a 500, or a silent reset to "official").
    cleared = [key for key in NOT_CLEARABLE if key in changes and changes[key] is None]
    if cleared:
        raise TournamentError(
            [
                Problem(key, _("%(what)s cannot be cleared (null): send a value.") % {"what": key})
                for key in cleared
            ]
        )
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if read_digest is None or settings_digest(locked) != read_digest:
            check_version(_("The tournament"), event_version(locked), expected_version)
        seated = locked.round_set.count()
        current = {key: getattr(locked, key) for key in SETTINGS}
        merged = {**current, **changes}
        cleaned = clean_settings(merged)
        if seated:
            frozen = [key for key in ("ruleset", "seed") if key in changes and cleaned[key] != current[key]]
            if frozen:
                raise WrongState(
                    [
                        Problem(
                            key, _("Round 1 is seated: the %(what)s can no longer change.") % {"what": key}
                        )
                        for key in frozen
                    ]
                )
            if cleaned["rounds"] < seated:
                raise WrongState(
                    Problem(
                        "rounds",
                        ngettext(
                            "%(n)s round is already seated: the event cannot be shorter.",
                            "%(n)s rounds are already seated: the event cannot be shorter.",
                            seated,
                        )
                        % {"n": seated},
                    )
                )
        for key, value in cleaned.items():
            setattr(locked, key, value)
        if club is not NO_CHANGE and apply_club(locked, club):
            changes["club"] = club.pk if club else None
        locked.save()
        log_event(locked, "settings", actor=actor, changed=sorted(changes))
        if seated and (cleaned["rounds"], cleaned["seating"]) != (current["rounds"], current["seating"]):
            refresh_seating_plan(locked, reason=_("Made again after the event's rounds or seating changed."))
        bump_version(locked.pk)
    locked.refresh_from_db()
    return locked


def clean_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Check every setting and answer them cleaned (the ruleset resolved to its dict)."""
    problems: list[Problem] = []
    cleaned: dict[str, Any] = {}
    name = values.get("name")
    if not isinstance(name, str) or not name.strip() or "\x00" in name:
        problems.append(Problem("name", _("The tournament needs a name.")))
    elif len(name.strip()) > MAX_TOURNAMENT_NAME:
        problems.append(
            Problem(
                "name", _("The name is too long (%(max)s characters at most).") % {"max": MAX_TOURNAMENT_NAME}
            )
        )
    else:
        cleaned["name"] = name.strip()
    cleaned["date"] = _date(values.get("date"), problems)
    venue = values.get("venue") or ""
    if not isinstance(venue, str) or len(venue) > MAX_VENUE or "\x00" in venue:
        problems.append(
            Problem("venue", _("The venue must be text of %(max)s characters at most.") % {"max": MAX_VENUE})
        )
    else:
        cleaned["venue"] = venue.strip()
    ruleset = values.get("ruleset")
    try:
        resolved = (
            ruleset
            if isinstance(ruleset, Ruleset)
            else resolve_ruleset(ruleset if ruleset is not None else "official")
        )
        cleaned["ruleset"] = resolved.to_dict()
    except RulesError as error:
        problems.extend(
            # The engine's paths may already start at "ruleset" ("ruleset.holes"): prefix only bare ones.
            Problem(
                p.where if (p.where or "ruleset").startswith("ruleset") else f"ruleset.{p.where}", p.message
            )
            for p in error.problems
        )
    cleaned["rounds"] = _whole(values.get("rounds"), "rounds", 1, MAX_ROUNDS, problems)
    cleaned["seating"] = _choice(values.get("seating"), "seating", SeatingMode.values, problems)
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
    public = values.get("public")
    if not isinstance(public, bool):
        problems.append(Problem("public", _("Public must be true or false.")))
    cleaned["public"] = public
    rulings_public = values.get("rulings_public", False)
    if not isinstance(rulings_public, bool):
        problems.append(Problem("rulings_public", _("Whether the rulings log is public: true or false.")))
    cleaned["rulings_public"] = rulings_public
    table_links = values.get("public_table_links", False)
    if not isinstance(table_links, bool):
        message = _("Whether players find their table link: true or false.")
        problems.append(Problem("public_table_links", message))
    cleaned["public_table_links"] = table_links
    if problems:
        raise TournamentError(problems)
    return cleaned


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


def delete_tournament(tournament: Tournament, *, actor: Any = None) -> None:
    """Delete a tournament with its rounds, tables, their games, players and log (the director's
    decision; the pages ask for confirmation). Players who played are protected from a plain
    delete, so the rounds go first, then the event, then the tables' games. A ruling's penalty
    is protected too (a penalty never goes alone while a ruling names it): the rulings go first.
    The games are locked before anything goes (levels 1, 4 of `locks`): a finalized round's
    correction writes the log (its row refers to this one) holding its game; else, a deadlock."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        games = list(Table.objects.filter(round__tournament=locked).values_list("game_id", flat=True))
        scoring_services.lock_games(games)
        Ruling.objects.filter(tournament=locked).delete()
        locked.round_set.all().delete()
        forget_keys_about(f"tournament:{locked.pk}")  # its writes' one-time keys go with it
        locked.delete()
        scoring_services.delete_games(games)
        if locked.club_id is not None:  # its games' member results went with them
            recompute_club(Club(pk=locked.club_id))
