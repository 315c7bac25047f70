"""Review of the seating plan under real concurrent requests on PostgreSQL (issue 34): a swap and a
drop at once, a change of the number of rounds and a seating at once. Afterwards the kept plan
matches the event: its players are the active ones, it starts after the seated rounds (or agrees
with those seated from it), it reaches the event's last round, every planned round seats each
active player once, and its repeats are those of the seated rounds and the planned ones together.
Skipped on SQLite."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, SeatingPlan, Tournament
from tournaments.planning import count_repeats
from tournaments.services.seating_plans import seated_tables

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _call(method: str, url: str, body: dict[str, Any]) -> Callable[[], Any]:
    def call() -> Any:
        client = APIClient()
        client.force_login(user("dora"))
        return getattr(client, method)(url, json.dumps(body), content_type="application/json")

    return call


def assert_plan_matches_the_event(tournament: Tournament) -> SeatingPlan:
    """The checks of the module's docstring; answers the plan."""
    tournament.refresh_from_db()
    plan = SeatingPlan.objects.get(tournament=tournament)
    seated = seated_tables(tournament)
    active = sorted(
        Entrant.objects.filter(tournament=tournament, status="active").values_list("pk", flat=True)
    )
    assert plan.first_round + len(plan.rounds) - 1 == tournament.rounds
    assert plan.first_round <= len(seated) + 1
    for number in range(plan.first_round, len(seated) + 1):  # seated from the plan: the same tables
        assert sorted(map(sorted, plan.rounds[number - plan.first_round])) == sorted(
            map(sorted, seated[number - 1])
        )
    if plan.first_round == len(seated) + 1:
        assert plan.players == active
        for tables in plan.rounds:
            assert sorted(p for table in tables for p in table) == active
    whole = seated[: plan.first_round - 1] + plan.rounds
    assert plan.repeats == count_repeats(whole) >= plan.least_possible
    return plan


def test_a_swap_and_a_drop_of_the_same_player_at_once() -> None:
    tournament = event(20, rounds=6, holes=1)
    services.finalize_round(tournament, play_round(tournament).number)
    services.seat_next_round(tournament)
    tables = seated_tables(tournament)[1]
    a, b = tables[0][0], tables[1][0]
    base = f"/api/v1/tournaments/{tournament.pk}/"
    results = at_once(
        _call("post", f"{base}rounds/2/swap/", {"players": [a, b], "reason": "friends"}),
        _call("post", f"{base}players/{a}/drop/", {"reason": "home"}),
        _call("post", f"{base}players/", {"name": "Late Comer"}),
    )
    assert [r.status_code for r in results] == [200, 200, 201], results
    seated = seated_tables(tournament)[1]
    assert a in seated[1] and b in seated[0]  # swapped; the dropped player keeps the seated round
    plan = assert_plan_matches_the_event(tournament)
    assert plan.first_round == 3 and a not in plan.players and len(plan.players) == 20


def test_fewer_rounds_and_a_seating_at_once_leave_the_figures_of_what_is_seated() -> None:
    tournament = event(16, rounds=6, holes=1)
    services.finalize_round(tournament, play_round(tournament).number)
    base = f"/api/v1/tournaments/{tournament.pk}/"
    results = at_once(_call("patch", base, {"rounds": 2}), _call("post", f"{base}rounds/", {}))
    assert sorted(r.status_code for r in results) == [200, 201], results
    plan = assert_plan_matches_the_event(tournament)
    # Cut first: round 2 re-planned, then seated from it; else counted after it was seated.
    assert plan.first_round in (2, 3) and len(seated_tables(tournament)) == 2
    assert plan.repeats == count_repeats(seated_tables(tournament))


def test_more_rounds_and_a_seating_at_once_plan_to_the_new_last_round() -> None:
    tournament = event(16, rounds=3, holes=1)
    services.finalize_round(tournament, play_round(tournament).number)
    base = f"/api/v1/tournaments/{tournament.pk}/"
    results = at_once(_call("patch", base, {"rounds": 6}), _call("post", f"{base}rounds/", {}))
    assert sorted(r.status_code for r in results) == [200, 201], results
    plan = assert_plan_matches_the_event(tournament)
    assert plan.first_round + len(plan.rounds) - 1 == 6 and len(seated_tables(tournament)) == 2
