"""Issue 31, item 7: the rulings log says what was decided. A ruling whose penalty the official
changed (cheating, which the ladder answers with a disqualification, given as penalty points) shows
the penalty actually given, in words, with the situation's title (never its catalogue id), on the
rulings log, the table's page, the player's page, the ledger and the API; the catalogue's answer
(which names the disqualification) is only shown folded, as what the official changed. A call for an
official shows on the director's dashboard through its own short poll, and the table's page, polled
while its call is open, tells the table the ruling once it is given."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.tournaments.web.conftest import Event, as_user
from tournaments import services
from tournaments.models import OfficialCall, Ruling
from tournaments.services.calls import answer_call, call_official

pytestmark = pytest.mark.django_db

TITLE = "A face-down card became visible"
CATALOGUE_WORDS = ("disqualification", "leaves the event", "disqualified")


def _outside_the_catalogue_answer(html: str) -> str:
    """The page without the folded "catalogue's answer" (what the official changed)."""
    return re.sub(r'<details class="catalogue-answer">.*?</details>', "", html, flags=re.S)


def _ruling_changed_to_points(live: Event) -> Ruling:
    """Olive answers the table's call: a card revealed on purpose (cheating: the ladder's
    disqualification), recorded with the step she decided, penalty points."""
    seat = live.table.seats.order_by("seat").select_related("entrant").first()
    call = call_official(live.table, called_by=seat.entrant.name, note="turned a card on purpose")
    body = {
        "situation": "card_revealed",
        "call": call.pk,
        "fact_intentional": "yes",
        "fact_can_be_hidden": "yes",
        "player": seat.entrant_id,
        "round": 1,
        "table": live.table.number,
        "hole": 2,
        "step": "points",
        "note": "",
        "action": "record",
    }
    response = as_user("olive").post(f"/tournaments/{live.tournament.pk}/officiating/ruling/", body)
    assert response.status_code == 302
    ruling = Ruling.objects.select_related("penalty__entrant").get()
    assert ruling.penalty.step == "points" and ruling.penalty.points == 5 and ruling.penalty.step_decided
    return ruling


def _assert_says_what_was_decided(page: str, name: str) -> None:
    html = unescape(page)
    assert TITLE in html
    assert f"Penalty points for {name}: +5 on their total." in html
    assert "The official chose this penalty instead of rule 6.3's ladder." in html
    assert "card_revealed" not in html
    shown = _outside_the_catalogue_answer(html).lower()
    assert not [w for w in CATALOGUE_WORDS if w in shown], "the catalogue's DQ is shown as the outcome"


def test_the_rulings_log_shows_the_penalty_the_official_gave_not_the_catalogues(live_event: Event) -> None:
    ruling = _ruling_changed_to_points(live_event)
    html = as_user("olive").get(f"/tournaments/{live_event.tournament.pk}/rulings/").content.decode()
    _assert_says_what_was_decided(html, ruling.entrant.name)
    # The catalogue's answer is kept, folded and labelled as what the official changed.
    assert "The catalogue's answer, which the official changed" in unescape(html)


def test_the_tables_page_tells_the_table_the_ruling_given(live_event: Event) -> None:
    ruling = _ruling_changed_to_points(live_event)
    html = as_user(None).get(f"/tournaments/table/{live_event.table.game.edit_token}/").content.decode()
    assert "The official's rulings at this table" in unescape(html)
    _assert_says_what_was_decided(html, ruling.entrant.name)
    # Another table's page says nothing of it.
    other = (
        as_user(None).get(f"/tournaments/table/{live_event.other_table.game.edit_token}/").content.decode()
    )
    assert TITLE not in other


def test_the_players_own_page_shows_the_penalty_given(live_event: Event) -> None:
    ruling = _ruling_changed_to_points(live_event)
    html = as_user(None).get(f"/tournaments/player/{ruling.entrant.token}/").content.decode()
    _assert_says_what_was_decided(html, ruling.entrant.name)


def test_the_ledger_names_the_situation_and_the_officials_choice(live_event: Event) -> None:
    _ruling_changed_to_points(live_event)
    html = as_user("olive").get(f"/tournaments/{live_event.tournament.pk}/officiating/").content.decode()
    ledger = html[html.index("Penalty ledger") :]
    assert TITLE in ledger and "chosen by the official" in ledger and "card_revealed" not in ledger


def test_the_api_says_what_was_decided_in_words(live_event: Event) -> None:
    ruling = _ruling_changed_to_points(live_event)
    t = live_event.tournament.pk
    [entry] = as_user("olive").get(f"/api/v1/tournaments/{t}/rulings/").json()["rulings"]
    assert entry["situation"] == "card_revealed"  # the contract's machine key (SPEC)
    assert entry["situation_title"] == TITLE
    assert entry["outcome"] == (
        f"Penalty points for {ruling.entrant.name}: +5 on their total. "
        "The official chose this penalty instead of rule 6.3's ladder."
    )
    assert entry["changed_by_official"] is True
    [penalty] = as_user("olive").get(f"/api/v1/tournaments/{t}/penalties/").json()["penalties"]
    assert penalty["outcome"] == entry["outcome"]


def test_a_ruling_the_official_did_not_change_reads_as_the_catalogue_answered(live_event: Event) -> None:
    seat = live_event.table.seats.order_by("seat").select_related("entrant").first()
    services.record_ruling(
        live_event.tournament, situation="card_revealed", facts={"intentional": False, "can_be_hidden": True},
        round_number=1, table=live_event.table.number,
    )  # fmt: skip
    html = as_user("olive").get(f"/tournaments/{live_event.tournament.pk}/rulings/").content.decode()
    assert TITLE in html and "Decided:" in html and "No penalty." in html
    assert "An accidental reveal carries no penalty." in _outside_the_catalogue_answer(html)
    assert seat.entrant.name not in html  # nobody was named


def test_a_rescinded_penalty_says_so_in_its_ruling(live_event: Event) -> None:
    ruling = _ruling_changed_to_points(live_event)
    services.rescind_penalty(live_event.tournament, ruling.penalty.pk, reason="appeal upheld")
    html = as_user("olive").get(f"/tournaments/{live_event.tournament.pk}/rulings/").content.decode()
    assert "Rescinded on appeal (appeal upheld): it counts for nothing." in html


def test_a_call_shows_on_the_dashboards_own_short_poll(live_event: Event) -> None:
    t = live_event.tournament
    dashboard = as_user("dora").get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="dashboard-calls"' in dashboard and f"/tournaments/{t.pk}/calls/live/" in dashboard
    assert 'id="call-alert"' not in dashboard and "js/call-alert.js" in dashboard
    assert "Turn on sound alerts" in dashboard  # shown by the script (hidden without JavaScript)
    call = call_official(live_event.table, called_by="", note="a card fell")
    partial = as_user("dora").get(f"/tournaments/{t.pk}/calls/live/").content.decode()
    assert "<html" not in partial and 'id="call-alert"' in partial
    assert "1 table is calling an official" in partial
    assert f"Round 1 · Table {live_event.table.number}" in partial and "a card fell" in partial
    assert f'data-call-ids="{call.pk} "' in partial and f"?call={call.pk}" in partial
    # Olive, the official, sees it too; answered, it is gone.
    assert 'id="call-alert"' in as_user("olive").get(f"/tournaments/{t.pk}/calls/live/").content.decode()
    answer_call(t, call.pk)
    assert 'id="call-alert"' not in as_user("dora").get(f"/tournaments/{t.pk}/calls/live/").content.decode()


def test_only_those_who_answer_calls_poll_them(live_event: Event) -> None:
    t = live_event.tournament
    call_official(live_event.table)
    assert as_user("cora").get(f"/tournaments/{t.pk}/calls/live/").status_code == 200  # a co-director
    assert as_user("sam").get(f"/tournaments/{t.pk}/calls/live/").status_code in (403, 404)
    assert as_user(None).get(f"/tournaments/{t.pk}/calls/live/").status_code in (302, 403, 404)


def test_the_tables_page_polls_while_its_call_is_open_and_then_shows_the_answer(live_event: Event) -> None:
    token = live_event.table.game.edit_token
    url = f"/tournaments/table/{token}/officials/"
    quiet = as_user(None).get(f"/tournaments/table/{token}/").content.decode()
    assert url not in quiet  # no call: nothing to wait for
    call = call_official(live_event.table)
    waiting = as_user(None).get(f"/tournaments/table/{token}/").content.decode()
    assert f'hx-get="{url}"' in waiting and "An official was called" in waiting
    answer_call(live_event.tournament, call.pk)
    answered = as_user(None).get(url).content.decode()
    assert "<html" not in answered and f'hx-get="{url}"' not in answered  # the polling stops
    assert "was settled by the official without a ruling" in answered
    assert OfficialCall.objects.get().answered_at is not None
