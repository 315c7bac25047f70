"""The seating plan of a `fewest_repeats` event (SPEC "Seating plans"), kept in `SeatingPlan`.

The whole plan is made when round 1 is seated (the planner puts the players in its places at
random from the event's seed, so round 1 stays random) and every later round is seated from it.
A change of who plays (a drop, a withdrawal, a late entry, a reinstatement, a disqualification),
a swap in a seated round, or a new number of rounds re-plans only the rounds not yet seated:
the writing service calls `refresh_seating_plan` in its own transaction, with the tournament row
locked, so the plan the director sees is always the one the next round gets. A plan that does not
match the event when a round is seated (a restored backup, a mode changed to `fewest_repeats`
after round 1) is made again there, from the rounds seated.

The planner itself is pure Python (`tournaments.planning`); this module only reads the seated
rounds and the active players and stores what it answers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Entrant, EntrantStatus, SeatingMode, SeatingPlan, TableSeat, Tournament
from tournaments.planning import count_repeats, plan_rounds


@dataclass(frozen=True)
class PlanSummary:
    """What the director is shown of an event's seating plan."""

    repeats: int
    least_possible: int
    first_round: int
    reason: str


def seated_tables(tournament: Tournament) -> list[list[list[int]]]:
    """The tables of the rounds already seated, round by round, entrant ids in seat order."""
    by_table: dict[tuple[int, int], list[int]] = defaultdict(list)
    for round_number, table_number, entrant_id in (
        TableSeat.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table__number", "seat")
        .values_list("round__number", "table__number", "entrant_id")
    ):
        by_table[(round_number, table_number)].append(entrant_id)
    rounds: dict[int, list[list[int]]] = defaultdict(list)
    for (round_number, _table), players in sorted(by_table.items()):
        rounds[round_number].append(players)
    return [rounds[n] for n in sorted(rounds)]


