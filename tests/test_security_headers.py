"""The security headers and the Content-Security-Policy on real responses of a production server.

gunicorn serves the app in a subprocess under production settings: DEBUG off, only SECRET_KEY and
ALLOWED_HOSTS set (bench/served_settings.py changes nothing but where static files are
found), on the test database. Requests come as from behind the TLS proxy (X-Forwarded-Proto:
https), as nginx sends them; a plain-HTTP request is sent to HTTPS.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.tournaments.helpers import PASSWORD, event, user

ROOT = Path(__file__).resolve().parent.parent
HTTPS = {"X-Forwarded-Proto": "https"}
PAGES = ["/", "/rules/", "/tournaments/", "/accounts/login/", "/games/new/"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="module")
def production(django_db_setup, django_db_blocker) -> Iterator[httpx.Client]:
    """A gunicorn of the app under production settings, and a client of it."""
    if settings.DATABASES["default"]["ENGINE"] != "tests.postgresql_backend":
        pytest.skip("the production server shares the test database: PostgreSQL only (as in CI)")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env |= {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": _database_url(),
        "DJANGO_SETTINGS_MODULE": "bench.served_settings",
    }
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "golfclub.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                client.get("/", headers=HTTPS)
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start: {server.stderr.read()}") from None
                time.sleep(0.2)
        yield client
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=10)


def _csp(response: httpx.Response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.mark.parametrize("path", PAGES)
def test_it_sends_every_security_header_on_a_page(production, path) -> None:
    response = production.get(path, headers=HTTPS)
    assert response.status_code == 200, (path, response.status_code)
    headers = response.headers
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    csp = _csp(response)
    assert csp["default-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"]
    # Scripts and styles come from the site's own files only: no inline code, no eval, and no nonce
    # (Django sends one only to a page that uses it: the API docs page alone).
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
    for tag in re.findall(r"<script\b[^>]*>", response.text):
        assert re.search(r'\bsrc="/static/', tag), tag
    assert "<style" not in response.text and " style=" not in response.text


def test_the_api_docs_page_gets_a_fresh_nonce_for_each_response(production) -> None:
    nonces = set()
    for _ in range(3):
        response = production.get("/api/docs/", headers=HTTPS)
        assert response.status_code == 200
        csp = _csp(response)
        nonce = next(value for value in csp["script-src"] if value.startswith("'nonce-"))
        assert f'nonce="{nonce[len("'nonce-") : -1]}"' in response.text
        assert "'unsafe-inline'" not in csp["script-src"] and csp["frame-ancestors"] == ["'none'"]
        nonces.add(nonce)
    assert len(nonces) == 3


def test_it_sends_plain_http_to_https(production) -> None:
    response = production.get("/tournaments/?page=2")
    assert response.status_code == 301
    assert (
        response.headers["Location"] == f"https://{response.request.url.netloc.decode()}/tournaments/?page=2"
    )


@pytest.mark.django_db(transaction=True)
def test_its_cookies_are_secure_and_the_session_cookie_hidden_from_scripts(production) -> None:
    # The production server knows production's password hashers only (the tests' is a faster one).
    dora = user("dora")
    hasher = PBKDF2PasswordHasher()
    dora.password = hasher.encode(PASSWORD, hasher.salt())
    dora.save(update_fields=["password"])
    response = production.get("/accounts/login/", headers=HTTPS)
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("csrftoken=") and "Secure" in cookie and "SameSite=Lax" in cookie
    token = response.cookies["csrftoken"]
    form_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.text).group(1)
    # The cookie is Secure, so the client's jar keeps it from this plain-HTTP connection to the
    # proxy's side: it is sent by hand, as the browser sends it over HTTPS.
    answer = production.post(
        "/accounts/login/",
        headers=HTTPS
        | {
            "Referer": f"https://{response.request.url.netloc.decode()}/accounts/login/",
            "Cookie": f"csrftoken={token}",
        },
        data={"csrfmiddlewaretoken": form_token, "username": "dora", "password": PASSWORD},
    )
    assert answer.status_code == 302, answer.text[:500]
    session = next(c for c in answer.headers.get_list("Set-Cookie") if c.startswith("sessionid="))
    assert "Secure" in session and "HttpOnly" in session and "SameSite=Lax" in session


def test_the_api_answers_json_with_the_same_headers(production) -> None:
    response = production.get("/api/v1/rulesets/", headers=HTTPS)
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    missing = production.get("/api/v1/no-such-thing/", headers=HTTPS)
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/json"


def test_an_unknown_page_is_a_plain_404_without_a_traceback(production) -> None:
    response = production.get("/no-such-page/", headers=HTTPS)
    assert response.status_code == 404
    assert "Traceback" not in response.text and "DEBUG" not in response.text
    assert "Content-Security-Policy" in response.headers


@pytest.mark.django_db(transaction=True)
def test_a_tournament_page_and_its_projector_carry_the_policy(production) -> None:
    tournament = event(8, rounds=2, holes=2)
    for path in (f"/tournaments/{tournament.pk}/public/", f"/tournaments/{tournament.pk}/projector/"):
        response = production.get(path, headers=HTTPS)
        assert response.status_code == 200, path
        assert _csp(response)["frame-ancestors"] == ["'none'"], path
        assert response.headers["X-Frame-Options"] == "DENY", path
