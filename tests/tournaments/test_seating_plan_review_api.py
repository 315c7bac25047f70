"""Review of the seating plan in the API and in backup files (issue 34): the round's body carries
the plan's figures for the event's staff only (never the public, nor a director of another event);
a backup whose `seating_plan` part is damaged is refused by the place of the damage, and nothing
is written."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from golfclub.core.backup import BackupError
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.backup import checksum, export_event
from tournaments.models import SeatingPlan, Tournament
from tournaments.restore import import_event

pytestmark = pytest.mark.django_db(transaction=True)


def _client(username: str | None) -> APIClient:
    client = APIClient()
    if username:
        client.force_login(user(username))
    return client


def test_the_plan_is_the_staffs_only_in_the_tournaments_body() -> None:
    tournament = event(16, rounds=6, holes=1, public=True)
    services.seat_next_round(tournament)
    user("olga")
    services.add_staff(tournament, "olga", "official")
    services.create_tournament(director=user("eve"), name="Eve's Open", rounds=3, ruleset="official")
    url = f"/api/v1/tournaments/{tournament.pk}/"
    for who in ("dora", "olga"):
        assert _client(who).get(url).json()["seating_plan"]["least_possible"] == 24
    services.publish_round(tournament, 1)
    for who in (None, "eve"):
        answer = _client(who).get(url)
        assert answer.status_code == 200 and "seating_plan" not in answer.json()
        assert "least_possible" not in answer.content.decode()
        rounds = _client(who).get(url + "rounds/1/")
        assert rounds.status_code == 200 and "least" not in rounds.content.decode()
    public_pages = [f"/tournaments/{tournament.pk}/public/", f"/tournaments/{tournament.pk}/rounds/1/"]
    for page in public_pages:
        body = _client(None).get(page).content.decode()
        assert "repeated meeting" not in body and "seating-plan" not in body


def _after_round_1() -> Tournament:
    tournament = event(16, rounds=5, holes=1)
    services.finalize_round(tournament, play_round(tournament).number)
    services.drop_entrant(tournament, tournament.entrants.order_by("pk").first().pk)
    return tournament


def _set(key: str, value: Any) -> Callable[[dict], None]:
    return lambda plan: plan.update({key: value})


DAMAGES: list[tuple[Callable[[dict], None], str]] = [
    (lambda plan: plan.clear() or plan.update(x=1), "seating_plan.players"),
    (_set("players", "everyone"), "seating_plan.players"),
    (lambda plan: plan["players"].append(True), "seating_plan.players"),
    (lambda plan: plan["players"].append(str(plan["players"][0])), "seating_plan.players"),
    (lambda plan: plan["players"].append(plan["players"][0]), "seating_plan.players"),
    (_set("first_round", 0), "seating_plan.first_round"),
    (_set("first_round", 7), "seating_plan.first_round"),  # after an unseated round
    (_set("first_round", "2"), "seating_plan.first_round"),
    (_set("first_round", None), "seating_plan.first_round"),
    (lambda plan: plan["rounds"].extend(plan["rounds"] * 6), "seating_plan.rounds"),  # past round 21
    (lambda plan: plan["rounds"].__setitem__(0, "tables"), "seating_plan.rounds[0]"),
    (lambda plan: plan["rounds"][1].__setitem__(2, 5), "seating_plan.rounds[1][2]"),
    (lambda plan: plan["rounds"][1][2].__setitem__(0, 10**9), "seating_plan.rounds[1][2]"),
    (lambda plan: plan["rounds"][1][2].__setitem__(0, 1.5), "seating_plan.rounds[1][2]"),
    (lambda plan: plan["rounds"][0].append([]), "seating_plan.rounds[0][4]"),
    (lambda plan: plan["rounds"][0].append(plan["rounds"][0].pop() * 2), "seating_plan.rounds[0][3]"),
    (lambda plan: plan["rounds"][0][0].pop(), "seating_plan.rounds[0]"),  # someone not seated
    (_set("repeats", -1), "seating_plan.repeats"),
    (_set("repeats", 2**40), "seating_plan.repeats"),
    (_set("least_possible", False), "seating_plan.least_possible"),
    (lambda plan: plan.update(repeats=0, least_possible=3), "seating_plan.least_possible"),
    (_set("reason", 7), "seating_plan.reason"),
    (_set("reason", "a\x00b"), "seating_plan.reason"),
    (lambda plan: plan.pop("reason"), "seating_plan.reason"),
]


@pytest.mark.parametrize(("damage", "where"), DAMAGES)
def test_a_damaged_plan_is_refused_at_its_place_and_nothing_is_written(damage, where: str) -> None:
    tournament = _after_round_1()
    document = copy.deepcopy(export_event(tournament.pk))
    services.delete_tournament(tournament)
    damage(document["event"]["seating_plan"])
    document["checksum"] = checksum(document["event"])
    with pytest.raises(BackupError) as refused:
        import_event(document)
    assert refused.value.where == f"event.{where}"
    assert not Tournament.objects.exists() and not SeatingPlan.objects.exists()


@pytest.mark.parametrize("plan", [None, "nothing", [], 3])
def test_a_plan_that_is_not_an_object_is_refused_or_skipped(plan: Any) -> None:
    tournament = _after_round_1()
    document = copy.deepcopy(export_event(tournament.pk))
    services.delete_tournament(tournament)
    document["event"]["seating_plan"] = plan
    document["checksum"] = checksum(document["event"])
    if plan is None:  # a file whose event had no plan
        restored = import_event(document)
        assert not SeatingPlan.objects.filter(tournament=restored).exists()
        return
    with pytest.raises(BackupError) as refused:
        import_event(document)
    assert refused.value.where == "event.seating_plan"
    assert not Tournament.objects.exists()
