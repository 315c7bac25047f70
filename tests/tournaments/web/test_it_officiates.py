"""The officials' pages: a table calls an official from its link, the desk lists the call, the
official answers it with a ruling from the catalogue (the facts asked, the answer shown with its
sections and the ladder's step, then recorded), the standings follow; drafted time penalties from
the round clock; extensions; rescinding; the rulings log; who may see and do what."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from scoring import services as scoring_services
from tests.tournaments.web.conftest import Event, as_user, staffed_event
from tournaments import services
from tournaments.clock import hole_clock, round_clock, table_clock, time_drafts
from tournaments.models import EventLogEntry, OfficialCall, Penalty, Round, Ruling, Table
from tournaments.officiating.ladder import time_points

pytestmark = pytest.mark.django_db


def _call(live: Event, **data) -> OfficialCall:
    url = f"/tournaments/table/{live.table.game.edit_token}/call/"
    response = as_user(None).post(url, {"called_by": "", "note": "", **data})
    assert response.status_code == 302
    return OfficialCall.objects.get(table=live.table, answered_at__isnull=True)


def test_a_table_calls_an_official_once_however_often_it_taps(live_event: Event) -> None:
    name = live_event.table.seats.order_by("seat").first().entrant.name
    first = _call(live_event, called_by=name, note="he looked at a card")
    again = _call(live_event)
    assert first.pk == again.pk and OfficialCall.objects.count() == 1
    page = as_user(None).get(f"/tournaments/table/{live_event.table.game.edit_token}/").content.decode()
    assert "An official was called" in page and "Call an official now" not in page


def test_the_desk_shows_the_call_and_the_official_answers_it_with_a_ruling(live_event: Event) -> None:
    t = live_event.tournament
    seat = live_event.table.seats.order_by("seat").select_related("entrant").first()
    call = _call(live_event, called_by=seat.entrant.name, note="swapped two cards")
    desk = as_user("olive").get(f"/tournaments/{t.pk}/officiating/").content.decode()
    assert f"Table {live_event.table.number}" in desk and "swapped two cards" in desk
    assert f"?call={call.pk}" in desk
    # The desk's partial, polled by htmx, lists it too.
    partial = as_user("olive").get(f"/tournaments/{t.pk}/officiating/calls/").content.decode()
    assert "swapped two cards" in partial and "<html" not in partial
    url = f"/tournaments/{t.pk}/officiating/ruling/"
    form = (
        as_user("olive").get(url, {"situation": "swapped_two_grid_cards", "call": call.pk}).content.decode()
    )
    assert "Had the next player&#x27;s turn begun" in form and seat.entrant.name in form
    body = {
        "situation": "swapped_two_grid_cards",
        "call": call.pk,
        "fact_next_turn_begun": "yes",
        "player": seat.entrant_id,
        "round": 1,
        "table": live_event.table.number,
        "hole": 1,
        "note": "",
    }
    services.give_penalty(t, player=seat.entrant_id, offence="illegal_move", round_number=1)  # a first one
    shown = as_user("olive").post(url, body | {"action": "advise"}).content.decode()
    assert "the move stands" in shown and 'href="/rules/official/#8.4"' in shown
    assert "Penalty points (5 points)" in shown
    assert Ruling.objects.count() == 0  # advice writes nothing
    recorded = as_user("olive").post(url, body | {"action": "record"})
    assert recorded.status_code == 302 and recorded["Location"] == f"/tournaments/{t.pk}/officiating/"
    ruling = Ruling.objects.get()
    assert ruling.penalty.points == 5 and ruling.official.username == "olive" and ruling.hole_number == 1
    call.refresh_from_db()
    assert call.answered_at is not None and call.ruling == ruling
    standings = as_user(None).get(f"/api/v1/tournaments/{t.pk}/standings/").json()["standings"]
    assert next(s for s in standings if s["player"]["id"] == seat.entrant_id)["penalty_points"] == 5


def test_a_ruling_form_names_missing_facts_and_bad_values(live_event: Event) -> None:
    url = f"/tournaments/{live_event.tournament.pk}/officiating/ruling/"
    answer = as_user("olive").post(
        url, {"situation": "card_revealed", "fact_intentional": "yes", "action": "advise"}
    )
    assert answer.status_code == 400 and "This field is required" in answer.content.decode()
    answer = as_user("olive").post(
        url, {"situation": "over_time_limit", "fact_seconds_over": "٣٠", "action": "advise"}
    )
    assert answer.status_code == 400
    offence = {"situation": "electronic_device", "action": "record"}
    answer = as_user("olive").post(url, offence)
    assert answer.status_code == 400 and "name the player" in answer.content.decode()
    assert as_user("olive").get(url, {"situation": "no_such"}).status_code == 400
    assert Ruling.objects.count() == Penalty.objects.count() == 0


def test_only_officials_and_directors_use_the_desk(live_event: Event) -> None:
    t = live_event.tournament
    for who, status in (("dora", 200), ("cora", 200), ("olive", 200), ("sam", 403)):
        assert as_user(who).get(f"/tournaments/{t.pk}/officiating/").status_code == status
        assert as_user(who).get(f"/tournaments/{t.pk}/officiating/ruling/").status_code == status
    assert as_user(None).get(f"/tournaments/{t.pk}/officiating/").status_code == 302  # to log in
    body = {"situation": "stock_exhausted", "action": "record"}
    assert as_user("sam").post(f"/tournaments/{t.pk}/officiating/ruling/", body).status_code == 403
    assert Ruling.objects.count() == 0


def test_the_rulings_log_is_private_unless_the_director_made_it_public(live_event: Event) -> None:
    t = live_event.tournament
    services.record_ruling(t, situation="stock_exhausted", facts={}, round_number=1)
    url = f"/tournaments/{t.pk}/rulings/"
    assert as_user("olive").get(url).status_code == 200
    assert as_user("sam").get(url).status_code == 403
    services.update_tournament(t, rulings_public=True)
    page = as_user("sam").get(url).content.decode()
    assert "Set the top discard aside" in page and 'href="/rules/official/#4.1"' in page


def test_directors_rescind_from_the_desk_and_the_standings_follow(live_event: Event) -> None:
    t = live_event.tournament
    seat = live_event.table.seats.first()
    penalty = services.give_penalty(t, player=seat.entrant_id, offence="time", seconds_over=90)
    url = f"/tournaments/{t.pk}/penalties/{penalty.pk}/rescind/"
    assert as_user("olive").post(url, {"reason": "x"}).status_code == 403
    assert as_user("dora").post(url, {"reason": ""}).status_code == 302
    assert Penalty.objects.get(pk=penalty.pk).rescinded_at is None  # a reason is needed
    assert as_user("dora").post(url, {"reason": "appeal upheld"}).status_code == 302
    penalty.refresh_from_db()
    assert penalty.rescinded_at is not None and penalty.rescind_reason == "appeal upheld"


def test_the_round_clock_runs_from_publishing_and_a_table_may_get_more_time() -> None:
    live = staffed_event(time_limit_minutes=30)
    t, round_ = live.tournament, Round.objects.get(pk=live.round.pk)
    soon = round_.published_at + datetime.timedelta(minutes=10)
    assert round_clock(t, round_, now=soon).seconds_left == 20 * 60
    assert as_user("dora").get(f"/tournaments/{t.pk}/").content.decode().count("data-seconds-left") == 1
    url = f"/tournaments/{t.pk}/tables/{live.table.pk}/extend/"
    assert as_user("olive").post(url, {"minutes": "5", "reason": "cards spilled"}).status_code == 403
    assert as_user("dora").post(url, {"minutes": "5", "reason": ""}).status_code == 302
    assert as_user("dora").post(url, {"minutes": "5", "reason": "cards spilled"}).status_code == 302
    table = Table.objects.get(pk=live.table.pk)
    assert table.extra_minutes == 5
    assert table_clock(t, round_, table, now=soon).seconds_left == 25 * 60
    assert EventLogEntry.objects.filter(action="table_extended", reason="cards spilled").count() == 1
    page = as_user(None).get(f"/tournaments/table/{table.game.edit_token}/").content.decode()
    assert "data-seconds-left" in page and "5 extra minutes" in page


def test_a_table_finishing_late_drafts_a_time_penalty_for_an_official_to_confirm() -> None:
    live = staffed_event(time_limit_minutes=30)
    t = live.tournament
    # The round was published 33 minutes ago: the table finishing now is 3 minutes over.
    Round.objects.filter(pk=live.round.pk).update(
        published_at=timezone.now() - datetime.timedelta(minutes=33)
    )
    names = list(live.table.game.seats.order_by("seat").values_list("name", flat=True))
    for _hole in range(2):
        scoring_services.hole_record(
            live.table.game, entries={n: 5 for n in names}, ender=None, capabilities={"view", "score"}
        )
    round_ = Round.objects.get(pk=live.round.pk)
    drafts = time_drafts(t, round_)
    assert [d.table.pk for d in drafts] == [live.table.pk] and 180 <= drafts[0].seconds_over < 200
    desk = as_user("olive").get(f"/tournaments/{t.pk}/officiating/").content.decode()
    assert "Confirm the time penalty" in desk
    url = f"/tournaments/{t.pk}/officiating/drafts/{live.table.pk}/"
    assert as_user("olive").post(url).status_code == 302
    assert as_user("olive").post(url).status_code == 302  # a second tap gives nothing twice
    given = Penalty.objects.filter(offence="time")
    # 2 points for each started minute over: 3 minutes and a little are 3 or 4 started minutes.
    assert given.count() == len(names) and {p.points for p in given} == {time_points(drafts[0].seconds_over)}
    assert (
        "Confirm the time penalty"
        not in as_user("olive").get(f"/tournaments/{t.pk}/officiating/").content.decode()
    )


def test_a_per_hole_limit_counts_each_hole_from_the_tables_last_one() -> None:
    live = staffed_event(time_limit_minutes=60, hole_time_limit_minutes=7)
    t, round_ = live.tournament, Round.objects.get(pk=live.round.pk)
    start = round_.published_at
    assert hole_clock(t, round_, live.table, now=start + datetime.timedelta(minutes=2)).seconds_left == 5 * 60
    names = list(live.table.game.seats.order_by("seat").values_list("name", flat=True))
    hole = scoring_services.hole_record(
        live.table.game, entries={n: 5 for n in names}, ender=None, capabilities={"view", "score"}
    )
    later = hole.created_at + datetime.timedelta(minutes=9)
    assert hole_clock(t, round_, live.table, now=later).seconds_over == 2 * 60
    page = as_user(None).get(f"/tournaments/table/{live.table.game.edit_token}/").content.decode()
    assert "This hole:" in page and page.count("data-seconds-left") == 2  # the round's and the hole's
    # The setting through the API: bounded, named when wrong.
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_login(t.director)
    bad = api.patch(f"/api/v1/tournaments/{t.pk}/", {"hole_time_limit_minutes": 999}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["where"] == "hole_time_limit_minutes"
    good = api.patch(f"/api/v1/tournaments/{t.pk}/", {"hole_time_limit_minutes": 5}, format="json")
    assert good.status_code == 200 and good.json()["hole_time_limit_minutes"] == 5
