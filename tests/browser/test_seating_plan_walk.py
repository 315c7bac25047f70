"""A new director's walk through a `fewest_repeats` event on a phone (390x844, real Chromium; issue
34, item 3): an event of 22 players over 6 rounds made on the pages, round 1 seated, two players
swapped, one dropped, a late entry by CSV, the rounds cut in the settings to those seated, a swap
and a drop after that. At each step the figures shown are the kept plan's, they say what they
mean, and the players page says rounds were planned again only when some were."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.browser.helpers import log_in_as_director
from tournaments import services
from tournaments.models import Entrant, Round, SeatingPlan, Table, Tournament
from tournaments.planning import count_repeats
from tournaments.services.seating_plans import seated_tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REPLANNED = "were planned again"


def _play(tournament: Tournament, number: int) -> None:
    """Publish round `number`, play its one hole at every table, confirm and finalize it."""
    services.publish_round(tournament, number)
    for table in Table.objects.filter(round=Round.objects.get(tournament=tournament, number=number)):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        scoring_services.hole_record(
            table.game, entries={n: len(n) for n in names}, ender=None, capabilities={"view", "score"}
        )
        services.confirm_table(table.game, names[1])
    services.finalize_round(tournament, number)


def _figure_says_the_plan(page, tournament: Tournament) -> SeatingPlan:
    plan = SeatingPlan.objects.get(tournament=tournament)
    figure = page.locator(".seating-plan").first
    assert figure.is_visible()
    text = figure.inner_text()
    tournament.refresh_from_db()
    assert (
        f"Over the event's {tournament.rounds} rounds this seating has {plan.repeats} repeated meeting"
        in text
    )
    assert f"the least possible is {plan.least_possible}." in text and plan.reason in text
    assert "A repeated meeting is two players at the same table once more" in text
    return plan


def _swap(page, first: str, second: str) -> None:
    page.get_by_label("Player", exact=True).select_option(label=first)
    page.get_by_label("with player").select_option(label=second)
    page.get_by_label("Reason").fill("They came together")
    page.get_by_role("button", name="Swap", exact=True).click()
    page.get_by_text("Swapped.", exact=True).wait_for()


def _drop(page, tournament: Tournament, name: str) -> None:
    entrant = Entrant.objects.get(tournament=tournament, name=name)
    page.goto(f"/tournaments/{tournament.pk}/players/")
    page.locator(f"#player-{entrant.pk}").get_by_role("link", name="Drop").click()
    page.get_by_label(re.compile("Reason")).fill("Had to leave")
    page.get_by_role("button", name=re.compile("Drop")).click()
    page.get_by_text(f"{name} was dropped").wait_for()


def _names_at_two_tables(tournament: Tournament, number: int) -> tuple[str, str]:
    tables = seated_tables(tournament)[number - 1]
    a, b = Entrant.objects.get(pk=tables[0][0]), Entrant.objects.get(pk=tables[1][0])
    return a.name, b.name


def test_a_new_director_walks_an_event_and_the_figures_stay_true(phone) -> None:
    page = phone
    log_in_as_director(page)
    page.goto("/tournaments/new/")
    page.get_by_label("Name", exact=True).fill("Club Night")
    page.get_by_label("Rounds", exact=True).fill("6")
    page.get_by_role("button", name=re.compile("Create")).click()
    page.get_by_text("Club Night is created").wait_for()
    tournament = Tournament.objects.get(name="Club Night")
    tournament.ruleset = {**tournament.ruleset, "holes": 1}  # short games: the walk is about seating
    tournament.save(update_fields=["ruleset"])
    page.goto(f"/tournaments/{tournament.pk}/players/")
    page.get_by_label("Or paste the list").fill("name\n" + "\n".join(f"Player {i:02}" for i in range(1, 23)))
    page.get_by_role("button", name=re.compile("Import")).click()
    page.get_by_text("22 players imported.").wait_for()
    assert not page.get_by_text(REPLANNED).count()  # nothing is planned before round 1

    page.goto(f"/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_url(re.compile(r"/rounds/1/$"))
    assert "Made when round 1 was seated." in _figure_says_the_plan(page, tournament).reason
    _swap(page, *_names_at_two_tables(tournament, 1))
    assert "were swapped" in _figure_says_the_plan(page, tournament).reason

    _drop(page, tournament, "Player 05")
    assert page.get_by_text("The rounds from round 2 on were planned again").is_visible()
    page.get_by_label("Or paste the list").fill("name\nLate Lou\n")
    page.get_by_role("button", name=re.compile("Import")).click()
    page.get_by_text("1 player imported.").wait_for()
    assert page.get_by_text("The rounds from round 2 on were planned again").is_visible()
    plan = SeatingPlan.objects.get(tournament=tournament)
    active = Entrant.objects.filter(tournament=tournament, status="active").values_list("pk", flat=True)
    assert plan.players == sorted(active) and len(plan.players) == 22 and plan.first_round == 2

    _play(tournament, 1)
    page.goto(f"/tournaments/{tournament.pk}/")
    page.get_by_role("button", name="Seat round 2").click()
    page.wait_for_url(re.compile(r"/rounds/2/$"))
    page.goto(f"/tournaments/{tournament.pk}/settings/")
    page.get_by_label("Rounds", exact=True).fill("2")
    page.get_by_role("button", name=re.compile("Save")).click()
    page.get_by_text("Settings saved.").wait_for()
    page.goto(f"/tournaments/{tournament.pk}/")  # every round is seated: the figures of the seating
    plan = _figure_says_the_plan(page, tournament)
    assert plan.rounds == [] and plan.repeats == count_repeats(seated_tables(tournament))
    assert "Every round is seated" in plan.reason

    page.goto(f"/tournaments/{tournament.pk}/rounds/2/")
    _swap(page, *_names_at_two_tables(tournament, 2))
    plan = _figure_says_the_plan(page, tournament)
    assert plan.repeats == count_repeats(seated_tables(tournament))
    _drop(page, tournament, "Late Lou")
    assert not page.get_by_text(REPLANNED).count()  # no round is left to plan: the page says none
