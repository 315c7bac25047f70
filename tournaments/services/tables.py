"""A table's scorecard at the end of its game: a player at the table confirms it, or flags a
disagreement that the director sees and clears. A later correction of the table's holes clears
the confirmation (`tournaments.receivers`): the players confirm what the standings count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.names import InvalidName, clean_name, name_key
from scoring import services as scoring_services
from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.limits import MAX_NOTE
from tournaments.models import Table, TableSeat
from tournaments.services.events import clean_reason, log_event

if TYPE_CHECKING:
    from scoring.models import Game


def table_of_game(game: Game, *, lock: bool = False) -> Table:
    """The tournament table whose game is `game`, or `NotFoundInTournament` for any other game.

    With `lock`, the table, its round and tournament are locked, then the game through
    `scoring.services.lock_games` (scoring's rows are locked by scoring's services only)."""
    query = (
        Table.objects.select_for_update(of=("self", "round", "round__tournament")) if lock else Table.objects
    )
    table = query.select_related("round__tournament", "game").filter(game_id=game.pk).first()
    if table is None:
        raise NotFoundInTournament(
            Problem("game", _("This game is not a tournament table: there is nothing to confirm."))
        )
    if lock:
        table.game = scoring_services.lock_games([table.game_id])[table.game_id]
    return table


def confirm_table(game: Game, by: Any, *, disagree: bool = False, note: Any = "") -> Table:
    """A player at the table (`by`, their name) attests the finished scorecard, or with `disagree`
    flags it for the director with a note. Confirming twice keeps the first confirmation."""
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
    with transaction.atomic():
        table = table_of_game(game, lock=True)
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
            table.disputed_by = seat.entrant
            table.dispute_note = note.strip()
            table.disputed_at = timezone.now()
            table.confirmed_by, table.confirmed_at = None, None
            table.save(
                update_fields=["disputed_by", "dispute_note", "disputed_at", "confirmed_by", "confirmed_at"]
            )
            log_event(
                table.round.tournament,
                "table_disputed",
                round_number=table.round.number,
                table=table.number,
                by=seat.entrant.name,
                note=note.strip(),  # up to MAX_NOTE: in the details, the reason column is shorter
            )
            return table
        if not table.game.is_finished:
            raise WrongState(
                Problem(
                    "game", _("The game is not over yet: the scorecard is confirmed after the last hole.")
                )
            )
        if table.is_disputed:
            raise WrongState(
                Problem(
                    "game",
                    _("%(name)s flagged a disagreement: the director clears it first.")
                    % {"name": table.disputed_by.name if table.disputed_by else ""},
                )
            )
        if not table.is_confirmed:
            table.confirmed_by = seat.entrant
            table.confirmed_at = timezone.now()
            table.save(update_fields=["confirmed_by", "confirmed_at"])
    return table


def clear_dispute(table: Table, *, note: str = "", actor: Any = None) -> Table:
    """The director has settled a table's disagreement: the players can confirm again."""
    note = clean_reason(note)
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
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
    return locked


def unconfirm_table_of_game(game_id: int) -> None:
    """Clear the confirmation of the table of `game_id` (its scores changed after it)."""
    Table.objects.filter(game_id=game_id, confirmed_at__isnull=False).update(
        confirmed_at=None, confirmed_by=None
    )
