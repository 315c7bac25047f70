"""Races on names and starts, with real concurrency on PostgreSQL (each thread its own connection).

The database decides every race: the unique name keys (per owner, per game) and the unique start
key. Every test checks the rows left in the database, not only the answers. Skipped on SQLite
(one writer at a time: nothing races there), with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Game, Player, Seat

from .test_concurrency_pg import at_once
from .test_concurrency_pg import pytestmark as concurrency_marks

pytestmark = concurrency_marks

ROUNDS = 3  # the outcome must never depend on who wins by how much


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, password="pw-12345-long")


def _post(client: Client, url: str, body: Any, **extra: Any) -> Callable[[], Any]:
    """A call posting `body` to `url` with `client`, for `at_once` (binds its arguments now)."""
    return lambda: client.post(url, body, **extra)


def _api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)  # in this thread, before the barrier: only the requests race
    return client


def test_it_creates_one_roster_player_for_six_simultaneous_posts_of_one_name():
    for round_ in range(ROUNDS):
        user = _user(f"host{round_}")
        clients = [_api_as(user) for _ in range(6)]

        answers = at_once(*(_post(c, "/api/v1/players/", {"name": "racer"}, format="json") for c in clients))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [201, 400, 400, 400, 400, 400], [a.content for a in answers]
        for answer in answers:
            if answer.status_code == 400:
                assert answer.json()["detail"] == "racer is already on your list."
        assert list(Player.objects.filter(owner=user).values_list("name", flat=True)) == ["racer"]


def test_it_keeps_one_of_two_names_differing_only_by_case_posted_at_once():
    for round_ in range(ROUNDS):
        user = _user(f"host{round_}")
        first, second = _api_as(user), _api_as(user)
        answers = at_once(
            _post(first, "/api/v1/players/", {"name": "CaseX"}, format="json"),
            _post(second, "/api/v1/players/", {"name": "casex"}, format="json"),
        )
        assert sorted(a.status_code for a in answers) == [201, 400], [a.content for a in answers]
        assert Player.objects.filter(owner=user).count() == 1
        kept = Player.objects.get(owner=user)
        assert kept.name_key == "casex" and kept.name in ("CaseX", "casex")


def test_it_starts_every_game_of_one_owner_sharing_a_new_roster_name_posted_at_once():
    for round_ in range(ROUNDS):
        user = _user(f"host{round_}")
        names = ["Zed", "ZED", "\uff5a\uff45\uff44", "zed"]  # one player: case and full width differ
        clients = [_api_as(user) for _ in names]

        answers = at_once(
            *(
                _post(client, "/api/v1/games/", {"players": [name, "Yan", f"other{round_}"]}, format="json")
                for client, name in zip(clients, names, strict=True)
            )
        )
        assert [a.status_code for a in answers] == [201] * len(names), [a.content for a in answers]
        roster = Player.objects.filter(owner=user)
        assert sorted(roster.values_list("name_key", flat=True)) == sorted(["zed", "yan", f"other{round_}"])
        seats = Seat.objects.filter(game__owner=user)
        assert seats.count() == 3 * len(names) and Game.objects.filter(owner=user).count() == len(names)
        assert set(seats.filter(seat=0).values_list("player", flat=True)) == {roster.get(name_key="zed").pk}
        assert set(seats.filter(seat=1).values_list("player", flat=True)) == {roster.get(name_key="yan").pk}


def test_it_starts_one_game_for_one_start_form_posted_twice_at_once():
    for round_ in range(ROUNDS):
        key = f"{round_:032x}"
        form = {"ruleset": "official", "player": ["Ann", "Bob"], "first_dealer": "1", "start_key": key}
        # Two requests of one browser at once: neither has saved its session when the other reads it.
        first, second = Client(), Client()
        if round_ == 1:  # and with a logged-in owner, whose roster gets new names at the same time
            user = _user("host")
            first.force_login(user)
            second.force_login(user)
        answers = at_once(_post(first, "/games/new/", form), _post(second, "/games/new/", form))
        game = Game.objects.get(start_key=key)
        assert [a.status_code for a in answers] == [302, 302], [a.content for a in answers]
        assert {a["Location"] for a in answers} == {f"/games/e/{game.edit_token}/"}
        assert Game.objects.count() == round_ + 1  # one per start key, never two
        assert list(game.seats.order_by("seat").values_list("name", flat=True)) == ["Ann", "Bob"]
        if round_ == 1:
            assert Player.objects.filter(owner=game.owner).count() == 2
        # Both browsers now remember it: sending the form again opens the same game.
        assert second.post("/games/new/", form)["Location"] == f"/games/e/{game.edit_token}/"


def test_it_answers_the_same_game_to_simultaneous_service_calls_with_one_start_key():
    def start() -> Game:
        return services.create_game(players=["Ann", "Bob"], start_key="f" * 32)

    games = at_once(*(start for _ in range(4)))
    assert all(isinstance(game, Game) for game in games), games
    assert {game.pk for game in games} == {Game.objects.get().pk}
    assert Seat.objects.count() == 2 and Player.objects.count() == 2  # the losers wrote nothing
