"""The access policy (scoring/access.py): built-in rules, what a game's manager adds
(scoring/game_managers.py), managed games' refusals."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.test import APIClient

from scoring.access import (
    Capability,
    Refusal,
    TokenKind,
    decide,
    managed_refusal_message,
)
from scoring.game_managers import GameManager, game_managers, register_game_manager, unregister_game_manager
from scoring.models import Game, Hole

from .access_helpers import MANAGED_LABEL, PROVIDER, WHO, build, staff  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

V, S, M, OFF = Capability.VIEW, Capability.SCORE, Capability.MANAGE, Capability.OFFICIATE


def text(response) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()))


def login(client, username: str):
    user = get_user_model().objects.create_user(username, password="pw-12345-long")
    client.force_login(user)
    return user


# -- built-in rules ------------------------------------------------------------------------------------


def test_the_links_grant_what_they_always_did_on_a_friends_game():
    game = build("played")
    edit, view = decide(game.edit_token), decide(game.view_token)
    assert edit is not None and view is not None
    assert edit.capabilities == {V, S, M} and edit.token_kind is TokenKind.EDIT and not edit.managed
    assert view.capabilities == {V} and view.token_kind is TokenKind.VIEW
    assert edit.granted_by == (("edit link", frozenset({V, S, M})),)
    assert view.refusal(S) is Refusal.READ_ONLY and edit.refusal(M) is None
    assert decide("n0-such-game-n0-such-game-n0-such") is None
    assert decide("") is None and decide("a\x00b") is None


def test_a_managed_games_edit_link_is_a_table_link_that_scores_but_does_not_manage():
    game = build("played", managed=True)
    grant = decide(game.edit_token)
    assert grant is not None and grant.managed
    assert grant.capabilities == {V, S}
    assert grant.refusal(M) is Refusal.MANAGED and grant.refusal(OFF) is Refusal.READ_ONLY
    assert decide(game.view_token).refusal(M) is Refusal.READ_ONLY  # the view link never managed


def test_the_grant_is_immutable():
    grant = decide(build("new").edit_token)
    with pytest.raises(AttributeError):
        grant.capabilities = frozenset(Capability)  # type: ignore[misc]


# -- what a game's manager adds ------------------------------------------------------------------------


@pytest.mark.usefixtures("staff")
def test_a_registered_manager_adds_capabilities_and_is_named_in_the_grant():
    game = build("played", managed=True)
    director = get_user_model().objects.create_user("dora")
    official = get_user_model().objects.create_user("olive")
    assert PROVIDER in game_managers()
    as_director = decide(game.view_token, director)
    assert as_director.capabilities == set(Capability)
    assert as_director.granted_by == (("view link", frozenset({V})), (PROVIDER, frozenset(Capability)))
    assert as_director.needs_user and as_director.refusal(M) is None
    as_official = decide(game.view_token, official)
    assert as_official.capabilities == {V, S, OFF} and as_official.refusal(M) is Refusal.READ_ONLY
    # Anonymous, and a friends' game: the manager adds nothing.
    assert decide(game.view_token, AnonymousUser()).capabilities == {V}
    assert decide(game.view_token).capabilities == {V}
    assert decide(build("played").view_token, director).capabilities == {V}


class _Spy(GameManager):
    """A manager adding `officiate` to its games, noting each question."""

    def __init__(self, calls: list) -> None:
        self.calls = calls

    def capabilities(self, game, user, token_kind):
        self.calls.append((game.pk, user.is_authenticated, token_kind))
        return ["officiate"]  # names work as well as Capability members


def _followed_by(label: str) -> Game:
    game = build("new")
    game.followed_by = label  # an ordinary game another app follows: its manager is asked too
    game.save(update_fields=["followed_by"])
    return game


def test_a_manager_is_called_with_the_game_the_user_and_the_kind_of_link():
    calls = []
    game = _followed_by("tests.spy")
    register_game_manager("tests.spy", _Spy(calls))
    try:
        grant = decide(game.edit_token)
        assert grant.capabilities == {V, S, M, OFF}
        assert calls == [(game.pk, False, TokenKind.EDIT)]
        assert decide(build("new").edit_token).capabilities == {V, S, M}  # not its game: not asked
        assert len(calls) == 1
    finally:
        unregister_game_manager("tests.spy")
    assert "tests.spy" not in game_managers()
    assert decide(game.edit_token).capabilities == {V, S, M}
    unregister_game_manager("tests.spy")  # twice: nothing happens


def test_a_manager_cannot_take_away_what_the_token_gives():
    game = _followed_by("tests.nothing")
    register_game_manager("tests.nothing", GameManager())  # adds nothing
    try:
        assert decide(game.edit_token).capabilities == {V, S, M}
    finally:
        unregister_game_manager("tests.nothing")


# -- managed games: the 409s and the page ---------------------------------------------------------------


@pytest.mark.usefixtures("staff")
def test_the_managed_refusal_names_what_manages_the_game_and_who_sets_it():
    game = build("played", managed=True)
    message = managed_refusal_message(game)
    assert message == (
        f"This game is a table of {MANAGED_LABEL}: its players, rules and deletion are set by {WHO}."
    )
    unnamed = Game(managed_by="elsewhere.thing", managed_label="")
    assert "a table of elsewhere.thing" in managed_refusal_message(unnamed)
    assert "whoever runs it" in managed_refusal_message(unnamed)


@pytest.mark.usefixtures("staff")
def test_the_settings_page_of_a_table_link_answers_409_with_the_message():
    game = build("played", managed=True)
    client = Client()
    for response in (
        client.get(f"/games/e/{game.edit_token}/settings/"),
        client.post(f"/games/e/{game.edit_token}/settings/", {"action": "title", "title": "Mine"}),
    ):
        assert response.status_code == 409
        page = text(response)
        assert f"This game is a table of {MANAGED_LABEL}" in page and WHO in page
        assert f'href="/games/e/{game.edit_token}/"' in response.content.decode()
    game.refresh_from_db()
    assert game.title == ""


@pytest.mark.usefixtures("staff")
def test_the_api_refuses_managing_a_table_with_409_in_the_error_shape():
    game = build("new", managed=True)
    api = APIClient()
    base = f"/api/v1/games/{game.edit_token}/"
    answers = [
        api.post(f"{base}players/", {"name": "Dee"}, format="json"),
        api.patch(f"{base}players/0/", {"name": "Annie"}, format="json"),
        api.delete(f"{base}players/2/", headers={"If-Match": "*"}),
        api.patch(base, {"title": "Mine", "ruleset": "basic"}, format="json"),
        api.delete(base),
    ]
    message = managed_refusal_message(game)
    for response in answers:
        assert response.status_code == 409
        assert response.json() == {"detail": message, "errors": [{"where": "request", "message": message}]}
    assert game.seats.count() == 3 and Game.objects.filter(pk=game.pk).exists()
    # The table still scores, corrects and undoes.
    hole = api.post(f"{base}holes/", {"entries": {"Ann": 1, "Bob": 2, "Cy": 3}}, format="json")
    assert hole.status_code == 201
    fixed = api.patch(f"{base}holes/1/", {"entries": {"Ann": 4}}, format="json", headers={"If-Match": "*"})
    assert fixed.status_code == 200
    assert Hole.objects.filter(game=game).count() == 1


@pytest.mark.usefixtures("staff")
def test_the_game_page_names_the_table_and_hides_names_and_rules_from_the_table_link():
    game = build("played", managed=True)
    page = Client().get(f"/games/e/{game.edit_token}/")
    assert page.status_code == 200
    assert f"Table of {MANAGED_LABEL}" in text(page)
    assert "players and rules are set by the organisers" in text(page)
    assert f"/games/e/{game.edit_token}/settings/" not in page.content.decode()
    watchers = Client().get(f"/games/v/{game.view_token}/")
    assert f"Table of {MANAGED_LABEL}" in text(watchers)
    director = Client()
    login(director, "dora")
    as_director = director.get(f"/games/e/{game.view_token}/")
    assert f"/games/e/{game.view_token}/settings/" in as_director.content.decode()
    friends = Client().get(f"/games/e/{build('played').edit_token}/")
    assert "Table of" not in text(friends) and "/settings/" in friends.content.decode()


# -- users through the view link ------------------------------------------------------------------------


@pytest.mark.usefixtures("staff")
def test_an_official_never_sees_the_edit_token():
    game = build("played", managed=True)
    api, client = APIClient(), Client()
    login(api, "olive")
    client.force_login(get_user_model().objects.get(username="olive"))
    body = api.get(f"/api/v1/games/{game.view_token}/").json()
    assert body["can_edit"] and "edit_token" not in body and "edit" not in body["links"]
    share = client.get(f"/games/e/{game.view_token}/share/")
    assert share.status_code == 200 and game.edit_token not in share.content.decode()
    board = client.get(f"/games/e/{game.view_token}/")
    assert board.status_code == 200 and game.edit_token not in board.content.decode()
    assert f"/games/e/{game.view_token}/holes/new/" in board.content.decode()


@pytest.mark.usefixtures("staff")
def test_a_write_resting_on_the_session_user_needs_the_csrf_token():
    game = build("played", managed=True)
    api = APIClient(enforce_csrf_checks=True)
    login(api, "olive")
    body = {"entries": {"Ann": 1, "Bob": 2, "Cy": 3}}
    refused = api.post(f"/api/v1/games/{game.view_token}/holes/", body, format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    # Reading needs no CSRF token, and neither does a write that the token alone allows.
    assert api.get(f"/api/v1/games/{game.view_token}/").status_code == 200
    assert api.post(f"/api/v1/games/{game.edit_token}/holes/", body, format="json").status_code == 201
    assert Hole.objects.filter(game=game).count() == 2
