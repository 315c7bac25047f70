"""The API token page and `manage.py create_api_token`: create, replace, revoke; the key shown once."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.accounts.helpers import text

pytestmark = pytest.mark.django_db


def create(client: Client, follow: bool = True):
    return client.post("/accounts/token/", {"action": "create"}, follow=follow)


def shown_key(response) -> str:
    """The key in the page's read-only field (the one place it is shown whole)."""
    page = response.content.decode()
    start = page.index("data-api-key")
    field = page[page.rindex("<input", 0, start) : page.index(">", start)]
    return field.split('value="', 1)[1].split('"', 1)[0]


def test_it_sends_a_visitor_to_log_in_first(client: Client) -> None:
    for response in (client.get("/accounts/token/"), create(client, follow=False)):
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert not Token.objects.exists()


def test_it_says_dana_has_no_token_yet(client: Client, dana) -> None:
    client.force_login(dana)
    page = client.get("/accounts/token/")
    assert page.status_code == 200 and "You have no API token." in text(page)
    assert "Create a token" in text(page) and "Revoke" not in text(page)


def test_it_shows_a_new_key_once_then_masked(client: Client, dana) -> None:
    client.force_login(dana)
    posted = create(client, follow=False)
    assert posted.status_code == 302 and posted["Location"] == "/accounts/token/"  # a reload never re-posts
    response = client.get("/accounts/token/")
    assert response.status_code == 200
    key = Token.objects.get(user=dana).key
    assert shown_key(response) == key
    assert "shown only this once" in text(response)
    assert '<label for="new-api-key">' in response.content.decode()
    assert "no-store" in response["Cache-Control"] or "no-cache" in response["Cache-Control"]

    assert key not in str(dict(client.session))  # not kept once shown
    again = client.get("/accounts/token/")
    assert key not in again.content.decode()
    assert f"{key[:4]}…" in text(again) and "You have a token" in text(again)
    assert "Replace the token" in text(again) and "Revoke" in text(again)


def test_it_replaces_the_token_and_the_old_key_stops_working(client: Client, dana) -> None:
    client.force_login(dana)
    first = shown_key(create(client))
    second = shown_key(create(client))
    assert first != second
    assert list(Token.objects.filter(user=dana).values_list("key", flat=True)) == [second]
    api = Client()
    assert api.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {first}").status_code in (401, 403)
    assert api.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {second}").status_code == 200


def test_it_revokes_the_token(client: Client, dana) -> None:
    client.force_login(dana)
    key = shown_key(create(client))
    response = client.post("/accounts/token/", {"action": "revoke"})
    assert response.status_code == 302 and response["Location"] == "/accounts/token/"
    assert not Token.objects.exists()
    assert "Your API token is revoked" in text(client.get("/accounts/token/"))
    assert Client().get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {key}").status_code in (401, 403)
    # Revoking when there is nothing to revoke changes nothing and is no error.
    assert client.post("/accounts/token/", {"action": "revoke"}).status_code == 302


@pytest.mark.parametrize("action", ["", "delete-everything", "x" * 10_000])
def test_it_refuses_an_unknown_action_with_a_message(client: Client, dana, action: str) -> None:
    client.force_login(dana)
    response = client.post("/accounts/token/", {"action": action})
    assert response.status_code == 400 and "Unknown action" in text(response)
    assert not Token.objects.exists()


def test_it_needs_the_csrf_token_to_create_a_token(dana) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(dana)
    assert create(client, follow=False).status_code == 403
    assert not Token.objects.exists()


def test_it_keeps_other_users_tokens_alone(client: Client, dana, django_user_model) -> None:
    other = django_user_model.objects.create_user("olive")
    kept = Token.objects.create(user=other)
    client.force_login(dana)
    create(client)
    client.post("/accounts/token/", {"action": "revoke"})
    assert list(Token.objects.values_list("key", flat=True)) == [kept.key]


# ---- manage.py create_api_token


def test_the_command_prints_a_new_key_replacing_the_old_one(dana) -> None:
    out = io.StringIO()
    call_command("create_api_token", "dana", stdout=out)
    first = out.getvalue().strip()
    assert Token.objects.get(user=dana).key == first and len(first) == 40
    out = io.StringIO()
    call_command("create_api_token", "dana", stdout=out)
    second = out.getvalue().strip()
    assert second != first and list(Token.objects.values_list("key", flat=True)) == [second]


def test_the_command_names_an_unknown_user(db) -> None:
    with pytest.raises(CommandError, match="No user is called 'nobody'"):
        call_command("create_api_token", "nobody")
    assert not Token.objects.exists()
