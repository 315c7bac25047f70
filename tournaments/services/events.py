"""A tournament as a whole: create it, change its settings, add and remove its staff.

Every write is one transaction that locks the tournament row first (`lock_tournament`, the first
step of the one lock order in `tournaments.services.locks`), so two directors' requests at once
are taken one after the other, never interleaved.
"""

from __future__ import annotations

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
from scoring.rules.errors import Problem
from scoring.services.idempotency import forget_keys_about
from tournaments.errors import TournamentError, WrongState
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
from tournaments.services.event_settings import SETTINGS, clean_settings
from tournaments.services.locks import lock_tournament  # the first lock of every write (`locks`)
from tournaments.services.seating_plans import refresh_seating_plan
from tournaments.services.versions import check_version, settings_digest


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
    _refuse_unknown_or_cleared(changes)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if read_digest is None or settings_digest(locked) != read_digest:
            check_version(_("The tournament"), event_version(locked), expected_version)
        seated = locked.round_set.count()
        current = {key: getattr(locked, key) for key in SETTINGS}
        merged = {**current, **changes}
        cleaned = clean_settings(merged)
        if seated:
            _refuse_changes_once_seated(seated, changes, cleaned, current)
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


def _refuse_unknown_or_cleared(changes: Mapping[str, Any]) -> None:
    """`TournamentError` for a setting that does not exist or one that cannot be cleared. On creation
    null means "the default"; a stored event's seed, tiebreak chain and ruleset are always set, so
    clearing one is refused by name (it was a 500, or a silent reset to "official")."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TournamentError([Problem(key, _("Unknown setting.")) for key in sorted(unknown)])
    cleared = [key for key in NOT_CLEARABLE if key in changes and changes[key] is None]
    if cleared:
        raise TournamentError(
            [
                Problem(key, _("%(what)s cannot be cleared (null): send a value.") % {"what": key})
                for key in cleared
            ]
        )


def _refuse_changes_once_seated(
    seated: int, changes: Mapping[str, Any], cleaned: Mapping[str, Any], current: Mapping[str, Any]
) -> None:
    """`WrongState` when `seated` rounds are seated and the changes touch the ruleset or the seed,
    or leave fewer rounds than are seated."""
    frozen = [key for key in ("ruleset", "seed") if key in changes and cleaned[key] != current[key]]
    if frozen:
        raise WrongState(
            [
                Problem(key, _("Round 1 is seated: the %(what)s can no longer change.") % {"what": key})
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
