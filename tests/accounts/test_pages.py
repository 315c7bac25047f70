"""Account pages: log in and out, change the password, sign up (open or closed), rate limits."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.accounts.helpers import DANA_PASSWORD, FRAN_PASSWORD, text

pytestmark = pytest.mark.django_db

User = get_user_model()


def signup(client: Client, username: str = "fran", password: str = FRAN_PASSWORD, again: str | None = None):
    return client.post(
        "/accounts/signup/",
        {"username": username, "password1": password, "password2": password if again is None else again},
    )


# ---- Log in and out


def test_it_logs_dana_in_and_out_with_the_header_button(client: Client, dana) -> None:
    home = client.get("/")
    assert 'href="/accounts/login/"' in home.content.decode() and "Log out" not in text(home)

    response = client.post("/accounts/login/", {"username": "dana", "password": DANA_PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(dana.pk)

    home = client.get("/")
    page = home.content.decode()
    assert 'action="/accounts/logout/"' in page and 'method="post"' in page and "Log out" in text(home)
    assert 'href="/accounts/token/"' in page

    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_it_refuses_to_log_out_on_a_get(client: Client, dana) -> None:
    client.force_login(dana)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.session["_auth_user_id"] == str(dana.pk)


def test_it_says_a_wrong_password_is_wrong_and_keeps_dana_out(client: Client, dana) -> None:
    response = client.post("/accounts/login/", {"username": "dana", "password": "not-it"})
    assert response.status_code == 200
    assert "correct username and password" in text(response)
    assert "_auth_user_id" not in client.session


def test_it_logs_out_only_with_the_sites_csrf_token(dana) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(dana)
    response = client.post("/accounts/logout/")
    assert response.status_code == 403 and "Form expired" in text(response)
    assert client.session["_auth_user_id"] == str(dana.pk)


# ---- Password change


def test_it_sends_a_visitor_to_log_in_before_changing_a_password(client: Client) -> None:
    response = client.get("/accounts/password_change/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")


def test_it_changes_danas_password(client: Client, dana) -> None:
    client.force_login(dana)
    page = client.get("/accounts/password_change/")
    assert page.status_code == 200
    for field in ("old_password", "new_password1", "new_password2"):
        assert f'<label for="id_{field}">' in page.content.decode()

    new = "summer-open-director-2027"
    response = client.post(
        "/accounts/password_change/",
        {"old_password": DANA_PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/password_change/done/"
    assert "Password changed" in text(client.get(response["Location"]))
    assert client.session["_auth_user_id"] == str(dana.pk)  # still logged in here

    fresh = Client()
    assert fresh.post("/accounts/login/", {"username": "dana", "password": DANA_PASSWORD}).status_code == 200
    assert fresh.post("/accounts/login/", {"username": "dana", "password": new}).status_code == 302


def test_it_keeps_the_password_when_the_old_one_is_wrong_or_the_new_ones_differ(client: Client, dana) -> None:
    client.force_login(dana)
    wrong_old = client.post(
        "/accounts/password_change/",
        {"old_password": "nope", "new_password1": "a-new-long-one-1", "new_password2": "a-new-long-one-1"},
    )
    differ = client.post(
        "/accounts/password_change/",
        {
            "old_password": DANA_PASSWORD,
            "new_password1": "a-new-long-one-1",
            "new_password2": "a-new-long-one-2",
        },
    )
    assert "old password was entered incorrectly" in text(wrong_old)
    assert "The two password fields" in text(differ)
    dana.refresh_from_db()
    assert dana.check_password(DANA_PASSWORD)


# ---- Sign-up


def test_it_lets_fran_sign_up_while_sign_up_is_open(client: Client, settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    login_page = client.get("/accounts/login/")
    assert 'href="/accounts/signup/"' in login_page.content.decode()
    form = client.get("/accounts/signup/")
    assert form.status_code == 200
    for field in ("username", "password1", "password2"):
        assert f'<label for="id_{field}">' in form.content.decode()

    response = signup(client)
    assert response.status_code == 302 and response["Location"] == "/"
    fran = User.objects.get(username="fran")
    assert fran.check_password(FRAN_PASSWORD)
    assert client.session["_auth_user_id"] == str(fran.pk)
    assert "your account is ready" in text(client.get("/"))


def test_it_follows_a_safe_next_after_sign_up_and_ignores_a_foreign_one(settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    data = {"username": "fran", "password1": FRAN_PASSWORD, "password2": FRAN_PASSWORD}
    here = Client().post("/accounts/signup/?next=/games/", data)
    assert here["Location"] == "/games/"
    data["username"] = "gus"
    away = Client().post("/accounts/signup/", {**data, "next": "https://evil.example/"})
    assert away["Location"] == "/"


@pytest.mark.parametrize(
    ("username", "password", "again", "message"),
    [
        ("fran", FRAN_PASSWORD, "something-else-99", "The two password fields"),
        ("fran", "password", None, "too common"),
        ("fran", "12345678901", None, "entirely numeric"),
        ("fran", "short", None, "too short"),
        ("", FRAN_PASSWORD, None, "This field is required"),
        ("fran smith", FRAN_PASSWORD, None, "Enter a valid username"),
        ("f" * 10_000, FRAN_PASSWORD, None, "at most 150 characters"),
    ],
)
def test_it_refuses_a_bad_sign_up_with_a_message_and_creates_nobody(
    client: Client, settings, username: str, password: str, again: str | None, message: str
) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    response = signup(client, username, password, again)
    assert response.status_code == 400
    assert message in text(response)
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session


def test_it_refuses_a_username_taken_in_another_case(client: Client, settings, dana) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    response = signup(client, "DANA")
    assert response.status_code == 400 and "already exists" in text(response)
    assert User.objects.count() == 1


def test_it_sends_a_logged_in_user_home_from_sign_up(client: Client, settings, dana) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    client.force_login(dana)
    assert client.get("/accounts/signup/")["Location"] == "/"


def test_it_says_sign_up_is_closed_and_hides_its_link(client: Client, settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = False
    page = client.get("/accounts/signup/")
    assert page.status_code == 403 and "Sign-up is closed" in text(page)
    refused = signup(client)
    assert refused.status_code == 403 and not User.objects.exists()
    login_page = client.get("/accounts/login/")
    assert "/accounts/signup/" not in login_page.content.decode() and "Sign up" not in text(login_page)


def test_it_limits_sign_ups_per_client_address(settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    settings.RATELIMIT_SIGNUP = "2/m"
    answers = [signup(Client(REMOTE_ADDR="10.8.8.8"), f"player{i}").status_code for i in range(3)]
    assert answers == [302, 302, 429]
    assert User.objects.count() == 2
    limited = signup(Client(REMOTE_ADDR="10.8.8.8"), "player9")
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert "Slow down" in text(limited)
    # Another address is counted on its own.
    assert signup(Client(REMOTE_ADDR="10.7.7.7"), "player8").status_code == 302
