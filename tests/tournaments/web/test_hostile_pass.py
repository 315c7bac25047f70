"""Defects found by the hostile pass on issue 19's writes (docs/reliability.md), each kept as a test:

- a player's own page loaded while they were active, then the player dropped, then the staff's
  "Check in <name>" tapped on that stale page: the player must not be checked in (the page itself
  says a dropped player is brought back first, as the bulk check-in refuses);
- a round disqualification confirmed twice for the same player and round (two officials' phones,
  each with its own one-time key): one penalty, the second refused, so the ledger, the ladder's
  count and an appeal's rescind all see one disqualification.
"""

from __future__ import annotations

import pytest

from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.web.conftest import Event, as_user, staffed_event
from tournaments import services
from tournaments.errors import WrongState
from tournaments.models import EntrantStatus, EventLogEntry, Penalty, Ruling


def _first_player(ev: Event):
    return ev.table.seats.order_by("seat").select_related("entrant").first().entrant


@pytest.mark.django_db
def test_the_staffs_check_in_from_a_stale_player_page_refuses_a_player_dropped_since(
    live_event: Event,
) -> None:
    ev = live_event
    player = _first_player(ev)
    home = f"/tournaments/player/{player.token}/"
    olive = as_user("olive")
    assert "Check in " + player.name in olive.get(home).content.decode()  # the page, while active
    services.drop_entrant(ev.tournament, player.pk, reason="Went home", actor=None)  # the director, meanwhile

    tapped = olive.post(home + "check-in/")  # the stale page's button

    assert tapped.status_code == 302
    player.refresh_from_db()
    assert player.status == EntrantStatus.DROPPED and not player.checked_in
    page = olive.get(tapped["Location"]).content.decode()
    assert f"{player.name} is dropped: bring them back before checking them in." in page
    assert f"{player.name} is checked in." not in page


@pytest.mark.django_db
def test_the_service_refuses_a_second_round_disqualification_of_the_same_round(live_event: Event) -> None:
    ev = live_event
    player = _first_player(ev)
    services.give_penalty(
        ev.tournament, player=player.pk, offence="cheating", round_number=1, step="round_dq"
    )
    with pytest.raises(WrongState) as refused:
        services.give_penalty(
            ev.tournament, player=player.pk, offence="illegal_move", round_number=1, step="round_dq"
        )
    assert f"{player.name} is already disqualified from round 1" in refused.value.problems[0].message
    assert Penalty.objects.filter(entrant=player, step="round_dq").count() == 1
    # A rescinded disqualification no longer stands in the way (the appeal, then a new ruling).
    first = Penalty.objects.get(entrant=player, step="round_dq")
    services.rescind_penalty(ev.tournament, first.pk, reason="Appeal upheld")
    services.give_penalty(
        ev.tournament, player=player.pk, offence="cheating", round_number=1, step="round_dq"
    )
    assert Penalty.objects.filter(entrant=player, step="round_dq", rescinded_at__isnull=True).count() == 1


def _on_postgres(test):
    """The marks of the tests that need PostgreSQL's row locks (skipped on SQLite)."""
    for mark in NEEDS_POSTGRES_ROW_LOCKS:
        test = mark(test)
    return test


@pytest.mark.parametrize("_run", range(2))  # either official may win the lock
@_on_postgres
def test_two_officials_confirming_the_same_round_disqualification_at_once_record_it_once(_run: int) -> None:
    ev = staffed_event()
    player = _first_player(ev)
    url = f"/tournaments/{ev.tournament.pk}/officiating/ruling/"
    confirmed = {
        "situation": "electronic_device",
        "player": player.pk,
        "round": 1,
        "table": ev.table.number,
        "hole": "",
        "note": "Phone at the table",
        "step": "round_dq",
        "confirm_dq": f"round_dq:{player.pk}",
        "action": "record",
    }
    # Each official's own confirming page: its own one-time key.
    answers = at_once(
        *(
            lambda who=who, key=key: as_user(who).post(url, {**confirmed, "idempotency_key": key})
            for who, key in (("olive", "k-olive"), ("dora", "k-dora"), ("cora", "k-cora"))
        )
    )

    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert sorted(a.status_code for a in answers) == [302, 409, 409]
    assert Penalty.objects.filter(entrant=player, step="round_dq").count() == 1
    assert Ruling.objects.filter(tournament=ev.tournament).count() == 1
    assert EventLogEntry.objects.filter(tournament=ev.tournament, action="penalty_given").count() == 1
    refused = next(a for a in answers if a.status_code == 409).content.decode()
    assert f"{player.name} is already disqualified from round 1" in refused


@pytest.mark.django_db
def test_a_dropped_player_is_checked_in_by_no_way_in(live_event: Event) -> None:
    """The players list's row (a plain form or htmx) and the API's single check-in refuse as the
    player's page does, saying why; the row's refusal was a bare 404 before."""
    ev = live_event
    player = _first_player(ev)
    services.drop_entrant(ev.tournament, player.pk, reason="Went home", actor=None)
    dora = as_user("dora")
    row = dora.post(f"/tournaments/{ev.tournament.pk}/players/{player.pk}/check-in/", {"checked_in": "1"})
    api = dora.post(
        f"/api/v1/tournaments/{ev.tournament.pk}/players/{player.pk}/check-in/",
        {"checked_in": True},
        content_type="application/json",
    )
    assert api.status_code == 409, api.content
    assert "is dropped: bring them back before checking them in" in api.json()["errors"][0]["message"]
    assert row.status_code == 302
    page = dora.get(row["Location"]).content.decode()
    assert f"{player.name} is dropped: bring them back before checking them in." in page
    by_htmx = dora.post(
        f"/tournaments/{ev.tournament.pk}/players/{player.pk}/check-in/",
        {"checked_in": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert by_htmx["HX-Redirect"] == f"/tournaments/{ev.tournament.pk}/players/"
    player.refresh_from_db()
    assert player.status == EntrantStatus.DROPPED and not player.checked_in
    # Checking out stays allowed.
    out = dora.post(
        f"/api/v1/tournaments/{ev.tournament.pk}/players/{player.pk}/check-in/",
        {"checked_in": False},
        content_type="application/json",
    )
    assert out.status_code == 200
