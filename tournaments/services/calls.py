"""Calls for an official, table extensions of the round clock, and time penalties drafted from it.

- `call_official`: a table's players ask for an official through the table's link; a second tap
  while a call is open answers the same call (one open call per table, held by the database);
- `answer_call`: an official closes the call, with the ruling they recorded or without;
- `extend_table`: the director gives a table more minutes, with a reason kept in the log;
- `give_time_penalties`: an official confirms a drafted time penalty: rule 6.3's time violation
  for every player at the table (skipping those already penalised for that round's time).

Each takes its locks in the one order of `tournaments.services.locks`.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.limits import MAX_NOTE
from tournaments.models import Offence, OfficialCall, Penalty, RoundStatus, Ruling, Table, Tournament
from tournaments.services import locks
from tournaments.services.events import bump_version, clean_reason, lock_tournament, log_event
from tournaments.services.penalties import give_penalty

#: The longest extension a table may get at once (minutes).
MAX_EXTENSION = 120


def call_official(table: Table, *, called_by: Any = "", note: Any = "") -> OfficialCall:
    """Open a call for an official at `table` (its round must be in play), or answer the call
    already open there."""
    name = called_by.strip()[:40] if isinstance(called_by, str) else ""
    text = note.strip() if isinstance(note, str) else ""
    if "\x00" in name or "\x00" in text or len(text) > MAX_NOTE:
        raise TournamentError(
            Problem("note", _("The note is too long (%(max)s characters at most).") % {"max": MAX_NOTE})
        )
    try:
        with transaction.atomic():
            # The lock order (`locks`): the tournament and the round first, so the round's state
            # read here holds until the call is written (a finalize waits, or goes first).
            tournament = lock_tournament(table.round.tournament_id)
            round_ = locks.lock_round_by_pk(table.round_id, tournament)
            if round_.status != RoundStatus.PUBLISHED:
                raise WrongState(Problem("round", _("Officials answer calls while the round is in play.")))
            open_call = OfficialCall.objects.filter(table=table, answered_at__isnull=True).first()
            if open_call is not None:
                return open_call
            call = OfficialCall.objects.create(
                tournament_id=tournament.pk, table=table, called_by=name, note=text
            )
            bump_version(tournament.pk)  # the players' pages list their table's calls (ETags move)
            return call
    except IntegrityError:  # held by the database too: one open call per table
        return OfficialCall.objects.get(table=table, answered_at__isnull=True)


def answer_call(
    tournament: Tournament, call_id: Any, *, ruling: Ruling | None = None, actor: Any = None
) -> OfficialCall:
    """Close a call (with the ruling recorded for it, if any); closing it again changes nothing."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        call = (
            OfficialCall.objects.select_for_update().filter(tournament=locked, pk=call_id).first()
            if isinstance(call_id, int) and 0 < call_id < 2**63
            else None
        )
        if call is None:
            raise NotFoundInTournament(Problem("call", _("No such call in this tournament.")))
        if call.answered_at is None:
            call.answered_at = timezone.now()
            call.answered_by = actor if getattr(actor, "is_authenticated", False) else None
            call.ruling = ruling
            call.save(update_fields=["answered_at", "answered_by", "ruling"])
            bump_version(locked.pk)  # the players' pages show the call answered
    return call


def extend_table(
    tournament: Tournament, table_id: Any, minutes: Any, *, reason: Any, actor: Any = None
) -> Table:
    """Give a table of the round in play `minutes` more on the clock, with a reason (logged)."""
    text = clean_reason(reason, required=_("An extension needs a reason (it is kept in the event's log)."))
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_EXTENSION:
        raise TournamentError(
            Problem("minutes", _("Minutes: a whole number from 1 to %(max)s.") % {"max": MAX_EXTENSION})
        )
    with transaction.atomic():
        locked = lock_tournament(tournament)
        table = locks.lock_table(locked, table_id)  # its round, then the table (the lock order)
        if table is None:
            raise NotFoundInTournament(Problem("table", _("No such table in this tournament.")))
        if table.round.status != RoundStatus.PUBLISHED:
            raise WrongState(Problem("table", _("Only a table of the round in play can be given more time.")))
        table.extra_minutes += minutes
        table.save(update_fields=["extra_minutes"])
        log_event(
            locked, "table_extended", actor=actor, round_number=table.round.number, reason=text,
            table=table.number, minutes=minutes, total_extra=table.extra_minutes,
        )  # fmt: skip
        bump_version(locked.pk)  # the table's clock on the players' and tables' pages (ETags move)
    return table


def give_time_penalties(
    tournament: Tournament, table_id: Any, seconds_over: int, *, actor: Any = None
) -> list[Penalty]:
    """Confirm a drafted time penalty: rule 6.3's time violation for each player at the table who
    has none yet for that round (a retried confirmation gives nothing twice)."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        table = (
            Table.objects.select_related("round").filter(round__tournament=locked, pk=table_id).first()
            if isinstance(table_id, int) and 0 < table_id < 2**63
            else None
        )
        if table is None:
            raise NotFoundInTournament(Problem("table", _("No such table in this tournament.")))
        number = table.round.number
        already = set(
            Penalty.objects.filter(
                tournament=locked, round_number=number, offence=Offence.TIME, rescinded_at__isnull=True
            ).values_list("entrant_id", flat=True)
        )
        given = []
        for entrant_id in table.seats.order_by("seat").values_list("entrant_id", flat=True):
            if entrant_id in already:
                continue
            given.append(
                give_penalty(
                    locked,
                    player=entrant_id,
                    offence=Offence.TIME,
                    round_number=number,
                    seconds_over=seconds_over,
                    note=_("Table %(t)s finished %(s)s s over the round's time.")
                    % {"t": table.number, "s": seconds_over},
                    actor=actor,
                )
            )
    return given
