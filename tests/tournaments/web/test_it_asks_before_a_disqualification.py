"""A ruling whose penalty disqualifies asks once more, naming the player and the consequence, on a
second page (no JavaScript needed); a warning or points do not ask; a triple tap on the confirming
button records once (issue 19, item 6)."""

from __future__ import annotations

import re

import pytest

from tests.tournaments.web.conftest import Event, as_user
from tournaments import services
from tournaments.models import EntrantStatus, Penalty, Ruling

pytestmark = pytest.mark.django_db


def ruling_url(ev: Event) -> str:
    return f"/tournaments/{ev.tournament.pk}/officiating/ruling/"


def body(ev: Event, situation: str, **more) -> dict:
    seat = ev.table.seats.order_by("seat").select_related("entrant").first()
    return {
        "situation": situation,
        "player": seat.entrant_id,
        "round": 1,
        "table": ev.table.number,
        "hole": "",
        "note": "Seen by the official",
        "action": "record",
        **more,
    }


def hidden_fields(page: str) -> dict[str, str]:
    """The confirming form's hidden values, as the browser sends them back."""
    form = page.split('<section class="confirm-dq"', 1)[1]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    fields["action"] = "record"
    return fields


def test_cheating_asks_once_more_naming_the_player_and_the_consequence(live_event: Event) -> None:
    ev = live_event
    data = body(ev, "looked_at_face_down_card")
    name = ev.table.seats.order_by("seat").first().entrant.name
    asked = as_user("olive").post(ruling_url(ev), data)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert f"Disqualify {name}?" in page
    assert f"Disqualify {name} from the tournament: {name} is removed from the standings" in page
    assert "not seated in any later round" in page
    assert f"Yes, disqualify {name} from the tournament" in page and "No, go back to the ruling" in page
    assert not Penalty.objects.exists() and not Ruling.objects.exists()  # nothing yet

    confirm = hidden_fields(page)
    assert confirm["confirm_dq"].startswith("event_dq:") and confirm["note"] == "Seen by the official"
    client = as_user("olive")
    answers = [client.post(ruling_url(ev), confirm) for _ in range(3)]  # a triple tap
    assert [a.status_code for a in answers] == [302, 302, 302]
    penalty = Penalty.objects.get()
    assert penalty.step == "event_dq" and Ruling.objects.count() == 1
    assert penalty.entrant.status == EntrantStatus.DISQUALIFIED
    assert "That form was sent twice" in client.get(answers[-1]["Location"]).content.decode()


def test_a_round_disqualification_the_official_decides_asks_naming_the_round(live_event: Event) -> None:
    ev = live_event
    data = body(ev, "electronic_device", step="round_dq")
    name = ev.table.seats.order_by("seat").first().entrant.name
    page = as_user("dora").post(ruling_url(ev), data).content.decode()
    assert f"Disqualify {name} from round 1: {name}&#x27;s game of round 1 no longer counts" in page
    assert not Penalty.objects.exists()
    back = hidden_fields(page) | {"action": "advise"}
    assert as_user("dora").post(ruling_url(ev), back).status_code == 200  # go back: nothing written
    assert not Penalty.objects.exists()
    assert as_user("dora").post(ruling_url(ev), hidden_fields(page)).status_code == 302
    assert Penalty.objects.get().step == "round_dq"


@pytest.mark.parametrize(("earlier", "step"), [(0, "warning"), (1, "points")])
def test_a_warning_or_points_are_recorded_at_once_without_asking(
    live_event: Event, earlier: int, step: str
) -> None:
    ev = live_event
    data = body(ev, "swapped_two_grid_cards", fact_next_turn_begun="yes")
    for _ in range(earlier):
        services.give_penalty(ev.tournament, player=data["player"], offence="illegal_move", round_number=1)
    answer = as_user("olive").post(ruling_url(ev), data)
    assert answer.status_code == 302
    assert Penalty.objects.order_by("-pk").first().step == step


def test_a_confirmation_for_another_step_or_player_asks_again(live_event: Event) -> None:
    ev = live_event
    data = body(ev, "looked_at_face_down_card")
    forged = as_user("olive").post(ruling_url(ev), data | {"confirm_dq": f"round_dq:{data['player']}"})
    assert forged.status_code == 200 and "Yes, disqualify" in forged.content.decode()
    assert not Penalty.objects.exists()


def test_the_service_without_a_page_asking_records_a_disqualification_at_once(live_event: Event) -> None:
    ev = live_event
    seat = ev.table.seats.order_by("seat").first()
    penalty = services.give_penalty(ev.tournament, player=seat.entrant_id, offence="cheating", round_number=1)
    assert penalty.step == "event_dq"
