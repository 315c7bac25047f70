"""Issue 20, finding 3: a double tap on "Record this ruling" recorded two. Two copies of the same
form (the same one-time key) sent at the same moment, each in its own thread on its own
connection on PostgreSQL; the database is checked afterwards. Skipped on SQLite."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.models import IdempotentRequest
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.web.conftest import as_user, staffed_event
from tests.tournaments.web.test_it_writes_each_form_once import _ruling_body
from tournaments import services
from tournaments.models import EventLogEntry, Penalty, Ruling

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def test_it_records_one_ruling_for_a_double_tapped_ruling_form() -> None:
    ev = staffed_event()
    url = f"{ev.url}officiating/ruling/"
    # The form as the page rendered it once: its one-time key, sent by two taps (and a resend).
    form = {**_ruling_body(ev), "idempotency_key": "0123456789abcdef0123456789abcdef"}

    def tap() -> Callable[[], Any]:
        client = as_user("olive")  # logged in before the taps
        return lambda: client.post(url, form)

    results = at_once(tap(), tap(), tap())
    assert [getattr(r, "status_code", r) for r in results] == [302, 302, 302]
    assert {r["Location"] for r in results} == {f"{ev.url}officiating/"}
    assert Ruling.objects.filter(tournament=ev.tournament).count() == 1
    assert list(Penalty.objects.filter(tournament=ev.tournament).values_list("step", flat=True)) == [
        "warning"
    ]
    assert EventLogEntry.objects.filter(tournament=ev.tournament, action="penalty_given").count() == 1
    assert IdempotentRequest.objects.count() == 1


def test_it_rescinds_once_for_a_double_tapped_rescind_form() -> None:
    ev = staffed_event()
    penalty = services.give_penalty(
        ev.tournament, player=ev.tournament.entrants.first().pk, offence="time", seconds_over=30
    )
    url = f"{ev.url}penalties/{penalty.pk}/rescind/"
    form = {"reason": "appeal upheld", "idempotency_key": "fedcba9876543210fedcba9876543210"}

    def tap() -> Callable[[], Any]:
        client = as_user("dora")
        return lambda: client.post(url, form)

    results = at_once(tap(), tap())
    assert [getattr(r, "status_code", r) for r in results] == [302, 302]
    assert EventLogEntry.objects.filter(tournament=ev.tournament, action="penalty_rescinded").count() == 1
    penalty.refresh_from_db()
    assert penalty.rescinded_at is not None and penalty.rescind_reason == "appeal upheld"
