"""A tournament's players: add one, import a CSV list, check in, drop, withdraw.

Late entries and drops change only the rounds not yet seated: a player who drops keeps the rounds
they played (and stays at the table of a round already seated), a late entry joins from the next
round seated.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_NAME_LENGTH
from golfclub.core.names import InvalidName, clean_name, name_key, search_key, too_long_message
from scoring.rules.errors import Problem
from tournaments.csv_import import parse_players_csv
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.limits import MAX_CLUB, MAX_ENTRANTS, MAX_RATING
from tournaments.live_versions import event_version
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.services.events import bump_version, clean_reason, lock_tournament, log_event
from tournaments.services.seating_plans import refresh_seating_plan
from tournaments.services.versions import check_version


def add_entrant(
    tournament: Tournament, name: Any, *, club: Any = "", rating: Any = None, actor: Any = None
) -> Entrant:
    """Register one player. Names are unique in a tournament, accents and case aside
    (`golfclub.core.names.search_key`, as "find my table" reads them): a name already there, even
    sent twice at once, is a `TournamentError` naming it."""
    problems: list[Problem] = []
    clean = _clean_name(name, problems)
    if not isinstance(club, str) or len(club) > MAX_CLUB or "\x00" in club:
        problems.append(
            Problem("club", _("The club must be text of %(max)s characters at most.") % {"max": MAX_CLUB})
        )
    if rating is not None and (
        isinstance(rating, bool) or not isinstance(rating, int) or abs(rating) > MAX_RATING
    ):
        problems.append(
            Problem(
                "rating",
                _("The rating must be a whole number up to %(max)s, or empty.") % {"max": MAX_RATING},
            )
        )
    if problems:
        raise TournamentError(problems)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        _refuse_when_full(locked, 1)
        # Accents and case aside, as "find my table" reads names (`search_key`): under the
        # tournament's lock, so two requests adding "Zoe" and "Zoé" at once cannot both pass.
        same = taken_names(locked).get(search_key(clean))
        if same is not None:
            raise TournamentError(Problem("name", already_there(clean, same)))
        try:
            with transaction.atomic():
                entrant = Entrant.objects.create(
                    tournament=locked,
                    name=clean,
                    club=club.strip(),
                    rating=rating,
                    entered_before_round=locked.round_set.count() + 1,
                )
        except IntegrityError:
            raise TournamentError(
                Problem("name", _("%(name)s is already in the tournament.") % {"name": clean})
            ) from None
        log_event(locked, "player_added", actor=actor, player=entrant.name)
        refresh_seating_plan(locked, reason=_("Made again after %(name)s entered.") % {"name": entrant.name})
        bump_version(locked.pk)
    return entrant


def import_entrants(tournament: Tournament, text: Any, *, actor: Any = None) -> list[Entrant]:
    """Register every player of a CSV list (`name[,club][,rating]`, header first), all or none:
    any bad line raises `TournamentError` whose problems name each bad line ("line 7")."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise TournamentError(
                Problem("file", _("The file is not UTF-8 text: save it as CSV UTF-8."))
            ) from None
    if not isinstance(text, str):
        raise TournamentError(Problem("file", _("Send the CSV as text.")))
    with transaction.atomic():
        locked = lock_tournament(tournament)
        lines, problems = parse_players_csv(text, taken=taken_names(locked))
        if problems:
            raise TournamentError(problems)
        if not lines:
            raise TournamentError(Problem("file", _("The file names no players.")))
        _refuse_when_full(locked, len(lines))
        entering = locked.round_set.count() + 1
        created = Entrant.objects.bulk_create(
            Entrant(
                tournament=locked,
                name=line.name,
                name_key=name_key(line.name),
                club=line.club,
                rating=line.rating,
                entered_before_round=entering,
            )
            for line in lines
        )
        log_event(locked, "players_imported", actor=actor, count=len(created))
        refresh_seating_plan(locked, reason=_("Made again after players were imported."))
        bump_version(locked.pk)
    return created


