"""Players changed in bulk on event day: check in everyone present at once, drop several at once,
and undo either.

Each bulk action is one transaction (the tournament locked first, `tournaments.services.locks`),
all or nothing: a refusal names every player in the way and why, and changes nobody. It leaves
one event log entry naming the players it changed, and marks each of them with that entry
(`Entrant.bulk_action`). Any later change of a player (a check-in by hand, a drop, a
disqualification) clears their mark, so undoing the action reverts exactly the players it changed
and that nothing has changed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.limits import MAX_ENTRANTS
from tournaments.live_versions import event_version
from tournaments.models import Entrant, EntrantStatus, EventLogEntry, RoundStatus, TableSeat, Tournament
from tournaments.services.events import bump_version, clean_reason, lock_tournament, log_event
from tournaments.services.seating_plans import refresh_seating_plan
from tournaments.services.versions import check_version

#: The event log's kinds of bulk action, which `undo_bulk_action` reverts.
BULK_CHECK_IN = "players_checked_in"
BULK_DROP = "players_dropped"
BULK_UNDONE = "bulk_undone"
BULK_ACTIONS = (BULK_CHECK_IN, BULK_DROP)


@dataclass(frozen=True)
class BulkResult:
    """What a bulk action did: the players it changed, those it left as they were, its log entry."""

    changed: list[Entrant]
    unchanged: list[Entrant] = field(default_factory=list)
    entry: EventLogEntry | None = None


def check_in_players(
    tournament: Tournament,
    ids: Sequence[Any] | None = None,
    *,
    everyone: bool = False,
    actor: Any = None,
    expected_version: int | None = None,
) -> BulkResult:
    """Check in the players `ids` (or, with `everyone`, every active player not yet checked in).

    Players already checked in are left as they are. A player not in the tournament is a
    `TournamentError`, a dropped, withdrawn or disqualified one a `WrongState` naming them: nobody is
    checked in then. `expected_version` is the tournament version the client read (412 otherwise).
    """
    wanted = None if everyone else _ids(ids)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        check_version(locked.name, event_version(locked), expected_version)
        if wanted is None:
            chosen = list(
                Entrant.objects.filter(tournament=locked, status=EntrantStatus.ACTIVE, checked_in=False)
            )
        else:
            chosen = _entrants(locked, wanted)
            away = [e for e in chosen if e.status != EntrantStatus.ACTIVE]
            if away:
                raise WrongState(
                    [
                        Problem(
                            "players",
                            _("%(name)s is %(status)s: bring them back before checking them in.")
                            % {"name": e.name, "status": e.get_status_display().lower()},
                        )
                        for e in away
                    ]
                )
        changing = [e for e in chosen if not e.checked_in]
        unchanged = [e for e in chosen if e.checked_in]
        if not changing:
            return BulkResult([], unchanged)
        entry = log_event(
            locked,
            BULK_CHECK_IN,
            actor=actor,
            players=[e.name for e in changing],
            ids=[e.pk for e in changing],
        )
        Entrant.objects.filter(pk__in=[e.pk for e in changing]).update(checked_in=True, bulk_action=entry.pk)
        for e in changing:
            e.checked_in, e.bulk_action = True, entry.pk
        bump_version(locked.pk)
    return BulkResult(changing, unchanged, entry)


def drop_players(
    tournament: Tournament,
    ids: Sequence[Any],
    *,
    reason: Any,
    actor: Any = None,
    expected_version: int | None = None,
) -> BulkResult:
    """Drop the players `ids` from the rounds not yet seated, with one `reason` (required).

    Players already dropped or withdrawn are left as they are; a disqualified one is a `WrongState`
    naming them (nobody is dropped then). The rounds played stay, as for one drop."""
    text = clean_reason(reason, required=_("Say why these players are dropped (it goes in the event's log)."))
    wanted = _ids(ids)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        check_version(locked.name, event_version(locked), expected_version)
        chosen = _entrants(locked, wanted)
        out = [e for e in chosen if e.status == EntrantStatus.DISQUALIFIED]
        if out:
            raise WrongState(
                [
                    Problem("players", _("%(name)s is disqualified from the event.") % {"name": e.name})
                    for e in out
                ]
            )
        changing = [e for e in chosen if e.status == EntrantStatus.ACTIVE]
        unchanged = [e for e in chosen if e.status != EntrantStatus.ACTIVE]
        if not changing:
            return BulkResult([], unchanged)
        seated = locked.round_set.count()
        entry = log_event(
            locked,
            BULK_DROP,
            actor=actor,
            reason=text,
            players=[e.name for e in changing],
            ids=[e.pk for e in changing],
        )
        Entrant.objects.filter(pk__in=[e.pk for e in changing]).update(
            status=EntrantStatus.DROPPED, left_after_round=seated, bulk_action=entry.pk
        )
        for e in changing:
            e.status, e.left_after_round, e.bulk_action = EntrantStatus.DROPPED, seated, entry.pk
        if changing:
            refresh_seating_plan(locked, reason=_("Made again after players were dropped."))
        bump_version(locked.pk)
    return BulkResult(changing, unchanged, entry)


def undo_bulk_action(tournament: Tournament, entry_id: Any, *, actor: Any = None) -> BulkResult:
    """Revert the bulk check-in or drop logged as `entry_id`, for exactly the players it changed and
    that have not changed since (the others are `unchanged` in the answer).

    Unchecking a player seated in a round in play is refused (`WrongState` naming them): their table
    is playing. An action already undone, or whose players have all changed since, is a `WrongState`."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        pk = entry_id if isinstance(entry_id, int) and not isinstance(entry_id, bool) else None
        entry = (
            EventLogEntry.objects.filter(tournament=locked, pk=pk, action__in=BULK_ACTIONS).first()
            if pk is not None and 0 < pk < 2**63
            else None
        )
        if entry is None:
            raise NotFoundInTournament(Problem("action", _("No such bulk action in this tournament.")))
        if entry.details.get("undone_by"):
            raise WrongState(Problem("action", _("This bulk action is undone already.")))
        marked = list(Entrant.objects.filter(tournament=locked, bulk_action=entry.pk).order_by("name_key"))
        named = set(entry.details.get("ids") or [])
        unchanged = list(
            Entrant.objects.filter(tournament=locked, pk__in=named).exclude(bulk_action=entry.pk)
        )
        if not marked:
            raise WrongState(
                Problem(
                    "action",
                    _("Nothing to undo: every player this action changed has been changed again since."),
                )
            )
        if entry.action == BULK_CHECK_IN:
            playing = set(
                TableSeat.objects.filter(entrant__in=marked, round__status=RoundStatus.PUBLISHED).values_list(
                    "entrant__name", flat=True
                )
            )
            if playing:
                raise WrongState(
                    [
                        Problem(
                            "players",
                            _("%(name)s is seated in the round in play: their check-in stays.")
                            % {"name": name},
                        )
                        for name in sorted(playing)
                    ]
                )
            Entrant.objects.filter(pk__in=[e.pk for e in marked]).update(checked_in=False, bulk_action=None)
        else:
            Entrant.objects.filter(pk__in=[e.pk for e in marked]).update(
                status=EntrantStatus.ACTIVE, left_after_round=None, bulk_action=None
            )
            refresh_seating_plan(locked, reason=_("Made again after a bulk drop was undone."))
        undone = log_event(
            locked, BULK_UNDONE, actor=actor, undone=entry.pk, players=[e.name for e in marked]
        )
        entry.details = {**entry.details, "undone_by": undone.pk}
        entry.save(update_fields=["details"])
        bump_version(locked.pk)
    return BulkResult(marked, unchanged, undone)


