"""Who may call what: every tournament route for Dora (director), Cora (co-director), Olive
(official), Sam (a stranger with an account) and an anonymous visitor; private events are 404 to
outsiders; token authentication for scripts; CSRF on session writes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.committed import flush_committed
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Entrant, Round, Staff, Tournament

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db

PEOPLE = ("dora", "cora", "olive", "sam", None)


@pytest.fixture(scope="module")
def shared_spring(django_db_setup: None, django_db_blocker: Any) -> Iterator[int]:
    """`spring`'s event, built once for the module and committed (its primary key); each test's
    writes are rolled back by the `db` fixture, so every test finds it as built; flushed after the
    module (tests/committed.py)."""
    try:
        with django_db_blocker.unblock():
            tournament = with_staff(event(8, rounds=2, holes=1))
            services.seat_next_round(tournament)
        yield tournament.pk
    finally:
        flush_committed(django_db_blocker)


@pytest.fixture
def spring(shared_spring: int) -> Tournament:
    """A 8-player event with its staff, round 1 seated (not published), read fresh."""
    return Tournament.objects.get(pk=shared_spring)


def _pid(tournament: Tournament) -> int:
    return Entrant.objects.filter(tournament=tournament).order_by("pk").first().pk


READS = ["", "players/", "players/{pid}/", "rounds/", "rounds/1/", "standings/"]


@pytest.mark.parametrize("who", PEOPLE)
@pytest.mark.parametrize("path", READS)
def test_it_lets_everyone_read_a_public_tournament(spring: Tournament, who: str | None, path: str) -> None:
    services.publish_round(spring, 1)  # before, its seating is the staff's (test_unpublished_seating.py)
    url = f"/api/v1/tournaments/{spring.pk}/" + path.format(pid=_pid(spring))
    assert client_of(who).get(url).status_code == 200


@pytest.mark.parametrize("who", ["sam", None])
@pytest.mark.parametrize("path", [*READS, "staff/"])
def test_it_hides_a_private_tournament_from_outsiders_as_404(
    spring: Tournament, who: str | None, path: str
) -> None:
    Tournament.objects.filter(pk=spring.pk).update(public=False)
    url = f"/api/v1/tournaments/{spring.pk}/" + path.format(pid=_pid(spring))
    response = client_of(who).get(url)
    assert response.status_code == 404
    assert response.json()["errors"][0]["where"] == "tournament"


@pytest.mark.parametrize("who", ["dora", "cora", "olive"])
def test_it_shows_a_private_tournament_to_its_staff(spring: Tournament, who: str) -> None:
    Tournament.objects.filter(pk=spring.pk).update(public=False)
    assert client_of(who).get(f"/api/v1/tournaments/{spring.pk}/").status_code == 200
    listed = client_of(who).get("/api/v1/tournaments/").json()["results"]
    assert [t["id"] for t in listed] == [spring.pk]


def test_it_lists_only_the_tournaments_one_may_see(spring: Tournament) -> None:
    hidden = services.create_tournament(director=user("dora"), name="Closed", public=False, seed=1)
    assert {t["id"] for t in client_of("sam").get("/api/v1/tournaments/").json()["results"]} == {spring.pk}
    assert {t["id"] for t in client_of(None).get("/api/v1/tournaments/").json()["results"]} == {spring.pk}
    mine = client_of("dora").get("/api/v1/tournaments/").json()
    assert {t["id"] for t in mine["results"]} == {spring.pk, hidden.pk} and mine["count"] == 2


# (method, path, body, who may) for every write; the path is formatted with the player id.
RUN = {"dora", "cora"}
WRITES = [
    ("PATCH", "", {"venue": "Club house"}, RUN),
    ("POST", "players/", {"name": "Zed"}, RUN),
    ("POST", "players/{pid}/drop/", {}, RUN),
    ("POST", "players/{pid}/withdraw/", {}, RUN),
    ("POST", "players/{pid}/reinstate/", {}, RUN),
    ("POST", "players/{pid}/check-in/", {}, RUN),
    ("POST", "players/check-in/", {"everyone": True}, RUN),
    ("POST", "rounds/1/publish/", {}, RUN),
    ("POST", "rounds/1/swap/", {"players": [0, 0], "reason": "x"}, RUN),
    ("POST", "rounds/1/finalize/", {}, RUN),
    ("POST", "rounds/1/tables/1/clear-dispute/", {}, RUN),
    ("POST", "rounds/", {}, RUN),
    ("POST", "staff/", {"username": "sam", "role": "official"}, {"dora"}),
]


@pytest.mark.parametrize("who", PEOPLE)
@pytest.mark.parametrize(("method", "path", "body", "allowed"), WRITES)
def test_it_checks_every_write_against_the_roles(
    spring: Tournament, who: str | None, method: str, path: str, body: dict, allowed: set[str]
) -> None:
    url = f"/api/v1/tournaments/{spring.pk}/" + path.format(pid=_pid(spring))
    response = client_of(who).generic(method, url, _json(body), content_type="application/json")
    if who is None:
        assert response.status_code == 401, response.content
        assert response["WWW-Authenticate"] == "Token"
    elif who in allowed:
        # Allowed: the answer is the service's (200/201, or a state refusal), never a refusal by role.
        assert response.status_code not in (401, 403), response.content
        if response.status_code >= 400:
            assert response.json()["errors"][0]["where"] != "tournament", response.content
    else:
        assert response.status_code == 403, response.content
        assert response.json()["errors"][0]["where"] == "tournament"


def _json(body: dict) -> str:
    import json

    return json.dumps(body)


def test_it_refuses_writes_by_outsiders_without_writing(spring: Tournament) -> None:
    before = (Entrant.objects.count(), Round.objects.get(tournament=spring).status, Staff.objects.count())
    for who in ("olive", "sam", None):
        client = client_of(who)
        client.post(f"/api/v1/tournaments/{spring.pk}/players/", {"name": "Zed"}, format="json")
        client.post(f"/api/v1/tournaments/{spring.pk}/rounds/1/publish/", {}, format="json")
        client.post(
            f"/api/v1/tournaments/{spring.pk}/staff/", {"username": "sam", "role": "official"}, format="json"
        )
    assert before == (
        Entrant.objects.count(),
        Round.objects.get(tournament=spring).status,
        Staff.objects.count(),
    )


def test_it_lets_only_the_director_remove_staff(spring: Tournament) -> None:
    olive = Staff.objects.get(tournament=spring, user__username="olive")
    url = f"/api/v1/tournaments/{spring.pk}/staff/{olive.pk}/"
    assert client_of("cora").delete(url).status_code == 403
    assert client_of("dora").delete(url).status_code == 204
    assert not Staff.objects.filter(pk=olive.pk).exists()
    assert client_of("dora").delete(url).status_code == 404


def test_it_shows_game_links_to_the_staff_only(spring: Tournament) -> None:
    services.publish_round(spring, 1)
    url = f"/api/v1/tournaments/{spring.pk}/rounds/1/"
    for who in ("dora", "cora", "olive"):
        tables = client_of(who).get(url).json()["tables"]
        assert all(set(t["game"]) == {"edit_token", "view_token"} for t in tables)
    for who in ("sam", None):
        response = client_of(who).get(url)
        assert all("game" not in t and "dispute_note" not in t for t in response.json()["tables"])
        assert all(t["players"] for t in response.json()["tables"])
        text = response.content.decode()
        for table in spring.round_set.get().tables.select_related("game"):
            assert table.game.edit_token not in text


def test_it_accepts_a_token_for_scripts() -> None:
    key = Token.objects.create(user=user("dora")).key
    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = script.post(
        "/api/v1/tournaments/", {"name": "Scripted", "rounds": 1, "seed": 7}, format="json"
    )
    assert response.status_code == 201 and response.json()["director"] == "dora"
    tid = response.json()["id"]
    assert (
        script.post(f"/api/v1/tournaments/{tid}/players/", {"name": "Ann"}, format="json").status_code == 201
    )
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-key")
    assert bad.post("/api/v1/tournaments/", {"name": "X"}, format="json").status_code == 401
    assert Tournament.objects.filter(name="X").count() == 0


def test_it_enforces_csrf_on_session_writes_but_not_on_token_writes() -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(user("dora"))
    refused = browser.post("/api/v1/tournaments/", {"name": "Forged"}, format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert not Tournament.objects.filter(name="Forged").exists()
    browser.get("/accounts/login/")  # sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    accepted = browser.post("/api/v1/tournaments/", {"name": "Real"}, format="json", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201
    script = APIClient(enforce_csrf_checks=True)
    script.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user('dora')).key}")
    assert script.post("/api/v1/tournaments/", {"name": "By token"}, format="json").status_code == 201


def test_it_answers_404_for_unknown_ids_and_non_integer_ids(dora: APIClient, spring: Tournament) -> None:
    assert dora.get("/api/v1/tournaments/999999/").status_code == 404
    assert dora.get("/api/v1/tournaments/abc/").status_code == 404
    assert dora.get("/api/v1/tournaments/%D9%A3/").status_code == 404
    assert dora.get(f"/api/v1/tournaments/{'9' * 30}/").status_code == 404
    assert dora.get(f"/api/v1/tournaments/{spring.pk}/players/999999/").status_code == 404
    assert dora.get(f"/api/v1/tournaments/{spring.pk}/rounds/9/").status_code == 404
    assert dora.get(f"/api/v1/tournaments/{spring.pk}/rounds/99999/").status_code == 404
    other = event(3)
    foreign = Entrant.objects.filter(tournament=other).first().pk
    assert dora.get(f"/api/v1/tournaments/{spring.pk}/players/{foreign}/").status_code == 404


def test_it_shows_released_standings_to_the_public_and_live_ones_to_staff() -> None:
    tournament = with_staff(event(8, rounds=2, holes=1, standings_release="after_round"))
    play_round(tournament)
    services.finalize_round(tournament, 1)
    round2 = services.seat_next_round(tournament)
    services.publish_round(tournament, round2.number)
    from scoring import services as scoring_services

    for table in round2.tables.select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        scoring_services.hole_record(table.game, entries={n: 1 for n in names}, ender=None)
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    for who in ("sam", None):
        body = client_of(who).get(url).json()
        assert body["rounds"] == [1] and body["live"] is False
        assert all(len(line["rounds"]) == 1 for line in body["standings"])
    for who in ("dora", "olive"):
        body = client_of(who).get(url).json()
        assert body["rounds"] == [1, 2] and body["live"] is True
    Tournament.objects.filter(pk=tournament.pk).update(standings_release="live")
    assert client_of(None).get(url).json()["rounds"] == [1, 2]


@pytest.mark.parametrize(("who", "status"), [("cora", 403), ("olive", 403), ("dora", 200)])
def test_only_the_director_overrides_unconfirmed_tables_when_finalizing(who: str, status: int) -> None:
    """SPEC: `override` (director only). A co-director finalizes confirmed rounds, not an override."""
    tournament = with_staff(event(8, rounds=2, holes=2))
    play_round(tournament, confirm=False)
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/finalize/"
    answer = client_of(who).post(url, {"override": True, "reason": "phones died"}, format="json")
    assert answer.status_code == status
    assert tournament.round_set.get(number=1).status == ("finalized" if status == 200 else "published")
    if status != 200:  # a plain finalize is RUN, the co-director's too: 409 names the unconfirmed tables
        plain = client_of("cora").post(url, {}, format="json")
        assert plain.status_code == 409 and "not confirmed" in plain.content.decode()