def set_checked_in(
    tournament: Tournament,
    entrant_id: Any,
    checked_in: bool,
    *,
    actor: Any = None,
    expected_version: int | None = None,
) -> Entrant:
    """Mark a player present (or not) at the venue.

    `expected_version` (here and in the other player writes) is the tournament version the
    client read the player at (the player's ETag): another one is a `StaleEdit` (412).
    Checking in a dropped, withdrawn or disqualified player is a `WrongState`, whatever the way in
    (a row of the players list, a player's own page, the API, as the bulk check-in), decided under
    the lock, so a page read before the player was dropped cannot check them in. Checking out is
    always allowed."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        entrant = entrant_in(locked, entrant_id)
        check_version(entrant.name, event_version(locked), expected_version)
        if checked_in and entrant.status != EntrantStatus.ACTIVE:
            raise WrongState(
                Problem(
                    "player",
                    _("%(name)s is %(status)s: bring them back before checking them in.")
                    % {"name": entrant.name, "status": entrant.get_status_display().lower()},
                )
            )
        if entrant.checked_in != bool(checked_in):
            entrant.checked_in = bool(checked_in)
            entrant.bulk_action = None  # changed since any bulk action: its undo leaves them be
            entrant.save(update_fields=["checked_in", "bulk_action"])
            bump_version(locked.pk)  # the player's answer changed: their ETag moves on
    return entrant


def drop_entrant(
    tournament: Tournament,
    entrant_id: Any,
    *,
    status: str = EntrantStatus.DROPPED,
    actor: Any = None,
    reason: str = "",
    expected_version: int | None = None,
) -> Entrant:
    """Take a player out of the rounds not yet seated (`dropped`, or `withdrawn`); the rounds played stay.

    Dropping a player already dropped answers them as they are (a retried request changes nothing).
    """
    if status not in (EntrantStatus.DROPPED, EntrantStatus.WITHDRAWN):
        raise TournamentError(Problem("status", _("A player can be dropped or withdrawn.")))
    reason = clean_reason(reason)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        entrant = entrant_in(locked, entrant_id)
        check_version(entrant.name, event_version(locked), expected_version)
        if entrant.status == status:
            return entrant
        if entrant.status == EntrantStatus.DISQUALIFIED:
            raise WrongState(
                Problem("player", _("%(name)s is disqualified from the event.") % {"name": entrant.name})
            )
        entrant.status = status
        entrant.left_after_round = locked.round_set.count()
        entrant.bulk_action = None
        entrant.save(update_fields=["status", "left_after_round", "bulk_action"])
        log_event(locked, f"player_{status}", actor=actor, reason=reason, player=entrant.name)
        refresh_seating_plan(locked, reason=_("Made again after %(name)s left.") % {"name": entrant.name})
        bump_version(locked.pk)
    return entrant


def reinstate_entrant(
    tournament: Tournament, entrant_id: Any, *, actor: Any = None, expected_version: int | None = None
) -> Entrant:
    """Bring a dropped or withdrawn player back for the rounds not yet seated."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        entrant = entrant_in(locked, entrant_id)
        check_version(entrant.name, event_version(locked), expected_version)
        if entrant.status == EntrantStatus.DISQUALIFIED:
            raise WrongState(
                Problem("player", _("%(name)s is disqualified from the event.") % {"name": entrant.name})
            )
        if entrant.status != EntrantStatus.ACTIVE:
            entrant.status = EntrantStatus.ACTIVE
            entrant.left_after_round = None
            entrant.bulk_action = None
            entrant.save(update_fields=["status", "left_after_round", "bulk_action"])
            log_event(locked, "player_reinstated", actor=actor, player=entrant.name)
            refresh_seating_plan(
                locked, reason=_("Made again after %(name)s came back.") % {"name": entrant.name}
            )
            bump_version(locked.pk)
    return entrant


def entrant_in(tournament: Tournament, entrant_id: Any) -> Entrant:
    """The player `entrant_id` of `tournament`, or `NotFoundInTournament`."""
    if isinstance(entrant_id, bool) or not isinstance(entrant_id, int | str):
        raise TournamentError(Problem("player", _("A player is named by their id, a whole number.")))
    try:
        pk = (
            int(entrant_id)
            if isinstance(entrant_id, int) or (entrant_id.isascii() and entrant_id.isdigit())
            else None
        )
    except ValueError:
        pk = None
    entrant = (
        Entrant.objects.filter(tournament=tournament, pk=pk).first()
        if pk is not None and pk < 2**63
        else None
    )
    if entrant is None:
        raise NotFoundInTournament(
            Problem("player", _("No player %(id)s in this tournament.") % {"id": str(entrant_id)[:20]})
        )
    return entrant


def taken_names(tournament: Tournament) -> dict[str, str]:
    """The tournament's players' names by their `search_key` (one query; a tournament holds at
    most `MAX_ENTRANTS`)."""
    names = Entrant.objects.filter(tournament=tournament).order_by("pk").values_list("name", flat=True)
    return {search_key(name): name for name in names}


def already_there(name: str, same: str) -> str:
    """The message for a name that reads as `same`, a player already in the tournament."""
    if name == same:
        return _("%(name)s is already in the tournament.") % {"name": name}
    return _(
        "%(name)s is already in the tournament as %(same)s: names must differ by more than accents "
        'or capitals ("find my table" could not tell them apart).'
    ) % {"name": name, "same": same}


def _clean_name(name: Any, problems: list[Problem]) -> str:
    try:
        return clean_name(name)
    except InvalidName as bad:
        problems.append(
            Problem(
                "name",
                _("The name is too long: %(limit)s.")
                % {"limit": too_long_message(MAX_NAME_LENGTH, len(bad.name))}
                if bad.reason == "too_long"
                else _("The player needs a name."),
            )
        )
        return ""


def _refuse_when_full(tournament: Tournament, adding: int) -> None:
    if Entrant.objects.filter(tournament=tournament).count() + adding > MAX_ENTRANTS:
        raise WrongState(
            Problem("players", _("A tournament holds %(n)s players at most.") % {"n": MAX_ENTRANTS})
        )
