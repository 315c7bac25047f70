"""An event's seating plan in its backup file (`"seating_plan"` beside `"rounds"`; issue 34).

A restored `fewest_repeats` event then seats its next rounds exactly as the original would have.
Files written before the plan existed have no such key: the plan is made again from the rounds
seated when the next round is seated (`tournaments.services.seating_plans`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from golfclub.core.backup import BackupError, Record
from tournaments.limits import MAX_ROUNDS
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
    """The plan row to restore ([] when the file has none), every value checked: the players are
    entrants of the file, each once; the plan starts at most one round after the file's seated
    rounds and ends by round `MAX_ROUNDS`; every planned round is a list of tables of 3 to 5 that
    seats each of the plan's players once; the least possible is not above the repeats. Each
    refusal names its place (`event.seating_plan.rounds[1][2]`)."""
    if not event.has(KEY) or event.value(KEY) is None:
        return []
    record = event.record(KEY)
    players = _entrants(record.array("players"), f"{record.where}.players", entrant_ids)
    if len(set(players)) != len(players):
        raise BackupError(f"{record.where}.players", _("each player may be named only once."))
    first_round = record.number("first_round", low=1, high=len(event.array("rounds")) + 1)
    rounds = record.array("rounds")
    if first_round + len(rounds) - 1 > MAX_ROUNDS:
        raise BackupError(
            f"{record.where}.rounds",
            _("the plan goes beyond round %(max)s, the most an event has.") % {"max": MAX_ROUNDS},
        )
    for index, tables in enumerate(rounds):
        _check_round(tables, f"{record.where}.rounds[{index}]", players, entrant_ids)
    repeats = record.number("repeats", high=2**31 - 1)
    least = record.number("least_possible", high=2**31 - 1)
    if least > repeats:
        raise BackupError(
            f"{record.where}.least_possible", _("the least possible cannot be above the repeats.")
        )
    return [
        SeatingPlan(
            tournament=tournament,
            first_round=first_round,
            players=players,
            rounds=rounds,
            repeats=repeats,
            least_possible=least,
            reason=record.text("reason")[:200],
        )
    ]


def _check_round(tables: Any, where: str, players: list[int], entrant_ids: set[int]) -> None:
    """One planned round: a list of tables of 3 to 5 entrants that seats each of `players` once."""
    if not isinstance(tables, list):
        raise BackupError(where, _("a list of tables, each a list of players, is expected."))
    seated: list[int] = []
    for number, table in enumerate(tables):
        if not isinstance(table, list) or not 3 <= len(table) <= 5:
            raise BackupError(f"{where}[{number}]", _("a table of 3 to 5 players is expected."))
        seated += _entrants(table, f"{where}[{number}]", entrant_ids)
    if sorted(seated) != sorted(players):
        raise BackupError(where, _("this round does not seat each of the plan's players once."))


def save_plan(rows: list[SeatingPlan]) -> None:
    """Insert the restored plan (it has no id of its own to keep: one row per event)."""
    SeatingPlan.objects.bulk_create(rows)


def _entrants(values: list[Any], where: str, entrant_ids: set[int]) -> list[int]:
    if not all(isinstance(v, int) and not isinstance(v, bool) and v in entrant_ids for v in values):
        raise BackupError(where, _("every player must be one of the file's entrants, by id."))
    return values