def recent_bulk_actions(tournament: Tournament, limit: int = 5) -> list[EventLogEntry]:
    """The tournament's latest bulk actions not undone, newest first (one query)."""
    entries = EventLogEntry.objects.filter(tournament=tournament, action__in=BULK_ACTIONS).order_by(
        "-created_at", "-pk"
    )
    return [e for e in entries[: limit * 2] if not e.details.get("undone_by")][:limit]


def bulk_summary(result: BulkResult, action: str) -> str:
    """The sentence a page shows after a bulk action."""
    n = len(result.changed)
    if action == BULK_CHECK_IN:
        return ngettext("%(n)s player checked in.", "%(n)s players checked in.", n) % {"n": n}
    if action == BULK_DROP:
        return ngettext("%(n)s player dropped.", "%(n)s players dropped.", n) % {"n": n}
    return ngettext("%(n)s player put back as before.", "%(n)s players put back as before.", n) % {"n": n}


def _ids(ids: Any) -> list[int]:
    """The players' ids of a request: whole numbers (or their digits), at least one."""
    if not isinstance(ids, list | tuple) or not ids:
        raise TournamentError(Problem("players", _("Choose at least one player.")))
    if len(ids) > MAX_ENTRANTS:
        raise TournamentError(
            Problem("players", _("A tournament holds %(n)s players at most.") % {"n": MAX_ENTRANTS})
        )
    found: list[int] = []
    for value in ids:
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
            raise TournamentError(Problem("players", _("A player is named by their id, a whole number.")))
        found.append(value)
    return list(dict.fromkeys(found))


def _entrants(tournament: Tournament, ids: list[int]) -> list[Entrant]:
    """The players `ids` of `tournament`, by name; `TournamentError` naming any id not there."""
    found = {e.pk: e for e in Entrant.objects.filter(tournament=tournament, pk__in=ids)}
    missing = [pk for pk in ids if pk not in found]
    if missing:
        raise TournamentError(
            [
                Problem("players", _("No player %(id)s in this tournament.") % {"id": pk})
                for pk in missing[:10]
            ]
        )
    return sorted(found.values(), key=lambda e: (e.name_key, e.pk))
