"""A wrong or revoked API token is a 401 with `WWW-Authenticate: Token` on every endpoint that
knows the user, as docs/api.md says (issue 20, finding 8: the games answered 403, the tournaments
401, the docs 403); a CSRF refusal stays a 403."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.helpers import user

pytestmark = pytest.mark.django_db

ROUTES = [
    ("get", "/api/v1/games/"),
    ("post", "/api/v1/games/"),
    ("get", "/api/v1/players/"),
    ("get", "/api/v1/tournaments/"),
    ("post", "/api/v1/tournaments/"),
]


@pytest.mark.parametrize(("method", "url"), ROUTES)
@pytest.mark.parametrize("key", ["nope", "revoked"])
def test_it_answers_a_bad_token_with_401_and_the_scheme(method: str, url: str, key: str) -> None:
    if key == "revoked":
        token = Token.objects.create(user=user("dora"))
        key = token.key
        token.delete()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = getattr(client, method)(url, {}, format="json")
    assert response.status_code == 401, response.content
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["errors"] == [{"where": "request", "message": "Invalid token."}]


def test_it_still_refuses_a_session_write_without_csrf_with_403() -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user("dora"))
    response = client.post("/api/v1/tournaments/", {"name": "Open"}, format="json")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
