"""Token authentication on the API for scripts, and CSRF still guarding session-authenticated writes."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from golfclub.log_filters import TokenMaskingReporterFilter
from scoring import services
from scoring.models import Game

pytestmark = pytest.mark.django_db

NEW_GAME = {"players": ["Ann", "Bob", "Cy"], "ruleset": "official"}


@pytest.fixture
def danas_key(dana) -> str:
    return Token.objects.create(user=dana).key


def script(key: str) -> APIClient:
    """Dana's seating script: no cookies, CSRF enforced as for any client, the token in a header."""
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def assert_error_shape(response) -> None:
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["detail"] and body["errors"] and {"where", "message"} <= set(body["errors"][0])


def assert_refused_credentials(response) -> None:
    """A bad credential is 401 (not 403: nobody was authenticated), naming the scheme to use."""
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert_error_shape(response)


def test_a_script_with_danas_token_creates_a_game_she_owns(dana, danas_key) -> None:
    response = script(danas_key).post("/api/v1/games/", NEW_GAME, format="json")
    assert response.status_code == 201, response.content
    assert Game.objects.get().owner == dana
    listed = script(danas_key).get("/api/v1/games/")
    assert listed.status_code == 200
    assert [game["edit_token"] for game in listed.json()] == [response.json()["edit_token"]]


@pytest.mark.parametrize(
    "header",
    [
        "Token not-a-real-key",
        "Token " + "0" * 40,
        "Token",
        "Token two words",
        "Token \u00e9\u00e9",
    ],
)
def test_a_bad_token_is_refused_in_the_apis_error_shape_and_writes_nothing(db, header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.post("/api/v1/games/", NEW_GAME, format="json")
    assert_refused_credentials(response)
    assert not Game.objects.exists()


def test_a_bad_token_is_refused_on_the_roster_too(db) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token nope")
    response = client.get("/api/v1/players/")
    assert_refused_credentials(response)


def test_a_games_own_link_still_works_whatever_token_header_comes_with_it(db) -> None:
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token stale")
    assert client.get(f"/api/v1/games/{game.edit_token}/").status_code == 200


def test_it_still_demands_csrf_on_a_session_authenticated_api_write(dana) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(dana)
    refused = browser.post("/api/v1/games/", NEW_GAME, format="json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert_error_shape(refused)
    assert not Game.objects.exists()

    browser.get("/accounts/token/")  # any page sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    allowed = browser.post("/api/v1/games/", NEW_GAME, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert allowed.status_code == 201 and Game.objects.get().owner == dana


def test_an_anonymous_game_stays_anonymous_without_a_token(db) -> None:
    response = APIClient(enforce_csrf_checks=True).post("/api/v1/games/", NEW_GAME, format="json")
    assert response.status_code == 201 and Game.objects.get().owner is None


def test_it_keeps_the_key_out_of_error_reports(danas_key) -> None:
    request = RequestFactory().post("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {danas_key}")
    meta = TokenMaskingReporterFilter().get_safe_request_meta(request)
    assert danas_key not in str(meta)
