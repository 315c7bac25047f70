"""A `fewest_repeats` event is seated from its whole seating plan (SPEC "Seating plans", issue 34):
made when round 1 is seated, kept, re-planned for the rounds not yet seated after a drop, a late
entry, a disqualification or a swap, and the same plan as `manage.py seating_plan` prints."""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO
from itertools import combinations

import pytest
from django.core.management import call_command

from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, SeatingPlan, TableSeat, Tournament
from tournaments.services.seating_plans import seated_tables

pytestmark = pytest.mark.django_db


def positions(tournament: Tournament) -> list[list[list[int]]]:
    """The seated rounds with players numbered 1..n in entry order (as the command numbers them)."""
    number = {
        pk: i
        for i, pk in enumerate(
            Entrant.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True), 1
        )
    }
    return [[[number[p] for p in table] for table in tables] for tables in seated_tables(tournament)]


def command_plan(players: int, rounds: int, seed: int) -> dict:
    out = StringIO()
    call_command("seating_plan", players=players, rounds=rounds, seed=seed, json=True, stdout=out)
    return json.loads(out.getvalue())


def play_and_finalize(tournament: Tournament) -> None:
    services.finalize_round(tournament, play_round(tournament).number)


def meetings(rounds: list[list[list[int]]]) -> Counter:
    return Counter(
        frozenset(pair) for tables in rounds for table in tables for pair in combinations(table, 2)
    )


def test_the_round_robin_of_16_is_seated_and_is_the_commands_plan() -> None:
    tournament = event(16, rounds=5, holes=1)
    for _ in range(5):
        play_and_finalize(tournament)
    seated = positions(tournament)
    met = meetings(seated)
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}  # everyone meets everyone once
    printed = command_plan(16, 5, tournament.seed)
    assert printed == {"players": 16, "rounds": seated, "repeats": 0, "least_possible": 0}
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert (plan.first_round, plan.repeats, plan.least_possible) == (1, 0, 0)


def test_round_1_is_the_plans_first_round_and_still_random_from_the_seed() -> None:
    first = event(16, rounds=5, holes=1)
    services.seat_next_round(first)
    other = services.create_tournament(
        director=user("dora"), name="Other", rounds=5, seating="fewest_repeats", seed=43
    )
    services.import_entrants(other, "name\n" + "\n".join(f"P{n:02d}" for n in range(1, 17)))
    services.seat_next_round(other)
    assert positions(first)[0] != positions(other)[0]
    assert positions(first)[0] == command_plan(16, 5, 42)["rounds"][0]


@pytest.mark.parametrize("change", ["drop", "late_entry", "disqualify", "reinstate"])
def test_a_change_of_who_plays_replans_only_the_rounds_not_seated(change: str) -> None:
    tournament = event(16, rounds=5, holes=1)
    play_and_finalize(tournament)
    round_1 = positions(tournament)[0]
    p01 = Entrant.objects.get(tournament=tournament, name="P01")
    if change == "reinstate":
        services.drop_entrant(tournament, p01.pk)
    _change(tournament, change, p01)
    plan = SeatingPlan.objects.get(tournament=tournament)
    active = sorted(
        Entrant.objects.filter(tournament=tournament, status="active").values_list("pk", flat=True)
    )
    assert plan.first_round == 2 and plan.players == active and len(plan.rounds) == 4
    assert plan.least_possible <= plan.repeats
    for tables in plan.rounds:  # each planned round seats exactly the active players
        assert sorted(p for table in tables for p in table) == active
    play_round(tournament)
    assert positions(tournament)[0][: len(round_1)] == round_1  # the round played is never touched
    seated_2 = sorted(map(sorted, seated_tables(tournament)[1]))
    assert seated_2 == sorted(map(sorted, plan.rounds[0]))
    all_rounds = seated_tables(tournament)[:1] + [list(map(list, r)) for r in plan.rounds]
    assert plan.repeats == sum(n - 1 for n in meetings(all_rounds).values())


def _change(tournament: Tournament, change: str, player: Entrant) -> None:
    if change == "drop":
        services.drop_entrant(tournament, player.pk)
    elif change == "late_entry":
        services.add_entrant(tournament, "P17")
    elif change == "disqualify":
        services.give_penalty(
            tournament, player=player.pk, offence="cheating", step="event_dq", note="x", actor=user("dora")
        )
    else:
        services.reinstate_entrant(tournament, player.pk)


