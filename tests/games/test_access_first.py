"""Issue 35 item 1: a game view's first line is its access call (`game_for_page`, `game_for_api`),
so a refused request is told it is refused, whatever else is wrong with it: its method (405) or its
Idempotency-Key (400). Real database; the refusals' pages and bodies are those the decorators gave."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Game

from .access_helpers import MANAGED_BY, MANAGED_LABEL, staff, table_policy  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

BAD_KEY = "x" * 256  # an unusable Idempotency-Key: 400 naming the header, once access is granted


@pytest.fixture
def game() -> Game:
    game = services.create_game(players=["Ann", "Bob"])
    services.hole_record(game, entries={"Ann": 5, "Bob": 12}, ender=None)
    return game


@pytest.mark.parametrize("path", ["undo/", "redo/", "end/", "resume/", "players/", "holes/"])
def test_a_view_link_writing_with_a_bad_key_is_told_it_may_only_watch(api: APIClient, game, path):
    answer = api.post(
        f"/api/v1/games/{game.view_token}/{path}", {}, format="json", HTTP_IDEMPOTENCY_KEY=BAD_KEY
    )
    assert answer.status_code == 403, answer.content
    assert "read-only link" in answer.json()["detail"]


@pytest.mark.parametrize("path", ["undo/", "end/", "players/", "holes/"])
def test_an_unknown_link_writing_with_a_bad_key_is_a_404(api: APIClient, path):
    answer = api.post(f"/api/v1/games/{'z' * 24}/{path}", {}, format="json", HTTP_IDEMPOTENCY_KEY=BAD_KEY)
    assert answer.status_code == 404, answer.content


def test_the_edit_link_with_a_bad_key_is_told_about_its_key(api: APIClient, game):
    answer = api.post(
        f"/api/v1/games/{game.edit_token}/undo/", {}, format="json", HTTP_IDEMPOTENCY_KEY=BAD_KEY
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"][0]["where"] == "Idempotency-Key"


@pytest.mark.usefixtures("staff", "table_policy")
def test_a_table_link_managing_with_a_bad_key_is_told_the_game_is_managed(api: APIClient):
    game = services.create_game(players=["Ann", "Bob"], managed_by=MANAGED_BY, managed_label=MANAGED_LABEL)
    answer = api.post(
        f"/api/v1/games/{game.edit_token}/players/",
        {"name": "Cy"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=BAD_KEY,
    )
    assert answer.status_code == 409, answer.content
    assert MANAGED_LABEL in answer.json()["detail"]


@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_a_view_link_on_a_scorers_page_gets_the_watch_only_page_whatever_the_method(
    client: Client, game, method
):
    answer = getattr(client, method)(f"/games/e/{game.view_token}/undo/")
    assert answer.status_code == 403
    assert "scoring/game_forbidden.html" in [t.name for t in answer.templates]


def test_the_edit_link_is_told_the_method_it_may_use(client: Client, game):
    answer = client.get(f"/games/e/{game.edit_token}/undo/")
    assert answer.status_code == 405
    assert answer["Allow"] == "POST"
    assert answer.content == b""


@pytest.mark.usefixtures("staff", "table_policy")
@pytest.mark.parametrize("method", ["get", "put"])
def test_a_table_link_on_the_settings_page_is_told_the_game_is_managed_whatever_the_method(
    client: Client, method
):
    game = services.create_game(players=["Ann", "Bob"], managed_by=MANAGED_BY, managed_label=MANAGED_LABEL)
    answer = getattr(client, method)(f"/games/e/{game.edit_token}/settings/")
    assert answer.status_code == 409
    assert "scoring/game_managed.html" in [t.name for t in answer.templates]
    assert MANAGED_LABEL in answer.content.decode()


def test_an_unknown_link_is_the_sites_404_page(client: Client):
    assert client.post(f"/games/e/{'z' * 24}/undo/").status_code == 404


def test_a_friends_games_hole_posted_by_its_edit_link_does_not_read_who_is_logged_in(django_user_model, game):
    """Nothing but the link grants anything on a game nobody manages, so the hole POST's decision does
    not read the session: its answer does not vary by cookie, logged in or not."""
    client = Client()
    client.force_login(django_user_model.objects.create_user("someone", password="x" * 12))
    for who in (client, Client()):
        answer = who.post(
            f"/api/v1/games/{game.edit_token}/holes/",
            {"entries": {"Ann": 3, "Bob": 4}},
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.content
        assert "cookie" not in answer.get("Vary", "").lower()
