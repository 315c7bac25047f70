"""No 500 on garbage sent to the account pages: NUL bytes, huge usernames, stray fields; nothing written."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.accounts.helpers import DANA_PASSWORD

pytestmark = pytest.mark.django_db

User = get_user_model()
HUGE = "u" * 10_000
GARBAGE = ["a\x00b", "\x00", HUGE, "\ud800", " ", "ᴰᴬᴺᴬ", "dana\n", "' OR 1=1 --"]


def url_quote(text: str) -> str:
    """Percent-encode as a browser would; a lone surrogate becomes its (invalid) UTF-8 bytes."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def state() -> tuple:
    return (
        list(User.objects.order_by("pk").values_list("pk", "username", "password")),
        list(Token.objects.values_list("key", flat=True)),
    )


@pytest.mark.parametrize("value", GARBAGE)
@pytest.mark.parametrize(
    ("url", "fields"),
    [
        ("/accounts/login/", ("username", "password", "next")),
        ("/accounts/signup/", ("username", "password1", "password2", "next")),
        ("/accounts/password_change/", ("old_password", "new_password1", "new_password2")),
        ("/accounts/token/", ("action",)),
        ("/accounts/logout/", ("next",)),
    ],
)
def test_it_never_answers_500_to_garbage_and_writes_nothing(
    settings, dana, url: str, fields: tuple[str, ...], value: str
) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    for logged_in in (False, True):
        client = Client(raise_request_exception=False)
        if logged_in:
            client.force_login(dana)
        before = state()
        # Encoded as a browser would: a lone surrogate travels as its (invalid) UTF-8 bytes.
        encoded = "&".join(f"{name}={url_quote(value)}" for name in fields)
        response = client.post(url, encoded, content_type="application/x-www-form-urlencoded")
        assert response.status_code < 500, (url, logged_in, response.content[:300])
        if url != "/accounts/logout/":
            assert state() == before
        assert client.get(f"{url}?{encoded}").status_code < 500


def test_it_refuses_a_nul_in_the_username_with_a_400_page(client: Client, settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    response = client.post(
        "/accounts/signup/", {"username": "fr\x00an", "password1": DANA_PASSWORD, "password2": DANA_PASSWORD}
    )
    assert response.status_code == 400 and not User.objects.exists()


def test_it_refuses_a_10000_character_username_on_login_and_lets_dana_in(client: Client, dana) -> None:
    response = client.post("/accounts/login/", {"username": HUGE, "password": "x"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert "at most 150 characters" in response.content.decode()
    assert client.post("/accounts/login/", {"username": "dana", "password": DANA_PASSWORD}).status_code == 302
