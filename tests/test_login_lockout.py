"""Login lockouts (django-axes): after too many wrong passwords even the right one is refused."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def admin_user_with_password():
    return get_user_model().objects.create_superuser("boss", "boss@example.com", PASSWORD)


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_it_refuses_even_the_right_password_after_30_wrong_ones(
    client: Client, admin_user_with_password, url: str, settings
) -> None:
    answers = {
        client.post(url, {"username": "boss", "password": f"wrong-{i}"}).status_code for i in range(30)
    }
    assert 429 in answers
    response = client.post(url, {"username": "boss", "password": PASSWORD})
    assert response.status_code == 429
    assert int(response["Retry-After"]) == int(settings.AXES_COOLOFF_TIME.total_seconds())
    assert "Logging in is paused" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_locks_out_at_the_configured_number_of_failures(
    client: Client, admin_user_with_password, settings
):
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(limit - 1):
        assert client.post("/accounts/login/", {"username": "boss", "password": f"x{i}"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "boss", "password": "x"}).status_code == 429


def test_it_lets_a_few_typos_through_and_then_the_right_password(client: Client, admin_user_with_password):
    for i in range(3):
        assert (
            client.post("/accounts/login/", {"username": "boss", "password": f"typo{i}"}).status_code == 200
        )
    response = client.post("/accounts/login/", {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"]


def test_it_locks_out_per_client_address(client: Client, admin_user_with_password, settings):
    for i in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "boss", "password": f"x{i}"}, REMOTE_ADDR="10.9.9.9")
    other = Client(REMOTE_ADDR="10.1.1.1")
    assert other.post("/accounts/login/", {"username": "boss", "password": PASSWORD}).status_code == 302
