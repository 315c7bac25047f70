"""A table's scorecard at the end of its game: a player at the table confirms it, or flags a
disagreement that the director sees and clears. A later change of the table's holes while the
round is in play leaves the confirmation behind: the players confirm what the standings count. The
confirmation keeps the game's version it confirmed, and holds only while the game is at that
version (`Table.is_confirmed`, `Table.confirms`): read from what the change committed, nothing has
to clear it afterwards. Once the round is finalized its scorecards are closed: the link can
neither confirm nor dispute, and a director's correction keeps the confirmation (or the override)
and is kept in the event's log as a staff correction, in the correction's own transaction
(`follow_table_change`).

Each write takes its locks in the one order of `tournaments.services.locks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_REASON_LENGTH
from golfclub.core.names import InvalidName, clean_name, name_key
from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.limits import MAX_NOTE
from tournaments.models import Round, RoundStatus, Table, TableSeat, Tournament
from tournaments.services import locks
from tournaments.services.attested import check_attested, clean_scorecard
from tournaments.services.club_results import recount_table_game
from tournaments.services.events import clean_reason, log_event

if TYPE_CHECKING:
    from scoring.game_managers import ManagedChange
    from scoring.models import Game


def table_of_game(game: Game, *, lock: bool = False) -> Table:
    """The tournament table whose game is `game`, or `NotFoundInTournament` for any other game.

    With `lock`, the tournament, the round, the table and then the game are locked, in the one
    order of `tournaments.services.locks` (the game through `scoring.services.lock_games`)."""
    if lock:
        table = locks.lock_table_of_game(game.pk)
    else:
        table = Table.objects.select_related("round__tournament", "game").filter(game_id=game.pk).first()
    if table is None:
        raise NotFoundInTournament(
            Problem("game", _("This game is not a tournament table: there is nothing to confirm."))
        )
    return table


def _refuse_when_finalized(table: Table) -> None:
    """A finalized round's scorecards are closed: confirmed, or overridden with a reason."""
    if table.round.status == RoundStatus.FINALIZED:
        raise WrongState(
            Problem(
                "round",
                _(
                    "Round %(n)s is finalized: its scorecards are closed. Ask the director if "
                    "something is wrong."
                )
                % {"n": table.round.number},
            )
        )


def confirm_table(
    game: Game, by: Any, *, disagree: bool = False, note: Any = "", scorecard: Any = None
) -> Table:
    """A player at the table (`by`, their name) attests the finished scorecard, or with `disagree`
    flags it for the director with a note. Confirming twice keeps the first confirmation.
    `scorecard`, when given, is what the player attested (a phone that confirmed offline): refused
    (409) when the game's holes differ from it now (`tournaments.services.attested`)."""
    attested = clean_scorecard(scorecard)
    name = _checked_confirmation(by, disagree, note)
    with transaction.atomic():
        table = table_of_game(game, lock=True)
        _refuse_when_finalized(table)
        seat = (
            TableSeat.objects.select_related("entrant")
            .filter(table=table, entrant__name_key=name_key(name))
            .first()
        )
        if seat is None:
            raise TournamentError(
                Problem("by", _("%(name)s is not a player at this table.") % {"name": name})
            )
        if disagree:
            _flag_disagreement(table, seat, note.strip())
            return table
        _refuse_unless_confirmable(table)
        if attested is not None:
            check_attested(table.game_id, attested)
        if not table.confirms(table.game.version):  # a confirmation of an older scorecard is renewed
            table.confirmed_by = seat.entrant
            table.confirmed_at = timezone.now()
            table.confirmed_game_version = table.game.version
            table.save(update_fields=["confirmed_by", "confirmed_at", "confirmed_game_version"])
            round_changed(table)
    return table


def _checked_confirmation(by: Any, disagree: Any, note: Any) -> str:
    """The confirming player's name, once `by`, `disagree` and `note` are right (`TournamentError`
    naming each that is not)."""
    problems: list[Problem] = []
    try:
        name = clean_name(by)
    except InvalidName:
        name = ""
        problems.append(Problem("by", _("Say which player at the table is confirming (their name).")))
    if not isinstance(note, str) or len(note) > MAX_NOTE or "\x00" in note:
        problems.append(
            Problem("note", _("The note must be text of %(max)s characters at most.") % {"max": MAX_NOTE})
        )
    if not isinstance(disagree, bool):
        problems.append(Problem("disagree", _("disagree must be true or false.")))
    if problems:
        raise TournamentError(problems)
    return name


