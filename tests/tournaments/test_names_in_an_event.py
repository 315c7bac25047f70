"""Issue 20, finding 8: the players of one event differ by more than accents and capitals, as "find
my table" reads names (`golfclub.core.names.search_key`): adding one, a CSV line, the page and the
API alike; two requests racing with "Zoe" and "Zoé" create one player."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from golfclub.core.names import search_key
from tests.tournaments.api.conftest import client_of, csv_post
from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entrant
from tournaments.web.event_day import SeatLine, find_seats, folded


def test_it_reads_names_as_find_my_table_does() -> None:
    assert search_key("Zoé") == search_key("ZOE") == search_key("zoe") == search_key("\uff3a\uff4f\uff45")
    assert search_key("Zoe\u0301") == search_key("Zoé")
    assert search_key("Zoe") != search_key("Zoey")
    for text in ("José Núñez", "ÅSA", "straße"):
        assert folded(text) == search_key(text)
    lines = [SeatLine(1, "Zoé", 1, 1, 4, "t"), SeatLine(2, "Zoey", 2, 1, 4, "u")]
    assert [line.name for line in find_seats(lines, "zoe")] == ["Zoé", "Zoey"]


@pytest.mark.django_db
@pytest.mark.parametrize("second", ["Zoé", "ZOE", "\uff3a\uff4f\uff45", "zoe\u0301"])
def test_it_refuses_a_player_who_reads_as_one_already_there(second: str) -> None:
    tournament = event(2)
    services.add_entrant(tournament, "Zoe")
    with pytest.raises(TournamentError) as refused:
        services.add_entrant(tournament, second)
    problem = refused.value.problems[0]
    assert problem.where == "name" and "already in the tournament" in problem.message
    assert tournament.entrants.filter(name__startswith="Z").count() == 1


@pytest.mark.django_db
def test_it_says_which_player_a_name_reads_as_in_the_api() -> None:
    tournament = event(2)
    dora = client_of("dora")
    url = f"/api/v1/tournaments/{tournament.pk}/players/"
    assert dora.post(url, {"name": "Zoe"}, format="json").status_code == 201
    refused = dora.post(url, {"name": "Zoé"}, format="json")
    assert refused.status_code == 400
    error = refused.json()["errors"][0]
    assert error["where"] == "name" and "as Zoe" in error["message"]


@pytest.mark.django_db
def test_it_refuses_the_same_on_the_page() -> None:
    tournament = event(2)
    services.add_entrant(tournament, "Zoe")
    answer = as_user("dora").post(f"/tournaments/{tournament.pk}/players/add/", {"name": "Zoé"})
    assert answer.status_code == 400 and "already in the tournament as Zoe" in answer.content.decode()


@pytest.mark.django_db
def test_it_refuses_accented_twins_in_a_csv_and_against_the_event() -> None:
    tournament = event(2)
    services.add_entrant(tournament, "Zoe")
    response = csv_post(client_of("dora"), tournament.pk, "name\nJosé\njose\nZOÉ\nAnn\n")
    assert response.status_code == 400
    errors = {e["where"]: e["message"] for e in response.json()["errors"]}
    assert set(errors) == {"line 3", "line 4"}
    assert "line 2" in errors["line 3"] and "as Zoe" in errors["line 4"]
    assert tournament.entrants.count() == 3


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL: SQLite's in-memory test database refuses the second thread's write "
    "('database table is locked') instead of making it wait for the row lock",
)
@pytest.mark.django_db(transaction=True)
def test_it_creates_one_player_when_zoe_and_zoe_accented_race() -> None:
    tournament = event(2)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def add(name: str) -> None:
        try:
            barrier.wait(timeout=10)
            services.add_entrant(tournament, name)
            outcomes.append("added")
        except TournamentError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=add, args=(name,)) for name in ("Zoe", "Zoé")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["added", "refused"]
    assert Entrant.objects.filter(tournament=tournament, name__in=["Zoe", "Zoé"]).count() == 1
