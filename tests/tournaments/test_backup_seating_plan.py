"""An event's seating plan travels in its backup file (issue 34): restored, the event seats its next
rounds exactly as the original would have; a plan that names a stranger or seats someone twice is
refused by name, and nothing is written."""

from __future__ import annotations

import copy

import pytest

from golfclub.core.backup import BackupError
from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.backup import export_event
from tournaments.models import SeatingPlan, Tournament
from tournaments.restore import import_event
from tournaments.services.seating_plans import seated_tables

pytestmark = pytest.mark.django_db(transaction=True)


def _after_round_1() -> Tournament:
    tournament = event(16, rounds=5, holes=1)
    services.finalize_round(tournament, play_round(tournament).number)
    services.drop_entrant(tournament, tournament.entrants.order_by("pk").first().pk)  # re-planned
    return tournament


def test_a_restored_event_seats_its_next_round_from_the_kept_plan() -> None:
    tournament = _after_round_1()
    document = export_event(tournament.pk)
    kept = SeatingPlan.objects.get(tournament=tournament)
    assert document["event"]["seating_plan"]["rounds"] == kept.rounds and kept.first_round == 2
    services.seat_next_round(tournament)
    original_round_2 = seated_tables(tournament)[1]

    services.delete_tournament(tournament)
    restored = import_event(document)
    assert SeatingPlan.objects.get(tournament=restored).rounds == kept.rounds
    services.seat_next_round(restored)
    assert seated_tables(restored)[1] == original_round_2


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda plan: plan["players"].append(10**6), "seating_plan.players"),
        (lambda plan: plan["rounds"][0][0].append(plan["rounds"][0][1][0]), "seating_plan.rounds[0]"),
        (lambda plan: plan.update(rounds="tables"), "seating_plan.rounds"),
    ],
)
def test_a_damaged_plan_is_refused_by_name_and_nothing_is_written(damage, where: str) -> None:
    tournament = _after_round_1()
    document = copy.deepcopy(export_event(tournament.pk))
    services.delete_tournament(tournament)
    damage(document["event"]["seating_plan"])
    from tournaments.backup import checksum

    document["checksum"] = checksum(document["event"])
    with pytest.raises(BackupError) as refused:
        import_event(document)
    assert refused.value.where.startswith(f"event.{where}") or refused.value.where.startswith(where)
    assert not Tournament.objects.exists()


def test_a_file_without_a_plan_still_restores_and_plans_at_the_next_round() -> None:
    tournament = _after_round_1()
    document = export_event(tournament.pk)
    services.delete_tournament(tournament)
    del document["event"]["seating_plan"]
    from tournaments.backup import checksum

    document["checksum"] = checksum(document["event"])
    restored = import_event(document)
    assert not SeatingPlan.objects.filter(tournament=restored).exists()
    services.seat_next_round(restored)
    plan = SeatingPlan.objects.get(tournament=restored)
    assert plan.first_round == 2 and plan.repeats >= plan.least_possible
