"""A managed game's pages (a tournament's table) under its manager's hole policy: the table link
corrects a hole until the next one is recorded; later an official corrects it, with a reason kept
in the history. Real database; the policy and the test provider are registered for each test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import services
from scoring.models import ChangeAction, Game, GameChange, Hole
from tests.games.access_helpers import build, staff, table_policy  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(staff, table_policy) -> Game:  # noqa: F811
    """A managed game of Ann, Bob and Cy with holes 1 and 2 recorded."""
    game = build("played", managed=True)
    services.hole_record(game, entries={"Ann": 4, "Bob": 6, "Cy": 8}, ender=None)
    return game


def _correction(hole: Hole, **extra: str) -> dict[str, object]:
    return {
        "p0-total": "15",
        "p1-total": "12",
        "p2-total": "3",
        "version": hole.version,
        "hole_id": hole.pk,
        **extra,
    }


def test_the_table_link_corrects_the_latest_hole_but_not_an_earlier_one(client: Client, table: Game) -> None:
    latest = table.holes.get(number=2)
    answer = client.post(f"/games/e/{table.edit_token}/holes/2/", _correction(latest))
    assert answer.status_code == 302
    earlier = table.holes.get(number=1)
    refused = client.post(f"/games/e/{table.edit_token}/holes/1/", _correction(earlier))
    assert refused.status_code == 409
    assert "can no longer be changed at the table" in refused.content.decode()
    assert table.holes.get(number=1).entries.get(seat__name="Ann").score == 5
    assert "Reason for the change" in client.get(f"/games/e/{table.edit_token}/holes/1/").content.decode()


def test_an_official_corrects_an_earlier_hole_with_a_reason(client: Client, table: Game) -> None:
    client.force_login(get_user_model().objects.create_user("olive", password="pw-12345-long"))
    url = f"/games/e/{table.view_token}/holes/1/"  # the official reaches the table by its view link
    earlier = table.holes.get(number=1)
    without = client.post(url, _correction(earlier))
    assert without.status_code == 400
    assert "Say why hole 1 is being changed" in without.content.decode()
    done = client.post(url, _correction(Hole.objects.get(pk=earlier.pk), reason="Ann's pair was two kings"))
    assert done.status_code == 302
    change = GameChange.objects.get(game=table, action=ChangeAction.UPDATE)
    assert change.reason == "Ann's pair was two kings"
    assert Game.objects.get(pk=table.pk).seats.get(name="Ann").total == 19


def test_the_table_link_cannot_delete_an_earlier_hole(client: Client, table: Game) -> None:
    earlier = table.holes.get(number=1)
    answer = client.post(
        f"/games/e/{table.edit_token}/holes/1/delete/", {"hole_id": earlier.pk, "version": earlier.version}
    )
    assert answer.status_code == 409
    assert table.holes.count() == 2
