"""A staff member checks a player in from the player's own link (the QR on their card). The access
decision comes first: a refused POST is refused again when sent again (never "carried out once"), an
allowed one is carried out once per form key."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Entrant

from .conftest import as_user, staffed_event

pytestmark = pytest.mark.django_db

KEY = {"idempotency_key": "form-key-0123456789"}


@pytest.fixture
def entrant() -> Entrant:
    event = staffed_event(publish=False)
    player = event.tournament.entrants.order_by("pk").first()
    services.set_checked_in(event.tournament, player.pk, False, actor=None)
    return player


def _check_in_url(entrant: Entrant) -> str:
    return f"/tournaments/player/{entrant.token}/check-in/"


def test_a_director_checks_the_player_in_once_per_form_key(entrant: Entrant) -> None:
    director = as_user("dora")
    first = director.post(_check_in_url(entrant), KEY)
    assert first.status_code == 302 and first["Location"] == f"/tournaments/player/{entrant.token}/"
    entrant.refresh_from_db()
    assert entrant.checked_in
    again = director.post(_check_in_url(entrant), KEY, follow=True)
    assert "sent twice" in again.content.decode()


@pytest.mark.parametrize("who", [None, "sam"])
def test_a_refused_check_in_is_refused_again_when_sent_again(entrant: Entrant, who: str | None) -> None:
    client = as_user(who)
    answers = [client.post(_check_in_url(entrant), KEY) for _ in range(2)]
    for answer in answers:
        if who is None:  # to the login page, then back to the player's page
            assert answer.status_code == 302 and "/login/" in answer["Location"], answer
            assert f"/tournaments/player/{entrant.token}/" in answer["Location"]
        else:
            assert answer.status_code == 403
    entrant.refresh_from_db()
    assert not entrant.checked_in
