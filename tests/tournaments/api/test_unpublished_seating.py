"""Issue 20, finding 6: a round seated but not published is the staff's only, in the API (the round,
a player's record), on the seating page and its printout alike: 404 to everyone else, then public
once published. One rule decides it: `tournaments.access.sees_seating`."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user as page_client
from tournaments import services
from tournaments.models import Entrant, Tournament

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db

STRANGERS = [None, "sam"]
STAFF = ["dora", "cora", "olive"]


@pytest.fixture
def seated() -> Tournament:
    tournament = with_staff(event(8, rounds=2, holes=1))
    services.seat_next_round(tournament)
    return tournament


def _urls(tournament: Tournament) -> dict[str, str]:
    player = Entrant.objects.filter(tournament=tournament).order_by("pk").first()
    return {
        "api_round": f"/api/v1/tournaments/{tournament.pk}/rounds/1/",
        "page": f"/tournaments/{tournament.pk}/rounds/1/",
        "printout": f"/tournaments/{tournament.pk}/rounds/1/print/seating/",
        "api_player": f"/api/v1/tournaments/{tournament.pk}/players/{player.pk}/",
    }


@pytest.mark.parametrize("who", STRANGERS)
def test_it_hides_an_unpublished_rounds_seating_from_strangers(seated: Tournament, who: str | None) -> None:
    urls = _urls(seated)
    api = client_of(who).get(urls["api_round"])
    assert api.status_code == 404, api.content
    assert api.json()["errors"][0]["where"] == "round"
    assert "not public yet" in api.json()["errors"][0]["message"]
    assert page_client(who).get(urls["page"]).status_code == 404
    assert page_client(who).get(urls["printout"]).status_code == 404
    record = client_of(who).get(urls["api_player"])
    assert record.status_code == 200 and record.json()["rounds"] == []


@pytest.mark.parametrize("who", STAFF)
def test_it_shows_an_unpublished_rounds_seating_to_the_staff(seated: Tournament, who: str) -> None:
    urls = _urls(seated)
    api = client_of(who).get(urls["api_round"])
    assert api.status_code == 200 and sum(len(t["players"]) for t in api.json()["tables"]) == 8
    assert page_client(who).get(urls["page"]).status_code == 200
    assert page_client(who).get(urls["printout"]).status_code == 200
    assert [r["round"] for r in client_of(who).get(urls["api_player"]).json()["rounds"]] == [1]


@pytest.mark.parametrize("who", STRANGERS)
def test_it_shows_the_seating_to_everyone_once_published(seated: Tournament, who: str | None) -> None:
    services.publish_round(seated, 1)
    urls = _urls(seated)
    api = client_of(who).get(urls["api_round"])
    assert api.status_code == 200 and sum(len(t["players"]) for t in api.json()["tables"]) == 8
    assert all("game" not in t for t in api.json()["tables"])  # the links stay the staff's
    assert page_client(who).get(urls["page"]).status_code == 200
    assert page_client(who).get(urls["printout"]).status_code == 200
    assert [r["round"] for r in client_of(who).get(urls["api_player"]).json()["rounds"]] == [1]
