"""Query-count guards: the list endpoints and the standings read a fixed number of queries whatever
the size of the event (the same bound at two sizes)."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.models import Tournament

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db


def _played(players: int) -> Tournament:
    tournament = with_staff(event(players, rounds=2, holes=2))
    play_round(tournament)
    services.finalize_round(tournament, 1)
    play_round(tournament, confirm=False)
    return tournament


@pytest.mark.parametrize("players", [8, 40])
@pytest.mark.parametrize("who", ["dora", None])
def test_it_reads_the_standings_in_a_bounded_number_of_queries(
    players: int, who: str | None, django_assert_max_num_queries
) -> None:
    tournament = _played(players)
    client = client_of(who)
    # A first read computes the standings and stores them in the shared cache (on the database
    # cache: its own read, cull count and write); a second read at the same version finds them.
    with django_assert_max_num_queries(15):
        response = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert response.status_code == 200 and len(response.json()["standings"]) == players
    with django_assert_max_num_queries(8):
        again = client.get(f"/api/v1/tournaments/{tournament.pk}/standings/")
    assert again.json() == response.json()


@pytest.mark.parametrize("players", [8, 40])
def test_it_reads_players_rounds_and_a_round_in_bounded_queries(
    players: int, django_assert_max_num_queries
) -> None:
    tournament = _played(players)
    client = client_of("dora")
    base = f"/api/v1/tournaments/{tournament.pk}/"
    for path, bound in (("players/", 6), ("rounds/", 6), ("rounds/2/", 9)):
        with django_assert_max_num_queries(bound):
            assert client.get(base + path).status_code == 200


@pytest.mark.parametrize("events", [2, 12])
def test_it_lists_tournaments_in_bounded_queries(events: int, django_assert_max_num_queries) -> None:
    for _ in range(events):
        with_staff(event(4, rounds=1, holes=1))
    for who in ("dora", "olive", None):
        client = client_of(who)
        with django_assert_max_num_queries(7):
            response = client.get("/api/v1/tournaments/")
        assert response.status_code == 200 and response.json()["count"] == events


def _hole_reads(captured: list[dict]) -> list[str]:
    """The statements that read a game's holes or entries back (the writes' own are EXECUTEs of
    prepared statements, and the lock reads the seats only)."""
    return [
        q["sql"]
        for q in captured
        if q["sql"].lstrip().upper().startswith("SELECT")
        and ('"scoring_hole"' in q["sql"] or '"scoring_holeentry"' in q["sql"])
    ]


@pytest.mark.parametrize("who", ["table", "olive"])
def test_a_recorded_hole_is_answered_from_what_was_written(who: str) -> None:
    """Through the table's edit link (one query finds and locks the game) and through an official's
    view link (decided first): the answer's line is built under the lock, nothing read back."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Table

    tournament = with_staff(event(4, rounds=1, holes=3))
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").first()
    game = table.game
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    client = client_of(None if who == "table" else who)
    token = game.edit_token if who == "table" else game.view_token
    body = {"entries": {name: 3 + i for i, name in enumerate(names)}, "ender": None, "number": 1}
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(f"/api/v1/games/{token}/holes/", body, format="json", HTTP_IDEMPOTENCY_KEY="h1")
    assert answer.status_code == 201, answer.content
    assert answer.json()["number"] == 1 and [e["score"] for e in answer.json()["entries"]] == [3, 4, 5, 6]
    assert answer["ETag"] and answer["Location"].endswith(f"/api/v1/games/{token}/holes/1/")
    assert _hole_reads(captured.captured_queries) == []
