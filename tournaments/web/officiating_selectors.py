"""What the officials' pages read: open calls, the penalty ledger, the rulings log, the round in
play with its drafted time penalties. Each a fixed number of queries whatever the event's size."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from scoring.web.rule_links import rule_url
from tournaments.clock import TimeDraft, time_drafts
from tournaments.models import OfficialCall, Penalty, Round, RoundStatus, Ruling, TableSeat, Tournament

#: How many ledger entries the desk shows (the API lists them all).
LEDGER_ON_DESK = 50


@dataclass(frozen=True)
class CallLine:
    """An open call as the desk shows it: which table, who called, how long ago."""

    call: OfficialCall
    minutes_ago: int


def open_calls(tournament: Tournament) -> list[CallLine]:
    """The calls not yet answered, oldest first (one query)."""
    now = timezone.now()
    calls = (
        OfficialCall.objects.filter(tournament=tournament, answered_at__isnull=True)
        .select_related("table__round")
        .order_by("created_at", "pk")
    )
    return [CallLine(call, int((now - call.created_at).total_seconds() // 60)) for call in calls]


def round_in_play(tournament: Tournament) -> Round | None:
    """The published round, if one is in play (one query)."""
    return (
        Round.objects.filter(tournament=tournament, status=RoundStatus.PUBLISHED).order_by("-number").first()
    )


def drafts_of(tournament: Tournament, round_: Round | None) -> list[TimeDraft]:
    """Drafted time penalties of the round in play, leaving out tables already penalised."""
    if round_ is None:
        return []
    drafts = time_drafts(tournament, round_)
    if not drafts:
        return []
    penalised = set(
        Penalty.objects.filter(
            tournament=tournament, round_number=round_.number, offence="time", rescinded_at__isnull=True
        ).values_list("entrant_id", flat=True)
    )
    seated = TableSeat.objects.filter(table__in=[d.table for d in drafts]).values_list(
        "table_id", "entrant_id"
    )
    players: dict[int, set[int]] = {}
    for table_id, entrant_id in seated:
        players.setdefault(table_id, set()).add(entrant_id)
    return [d for d in drafts if not players.get(d.table.pk, set()) <= penalised]


def ledger(tournament: Tournament, limit: int | None = LEDGER_ON_DESK) -> QuerySet[Penalty]:
    """The penalty ledger, newest first, with the ruling each came from (one query)."""
    rows = (
        Penalty.objects.filter(tournament=tournament)
        .select_related("entrant", "given_by", "ruling")
        .order_by("-pk")
    )
    return rows[:limit] if limit else rows


def rulings_log(tournament: Tournament) -> QuerySet[Ruling]:
    """The rulings log, newest first, with each ruling's player, penalty and official (one query)."""
    return (
        Ruling.objects.filter(tournament=tournament)
        .select_related("entrant", "penalty__entrant", "official")
        .order_by("-created_at", "-pk")
    )


def rule_link(section: str) -> str:
    """Where a section of the official reference is explained (the rules reference's anchor)."""
    return rule_url(section)
