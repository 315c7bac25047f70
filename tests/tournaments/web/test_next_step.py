"""The dashboard's next step over every state of an event (`tournaments.web.next_step`, pure: no
database), then on the page: the big button after publishing is not "Finalize"."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments import services
from tournaments.web.next_step import Step, TableFacts, next_step


def table(
    number: int, *, done: int = 0, total: int | None = 9, confirmed: bool = False, disputed: bool = False
):
    """A table of the round: `done` holes of `total` played (over when they are all in)."""
    finished = total is not None and done >= total
    return TableFacts(number, finished, confirmed and not disputed, disputed, done, total)


def step_of(
    status: str | None, tables: list[TableFacts] = (), *, seated: int = 1, planned: int = 3, players: int = 12
):
    return next_step(
        rounds_planned=planned,
        rounds_seated=seated,
        current_status=status,
        tables=tables,
        active_players=players,
    )


def test_a_new_event_without_players_asks_for_players_first() -> None:
    assert step_of(None, seated=0, players=2).step == Step.PLAYERS


def test_a_new_event_with_players_seats_round_one() -> None:
    step = step_of(None, seated=0, players=3)
    assert (step.step, step.round_number) == (Step.SEAT, 1)


def test_a_seated_round_is_reviewed_and_published() -> None:
    step = step_of("seated", [table(1), table(2)], seated=2)
    assert (step.step, step.round_number) == (Step.PUBLISH, 2)
    assert not step.can_finalize


def test_right_after_publishing_it_says_print_and_watch_not_finalize() -> None:
    step = step_of("published", [table(1), table(2), table(3)])
    assert step.step == Step.PRINT and not step.can_finalize
    assert step.blockers == ("3 tables still playing",)


def test_in_play_it_watches_the_tables_with_progress_and_says_why_not_finalize() -> None:
    tables = [
        table(1, done=9, confirmed=True),
        table(2, done=9, disputed=True),
        table(3, done=4),
        table(4, done=2),
    ]
    step = step_of("published", tables)
    assert step.step == Step.WATCH and not step.can_finalize
    assert (step.holes_done, step.holes_total, step.tables_finished, step.tables) == (24, 36, 2, 4)
    assert step.blockers == ("2 tables still playing", "table 2 disputed")


def test_finished_tables_waiting_for_a_confirmation_are_named() -> None:
    step = step_of("published", [table(1, done=9), table(2, done=9), table(3, done=9, confirmed=True)])
    assert step.step == Step.WATCH
    assert step.blockers == ("tables 1, 2 not confirmed yet",)


def test_a_disputed_table_still_playing_counts_as_playing() -> None:
    step = step_of("published", [table(1, done=3, disputed=True), table(2, done=9, confirmed=True)])
    assert step.blockers == ("1 table still playing",)


def test_games_played_to_a_target_score_show_holes_played_without_a_total() -> None:
    step = step_of("published", [table(1, done=5, total=None), table(2, done=3, total=None)])
    assert step.step == Step.WATCH and step.holes_total is None and step.holes_done == 8


def test_every_table_confirmed_offers_finalize() -> None:
    step = step_of(
        "published", [table(1, done=9, confirmed=True), table(2, done=9, confirmed=True)], seated=2
    )
    assert (step.step, step.round_number, step.blockers) == (Step.FINALIZE, 2, ())
    assert step.can_finalize


def test_a_finalized_round_with_rounds_left_seats_the_next() -> None:
    step = step_of("finalized", [table(1, done=9, confirmed=True)], seated=2)
    assert (step.step, step.round_number) == (Step.SEAT, 3)


def test_the_last_round_finalized_leads_to_the_results() -> None:
    step = step_of("finalized", [table(1, done=9, confirmed=True)], seated=3)
    assert (step.step, step.round_number) == (Step.RESULTS, 3)


# ---- On the dashboard


def play(table_, holes: int) -> list[str]:
    names = list(table_.game.seats.order_by("seat").values_list("name", flat=True))
    for _ in range(holes):
        scoring_services.hole_record(table_.game, entries=dict.fromkeys(names, 3), ender=None)
    return names


@pytest.mark.django_db
def test_the_dashboard_after_publishing_points_at_the_print_pack_not_at_finalize() -> None:
    ev = staffed_event()
    page = as_user("dora").get(ev.url).content.decode()
    assert 'data-step="print"' in page and "Print the table cards" in page
    pack = f'class="button primary" href="/tournaments/{ev.tournament.pk}/rounds/1/print/pack.pdf"'
    assert pack in page and "Print the round's pack (PDF)" in page
    assert "/rounds/1/finalize/" not in page  # neither Finalize nor the override before a hole
    assert "Finalize round 1" not in page


@pytest.mark.django_db
def test_the_dashboard_in_play_shows_finalize_disabled_with_the_reasons() -> None:
    ev = staffed_event()
    names = play(ev.table, 2)
    services.confirm_table(ev.table.game, names[1], disagree=True, note="Hole 2 is wrong")
    play(ev.other_table, 1)
    live = as_user("dora").get(f"{ev.url}live/").content.decode()  # the polled part brings it along
    assert 'id="next-step"' in live and 'hx-swap-oob="outerHTML"' in live
    assert "disabled" in live and "Finalize round 1</button>" in live
    assert "cannot be finalized yet: 1 table still playing; table 1 disputed." in live
    assert "3 of 4 holes played" in live


@pytest.mark.django_db
def test_the_dashboard_offers_finalize_once_every_table_is_confirmed() -> None:
    ev = staffed_event()
    for table_ in (ev.table, ev.other_table):
        names = play(table_, 2)
        services.confirm_table(table_.game, names[1])
    page = as_user("dora").get(ev.url).content.decode()
    assert 'data-step="finalize"' in page and "Override and finalize" not in page
    assert f'<form method="post" action="/tournaments/{ev.tournament.pk}/rounds/1/finalize/">' in page
