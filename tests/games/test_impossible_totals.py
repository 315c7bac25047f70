"""A typed hole total no grid of the ruleset can score is refused with the range, on the hole page,
the correction form, the API and a tournament's paper slip (issue 31 item 4: a typed 99 was saved
under the official rules, whose worst grid scores 60). Nothing is saved."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services
from scoring.models import Hole
from tests.tournaments.web.conftest import as_user, staffed_event

from .test_api import create, post_hole

RANGE = "a hole scores between -8 and 60 under these rules"
pytestmark = pytest.mark.django_db


def test_the_api_refuses_99_under_the_official_rules_naming_the_player(api) -> None:
    token = create(api)["edit_token"]
    answer = post_hole(api, token, {"ann": 99, "bob": 3})
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert [e["where"] for e in errors] == ["entries.ann"]
    assert RANGE in errors[0]["message"] and "99" in errors[0]["message"]
    assert not Hole.objects.exists()
    # The ends of the range are real scores.
    assert post_hole(api, token, {"ann": 60, "bob": -8}).status_code == 201


def test_the_hole_page_and_the_correction_form_refuse_it_with_the_range() -> None:
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    client = Client()
    page = client.post(f"/games/e/{game.edit_token}/holes/new/", {"p0-total": "99", "p1-total": "3"})
    assert page.status_code == 400
    assert RANGE in page.content.decode()
    assert not Hole.objects.exists()
    services.hole_record(game, entries={"ann": 5, "bob": 3}, ender=None, capabilities={"score"})
    edit = client.post(f"/games/e/{game.edit_token}/holes/1/", {"p0-total": "-9", "p1-total": "3"})
    assert edit.status_code == 400
    assert RANGE in edit.content.decode()
    assert Hole.objects.get().entries.get(seat__seat=0).score == 5


def test_a_paper_slip_with_an_impossible_total_is_refused_with_the_range() -> None:
    ev = staffed_event()
    names = [seat.name for seat in ev.table.game.seats.order_by("seat")]
    data = {f"h1-p{i}": str(score) for i, score in enumerate([99, 1, 2, 3])}
    answer = as_user("olive").post(f"/tournaments/{ev.tournament.pk}/tables/{ev.table.pk}/paper-slip/", data)
    assert answer.status_code == 400, answer.status_code
    assert RANGE in answer.content.decode() and names[0] in answer.content.decode()
    assert not Hole.objects.filter(game=ev.table.game).exists()