def _flag_disagreement(table: Table, seat: TableSeat, note: str) -> None:
    """The player at `seat` flags the scorecard for the director: any confirmation goes, the event's
    log keeps who and why."""
    table.disputed_by = seat.entrant
    table.dispute_note = note
    table.disputed_at = timezone.now()
    table.confirmed_by, table.confirmed_at, table.confirmed_game_version = None, None, None
    table.save(
        update_fields=[
            "disputed_by",
            "dispute_note",
            "disputed_at",
            "confirmed_by",
            "confirmed_at",
            "confirmed_game_version",
        ]
    )
    round_changed(table)
    log_event(
        table.round.tournament,
        "table_disputed",
        round_number=table.round.number,
        table=table.number,
        by=seat.entrant.name,
        note=note,  # up to MAX_NOTE: in the details, the reason column is shorter
    )


def _refuse_unless_confirmable(table: Table) -> None:
    """`WrongState` while the game is not over or the scorecard is disputed."""
    if not table.game.is_finished:
        raise WrongState(
            Problem("game", _("The game is not over yet: the scorecard is confirmed after the last hole."))
        )
    if table.is_disputed:
        raise WrongState(
            Problem(
                "game",
                _("%(name)s flagged a disagreement: the director clears it first.")
                % {"name": table.disputed_by.name if table.disputed_by else ""},
            )
        )


def clear_dispute(table: Table, *, note: str = "", actor: Any = None) -> Table:
    """The director has settled a table's disagreement: the players can confirm again."""
    note = clean_reason(note)
    with transaction.atomic():
        locked = locks.lock_table_of_game(table.game_id, with_game=False)
        if locked is None:  # the event was deleted meanwhile
            raise NotFoundInTournament(Problem("table", _("No such table in this tournament.")))
        if locked.is_disputed:
            log_event(
                locked.round.tournament,
                "dispute_cleared",
                actor=actor,
                round_number=locked.round.number,
                reason=note,
                table=locked.number,
            )
            locked.disputed_by, locked.disputed_at, locked.dispute_note = None, None, ""
            locked.save(update_fields=["disputed_by", "disputed_at", "dispute_note"])
            round_changed(locked)
    return locked


def round_changed(table: Table) -> None:
    """The round's answer shows its tables' confirmations: its version (the round's ETag) moves on.
    The round is locked already (level 2 of the lock order, before the table)."""
    Round.objects.filter(pk=table.round_id).update(version=F("version") + 1)


def follow_table_change(change: ManagedChange) -> None:
    """What the tournament writes with a change of a table's holes, inside that change's
    transaction (`TableManager.after_change`; its failure rolls the change back).

    A finalized round keeps every table confirmed or overridden, and a director's correction there
    (the only change its hole policy lets through) is kept in the event's log, with the change. In
    a club's event that game's members' results are rewritten and the club's ratings recomputed
    from it on (`club_results`, behind the club's ratings lock, taken last); a game made whole
    again by a later change ("finished") is recounted, not logged twice. Nothing else is
    written: a confirmation made before a change of the scorecard while the round
    is in play no longer holds, read from the game's version (`Table.is_confirmed`), and the
    event's versions add the games' versions (`tournaments.live_versions`). A new hole, the hot
    path, returns at once. No row is locked here: the game's lock is held, and the tournament's
    rows come before it in the lock order (the log's row only refers to the tournament)."""
    if change.kind not in ("corrected", "deleted", "reopened", "finished"):
        return
    row = (
        Table.objects.filter(game_id=change.game_id)
        .values_list(
            "number",
            "round__number",
            "round__status",
            "round__tournament_id",
            "round__tournament__club_id",
            "round__finalized_at",
        )
        .first()
    )
    if row is None or row[2] != RoundStatus.FINALIZED:
        return
    table_number, round_number, _status, tournament_id, club_id, finalized_at = row
    if club_id is not None:  # a club's event: the game's results and the ratings from it on
        deleted = change.hole_id if change.kind == "deleted" else None
        recount_table_game(club_id, change.game_id, finalized_at, without_hole=deleted)
    if change.kind == "finished":
        return
    tournament = Tournament(pk=tournament_id)  # the log row only refers to it: no read, no lock
    log_event(
        tournament,
        "finalized_round_corrected",
        round_number=round_number,
        reason=change.reason.strip()[:MAX_REASON_LENGTH],
        table=table_number,
        hole=change.hole_number,
        change=change.kind,
        by=change.actor[:MAX_REASON_LENGTH],
    )
