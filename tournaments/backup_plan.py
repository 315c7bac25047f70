"""An event's seating plan in its backup file (`"seating_plan"` beside `"rounds"`; issue 34).

A restored `fewest_repeats` event then seats its next rounds exactly as the original would have.
Files written before the plan existed have no such key: the plan is made again from the rounds
seated when the next round is seated (`tournaments.services.seating_plans`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from golfclub.core.backup import BackupError, Record
from tournaments.models import SeatingPlan, Tournament

KEY = "seating_plan"


def plan_of(tournament: Tournament) -> dict[str, Any] | None:
    """The `seating_plan` part of the file: the event's kept plan, or None."""
    plan = SeatingPlan.objects.filter(tournament=tournament).first()
    if plan is None:
        return None
    return {
        "first_round": plan.first_round,
        "players": plan.players,
        "rounds": plan.rounds,
        "repeats": plan.repeats,
        "least_possible": plan.least_possible,
        "reason": plan.reason,
    }


def plan_row(event: Record, tournament: Tournament, entrant_ids: set[int]) -> list[SeatingPlan]:
    """The plan row to restore ([] when the file has none), every value checked: the players and
    every seat are entrants of the file, every planned round seats each player once."""
    if not event.has(KEY) or event.value(KEY) is None:
        return []
    record = event.record(KEY)
    players = _entrants(record.array("players"), f"{record.where}.players", entrant_ids)
    rounds = record.array("rounds")
    for index, tables in enumerate(rounds):
        where = f"{record.where}.rounds[{index}]"
        if not isinstance(tables, list) or not all(isinstance(table, list) for table in tables):
            raise BackupError(where, _("a list of tables, each a list of players, is expected."))
        seated = _entrants([p for table in tables for p in table], where, entrant_ids)
        if sorted(seated) != sorted(players):
            raise BackupError(where, _("this round does not seat each of the plan's players once."))
    return [
        SeatingPlan(
            tournament=tournament,
            first_round=record.number("first_round", low=1, high=2**15 - 1),
            players=players,
            rounds=rounds,
            repeats=record.number("repeats", high=2**31 - 1),
            least_possible=record.number("least_possible", high=2**31 - 1),
            reason=record.text("reason")[:200],
        )
    ]


def save_plan(rows: list[SeatingPlan]) -> None:
    """Insert the restored plan (it has no id of its own to keep: one row per event)."""
    SeatingPlan.objects.bulk_create(rows)


def _entrants(values: list[Any], where: str, entrant_ids: set[int]) -> list[int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) and v in entrant_ids for v in values):
        raise BackupError(where, _("every player must be one of the file's entrants, by id."))
    return values