def active_players(tournament: Tournament) -> list[int]:
    """The entrant ids seated in the rounds to come, in entry order (the planner's player order)."""
    return list(
        Entrant.objects.filter(tournament=tournament, status=EntrantStatus.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def planned_round(
    locked: Tournament, number: int, players: list[int], seated: list[list[list[int]]]
) -> list[list[int]]:
    """The tables of round `number` from the event's plan, making the plan first when there is none
    or it no longer matches the event (its players, its seated rounds or the number of rounds).
    The caller holds the tournament's lock and seats round `number` in the same transaction."""
    plan = SeatingPlan.objects.filter(tournament=locked).first()
    if plan is None or not _matches(plan, locked, players, seated):
        reason = (
            _("Made when round 1 was seated.")
            if number == 1
            else _("Made again when round %(n)s was seated.") % {"n": number}
        )
        plan = _store_plan(locked, players, seated, reason)
    tables = plan.round_tables(number)
    if tables is None:  # _matches checked the plan reaches the event's last round
        raise AssertionError(f"seating plan of tournament {locked.pk} lacks round {number}")
    return tables


def refresh_seating_plan(locked: Tournament, *, reason: str) -> None:
    """Re-plan the rounds not yet seated after a change of who plays or of the seated tables.

    Called by the writing service inside its transaction, the tournament row locked. Nothing is
    planned before round 1 is seated (round 1 makes the plan), or when
    the event is not seated `fewest_repeats`; a plan left from a mode since changed is dropped.
    When every round is seated the kept figures become those of the seating as it stands (no
    planned round); when fewer than 3 players are left the plan is dropped (nothing can be seated)."""
    if locked.seating != SeatingMode.FEWEST_REPEATS:
        SeatingPlan.objects.filter(tournament=locked).delete()
        return
    seated = seated_tables(locked)
    if not seated:
        return
    players = active_players(locked)
    if len(seated) >= locked.rounds:
        _count_seated(locked, players, seated)
        return
    if len(players) < 3:
        # Nothing can be seated (the next round says so when asked): no figure of a field gone.
        SeatingPlan.objects.filter(tournament=locked).delete()
        return
    _store_plan(locked, players, seated, reason)


def _count_seated(locked: Tournament, players: list[int], seated: list[list[list[int]]]) -> None:
    """Every round is seated: keep the figures of the seating as it stands (a swap in the last round
    changes them) with no planned round, so nothing says a round was planned again. A drop after the
    last round changes no figure and leaves the kept plan as it is."""
    plan = SeatingPlan.objects.filter(tournament=locked).first()
    repeats = count_repeats(seated)  # nothing is left to choose: the least possible is the same
    figures = (len(seated) + 1, [], repeats, repeats)
    if plan is not None and (plan.first_round, plan.rounds, plan.repeats, plan.least_possible) == figures:
        return
    SeatingPlan.objects.update_or_create(
        tournament=locked,
        defaults={
            "first_round": figures[0],
            "players": sorted(players),
            "rounds": [],
            "repeats": figures[2],
            "least_possible": figures[3],
            "reason": _("Every round is seated: these are the figures of the seating as it stands.")[:200],
        },
    )


def plan_summary(tournament: Tournament) -> PlanSummary | None:
    """The event's seating plan as the director sees it, or None when it has none."""
    plan = SeatingPlan.objects.filter(tournament=tournament).first()
    if plan is None or tournament.seating != SeatingMode.FEWEST_REPEATS:
        return None
    return PlanSummary(
        repeats=plan.repeats,
        least_possible=plan.least_possible,
        first_round=plan.first_round,
        reason=plan.reason,
    )


def replanned_message(tournament: Tournament) -> str | None:
    """What a page says after a change that re-planned the rounds not yet seated, or None when the
    event has no plan (not `fewest_repeats`, or round 1 not seated yet, or every round seated)."""
    plan = plan_summary(tournament)
    if plan is None or plan.first_round == 1 or plan.first_round > tournament.rounds:
        return None
    if plan.first_round != tournament.round_set.count() + 1:
        return None  # the kept plan was not made after the rounds now seated: nothing was re-planned
    return ngettext(
        "The rounds from round %(first)s on were planned again: %(n)s repeated meeting over the "
        "event; the least possible is %(least)s.",
        "The rounds from round %(first)s on were planned again: %(n)s repeated meetings over the "
        "event; the least possible is %(least)s.",
        plan.repeats,
    ) % {"first": plan.first_round, "n": plan.repeats, "least": plan.least_possible}


def _matches(
    plan: SeatingPlan, locked: Tournament, players: list[int], seated: list[list[list[int]]]
) -> bool:
    """True when `plan` was made for these players and agrees with every round seated since it was
    made, and reaches the event's last round."""
    if sorted(plan.players) != sorted(players) or plan.first_round > len(seated) + 1:
        return False
    if plan.first_round + len(plan.rounds) - 1 != locked.rounds:
        return False
    for number in range(plan.first_round, len(seated) + 1):
        planned = plan.round_tables(number) or []
        if sorted(map(sorted, planned)) != sorted(map(sorted, seated[number - 1])):
            return False
    return True


def _store_plan(
    locked: Tournament, players: list[int], seated: list[list[list[int]]], reason: str
) -> SeatingPlan:
    """Plan the rounds after `seated` and keep the plan (one row per event, replaced).

    The planner is given positions, not ids: the active players in entry order are 0..n-1 (players
    who have left follow), exactly as `manage.py seating_plan` numbers them 1..n, so an event and
    the command with the same seed get the same plan."""
    order = sorted(players)
    ids, positions = _positions(players, seated)
    plan = plan_rounds(list(range(len(order))), rounds=locked.rounds, seed=locked.seed, seated=positions)
    row, _created = SeatingPlan.objects.update_or_create(
        tournament=locked,
        defaults={
            "first_round": len(seated) + 1,
            "players": order,
            "rounds": [[[ids[i] for i in table] for table in tables] for tables in plan.rounds],
            "repeats": plan.repeats,
            "least_possible": plan.least_possible,
            "reason": reason[:200],
        },
    )
    return row


def _positions(players: list[int], seated: list[list[list[int]]]) -> tuple[list[int], list[list[list[int]]]]:
    """The planner's numbering: the active players in entry order are 0..n-1, the players who have
    left follow; answered with the seated rounds in those positions."""
    order = sorted(players)
    gone = sorted({p for tables in seated for table in tables for p in table} - set(order))
    ids = order + gone
    position = {player: index for index, player in enumerate(ids)}
    return ids, [[[position[p] for p in table] for table in tables] for tables in seated]