def test_a_swap_replans_the_rounds_after_it() -> None:
    tournament = event(16, rounds=5, holes=1)
    services.seat_next_round(tournament)
    tables = seated_tables(tournament)[0]
    services.swap_players(tournament, 1, tables[0][0], tables[1][0], reason="Friends asked")
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert plan.first_round == 2 and "swapped" in plan.reason
    assert plan.repeats >= plan.least_possible >= 0


def test_a_random_event_has_no_plan() -> None:
    tournament = event(12, rounds=3, seating="random")
    play_round(tournament)
    services.drop_entrant(tournament, Entrant.objects.filter(tournament=tournament).first().pk)
    assert not SeatingPlan.objects.filter(tournament=tournament).exists()


def test_the_director_sees_the_plans_repeats_beside_the_least_possible(client) -> None:
    tournament = event(16, rounds=6, holes=1)
    services.seat_next_round(tournament)
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert (plan.repeats, plan.least_possible) == (24, 24)  # 16 x 6: five rounds of the round robin, then 24
    client.force_login(user("dora"))
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert "this seating has 24 repeated meetings; the least possible is 24." in page
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "the least possible is 24" in dashboard
    answer = client.get(f"/api/v1/tournaments/{tournament.pk}/")
    assert answer.json()["seating_plan"] == {"repeats": 24, "least_possible": 24, "first_round": 1}
    # A drop re-makes the plan and moves the event's ETag: a client holding the old answer learns it.
    services.drop_entrant(tournament, Entrant.objects.filter(tournament=tournament).first().pk)
    again = client.get(f"/api/v1/tournaments/{tournament.pk}/", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 200 and again.json()["seating_plan"]["first_round"] == 2
    client.logout()
    services.publish_round(tournament, 1)
    public = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert "seating_plan" not in public


def test_an_event_of_40_players_plays_its_13_round_robin_rounds() -> None:
    tournament = event(40, rounds=13, holes=1)
    services.seat_next_round(tournament)
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert (plan.repeats, plan.least_possible, len(plan.rounds)) == (0, 0, 13)
    met = meetings(plan.rounds)
    assert len(met) == 40 * 39 // 2 and set(met.values()) == {1}
    assert TableSeat.objects.filter(round__tournament=tournament).count() == 40


def test_the_settings_and_officiating_pages_say_when_the_rounds_were_planned_again(client) -> None:
    tournament = event(16, rounds=6, holes=1)
    services.finalize_round(tournament, play_round(tournament).number)
    client.force_login(user("dora"))
    settings = client.get(f"/tournaments/{tournament.pk}/settings/")
    form = {
        name: value
        for name, value in settings.context["form"].initial.items()
        if value is not None and not isinstance(value, (list, dict))
    }
    form.update(rounds=5)
    answer = client.post(f"/tournaments/{tournament.pk}/settings/", form, follow=True)
    said = " ".join(str(m) for m in answer.context["messages"])
    assert "Settings saved." in said and "The rounds from round 2 on were planned again" in said
    assert SeatingPlan.objects.get(tournament=tournament).first_round + 3 == 5


def test_the_seating_page_of_round_1_says_it_was_drawn_into_the_plan(client) -> None:
    tournament = event(16, rounds=5, holes=1)
    services.seat_next_round(tournament)
    client.force_login(user("dora"))
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert "Drawn at random into the seating plan's places" in page
    assert "in this round, 0 repeat pairings" in page


@pytest.mark.parametrize(("players", "rounds"), [(13, 3), (18, 4)])
def test_an_event_with_tables_of_3_seats_the_commands_plan_and_rotates_them(
    players: int, rounds: int
) -> None:
    tournament = event(players, rounds=rounds, holes=1)
    for _ in range(rounds):
        play_and_finalize(tournament)
    seated = positions(tournament)
    printed = command_plan(players, rounds, tournament.seed)
    assert printed["rounds"] == seated
    assert printed["repeats"] == sum(n - 1 for n in meetings(seated).values())
    at_three = Counter(p for tables in seated for table in tables if len(table) == 3 for p in table)
    counts = [at_three[p] for p in range(1, players + 1)]
    assert max(counts) - min(counts) <= 1  # who sits at a table of 3 rotates
