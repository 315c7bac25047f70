"""Review of the seating plan (issue 34): the figures the director sees are never those of a plan
that no longer applies (rounds cut to those seated, a swap in the last round, a drop after the last
round, a field below 3), the players page never says rounds were planned again when none were,
and `manage.py seating_plan` answers every bad input with a `CommandError`."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, SeatingPlan, Tournament
from tournaments.planning import count_repeats
from tournaments.services.seating_plans import plan_summary, replanned_message, seated_tables

pytestmark = pytest.mark.django_db


def _finalized(tournament: Tournament, rounds: int) -> None:
    for _n in range(rounds):
        services.finalize_round(tournament, play_round(tournament).number)


def _pair_at_two_tables(tournament: Tournament, number: int) -> tuple[int, int]:
    tables = seated_tables(tournament)[number - 1]
    return tables[0][0], tables[1][0]


def test_cutting_the_rounds_to_those_seated_leaves_the_figures_of_the_seating_as_it_stands() -> None:
    tournament = event(16, rounds=6, holes=1)
    _finalized(tournament, 3)
    assert SeatingPlan.objects.get(tournament=tournament).repeats == 24  # over 6 rounds
    services.update_tournament(tournament, rounds=3)
    tournament.refresh_from_db()
    plan = SeatingPlan.objects.get(tournament=tournament)
    seated = count_repeats(seated_tables(tournament))
    assert (plan.first_round, plan.rounds, plan.repeats, plan.least_possible) == (4, [], seated, seated)
    assert replanned_message(tournament) is None
    services.update_tournament(tournament, rounds=5)  # and longer again: planned from round 4
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert plan.first_round == 4 and len(plan.rounds) == 2


def test_a_swap_in_the_last_round_counts_the_seating_again() -> None:
    tournament = event(12, rounds=2, holes=1)
    _finalized(tournament, 1)
    services.seat_next_round(tournament)
    a, b = _pair_at_two_tables(tournament, 2)
    services.swap_players(tournament, 2, a, b, reason="friends")
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert plan.repeats == count_repeats(seated_tables(tournament)) and plan.rounds == []
    assert "Every round is seated" in plan.reason


def test_a_drop_after_the_last_round_is_seated_does_not_say_rounds_were_planned_again() -> None:
    tournament = event(12, rounds=2, holes=1)
    _finalized(tournament, 1)
    services.seat_next_round(tournament)
    services.drop_entrant(tournament, Entrant.objects.filter(tournament=tournament).first().pk)
    tournament.refresh_from_db()
    assert replanned_message(tournament) is None
    summary = plan_summary(tournament)
    assert summary is not None and summary.repeats == count_repeats(seated_tables(tournament))


def test_a_retried_drop_does_not_claim_a_new_plan_for_a_round_since_seated() -> None:
    tournament = event(12, rounds=4, holes=1)
    _finalized(tournament, 1)
    first = Entrant.objects.filter(tournament=tournament).first()
    services.drop_entrant(tournament, first.pk)
    assert replanned_message(tournament) is not None  # rounds 2.. planned again
    services.seat_next_round(tournament)  # round 2 seated from that plan
    assert replanned_message(tournament) is None  # a retried drop now re-plans nothing


def test_a_field_below_three_keeps_no_figures_of_players_gone() -> None:
    tournament = event(4, rounds=3, holes=1)
    _finalized(tournament, 1)
    for entrant in Entrant.objects.filter(tournament=tournament)[:2]:
        services.drop_entrant(tournament, entrant.pk)
    assert not SeatingPlan.objects.filter(tournament=tournament).exists()
    services.reinstate_entrant(tournament, Entrant.objects.filter(tournament=tournament).first().pk)
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert plan.first_round == 2 and len(plan.players) == 3


def test_the_players_page_says_a_csv_import_after_round_1_planned_the_rounds_again(client) -> None:
    tournament = event(12, rounds=4, holes=1)
    _finalized(tournament, 1)
    client.force_login(user("dora"))
    answer = client.post(
        f"/tournaments/{tournament.pk}/players/import/",
        {"text": "name\nLate One\nLate Two\n"},
        follow=True,
    )
    assert "The rounds from round 2 on were planned again" in answer.content.decode()
    assert len(SeatingPlan.objects.get(tournament=tournament).players) == 14


def _command(*args: str) -> str:
    out = StringIO()
    call_command("seating_plan", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--players", "0", "--rounds", "5"], "--players must be from 3 to 2000"),
        (["--players", "2", "--rounds", "5"], "--players must be from 3 to 2000"),
        (["--players", "100000", "--rounds", "5"], "--players must be from 3 to 2000"),
        (["--players", "16", "--rounds", "0"], "--rounds must be from 1 to 400"),
        (["--players", "16", "--rounds", "-3"], "--rounds must be from 1 to 400"),
        (["--players", "16", "--rounds", "5", "--seed", "-1"], "--seed must be from 0 to"),
        (["--players", "16", "--rounds", "5", "--seed", "9" * 30], "--seed must be from 0 to"),
        (["--players", "16", "--rounds", "5", "--seed", "9" * 5000], "--seed"),
        (["--players", "sixteen", "--rounds", "5"], "--players"),
        (["--players", "16", "--rounds", "5.0"], "--rounds"),
        (["--players", "16", "--rounds", "5", "--seed", "1e3"], "--seed"),
        (["--players", "1_6", "--rounds", "5"], "--players"),
        (["--players", "\uff11\uff16", "--rounds", "5"], "--players"),
        (["--players", "", "--rounds", "5"], "--players"),
        (["--rounds", "5"], "--players"),
    ],
)
def test_the_command_refuses_bad_input_with_a_clear_message(args: list[str], said: str) -> None:
    with pytest.raises(CommandError) as refused:
        _command(*args)
    message = str(refused.value)
    assert said in message and len(message) < 300  # a sentence, not the whole number echoed back


def test_the_command_takes_the_largest_seed_and_plain_digits() -> None:
    body = json.loads(_command("--players", "13", "--rounds", "3", "--seed", str(2**53), "--json"))
    assert body["players"] == 13 and len(body["rounds"]) == 3
    assert sorted(p for table in body["rounds"][0] for p in table) == list(range(1, 14))
