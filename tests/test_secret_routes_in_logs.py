"""Every secret link stays out of every log (issue 31 item 5: the development server's log printed
/tournaments/table/<token>/ in full while game tokens were masked).

The masking is derived from the URLconf: every route with a secret path converter is masked. One
test enumerates those routes and checks each; two run real requests through the development server
(runserver, the `django.server` and `django.request` logs) and gunicorn (its access and error logs)
and look for the secrets in everything they wrote.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connection

from bench.cluster import BEHIND_TLS, ROOT, _stop, _wait_until_up, free_port
from golfclub.core.converters import TokenConverter
from golfclub.log_filters import mask_tokens, secret_routes


def _sample_path(route: str) -> tuple[str, str]:
    """A concrete path for a route, with a fresh secret in its secret segment, and that secret."""
    from django.urls.converters import get_converters

    secret = "Zq" + secrets.token_hex(10)
    samples = {"number": "3", "id": "7", "slug": "x", "str": "x", "path": "a/b", "int": "3", "uuid": "0" * 32}

    def fill(match: re.Match[str]) -> str:
        kind = match.group(1) or "str"
        return secret if getattr(get_converters()[kind], "secret", False) else samples.get(kind, "x")

    return "/" + re.sub(r"<(?:([A-Za-z_]\w*):)?[A-Za-z_]\w*>", fill, route), secret


def test_every_route_with_a_secret_converter_is_masked() -> None:
    routes = secret_routes()
    names = {route for route, _ in routes}
    # The routes of the issue are among those found, with no list kept anywhere.
    assert "tournaments/table/<token:token>/" in names
    assert "tournaments/player/<token:token>/" in names
    assert any(route.startswith("api/v1/games/<token:token>/") for route in names)
    for route, _ in routes:
        path, secret = _sample_path(route)
        for line in (
            f'"GET {path} HTTP/1.1" 200 512',
            f"Not Found: {path}",
            f"https://golf.example.com{path}?x=1",
            f"/fr{path}",
        ):
            masked = mask_tokens(line)
            assert secret not in masked, (route, masked)
            assert "<token>" in masked


def test_a_new_route_with_a_secret_converter_would_be_masked_too() -> None:
    """The converter's `secret` flag, not a list of prefixes, decides: the token converter has it."""
    assert TokenConverter.secret is True
    assert mask_tokens("/tournaments/table/abcDEF12/call/") == "/tournaments/table/<token>/call/"


def test_secrets_in_query_strings_and_authorization_headers_are_masked() -> None:
    assert mask_tokens("/x/?token=abc123&page=2") == "/x/?token=<token>&page=2"
    assert mask_tokens("GET /y/?api_key=k3y HTTP/1.1") == "GET /y/?api_key=<token> HTTP/1.1"
    assert mask_tokens("Authorization: Token 0123456789abcdef") == "Authorization: Token <token>"
    # Ordinary links keep their text.
    assert mask_tokens("/games/new/ /games/ /api/v1/games/ /tournaments/7/") == (
        "/games/new/ /games/ /api/v1/games/ /tournaments/7/"
    )


def _env(database_name: str) -> dict[str, str]:
    db = settings.DATABASES["default"]
    server = f"{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "golfclub.settings",
        "DEBUG": "true",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": f"postgres://{server}/{database_name}",
        "LOG_LEVEL": "INFO",
    }


def _secret_requests(base: str) -> list[str]:
    """Send a request to every secret route (GET, and a POST where a form would go), the secret
    also in a Referer and an Authorization header; return the secrets sent."""
    sent = []
    with httpx.Client(base_url=base, headers=BEHIND_TLS, timeout=30) as client:
        for route, _ in secret_routes():
            path, secret = _sample_path(route)
            sent.append(secret)
            client.get(path, headers={"Referer": f"{base}{path}"})
        for kind in ("table", "player"):
            path, secret = _sample_path(f"tournaments/{kind}/<token:token>/")
            sent.append(secret)
            client.post(path, data={"by": "Ann"})
        api_key = "K" + secrets.token_hex(12)
        sent.append(api_key)
        client.get("/api/v1/tournaments/", headers={"Authorization": f"Token {api_key}"})
    return sent


def _server(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    if connection.vendor != "postgresql":
        # The server runs in a process of its own on the test database: SQLite's is in memory.
        pytest.skip("the server shares the test database: PostgreSQL only (as in CI)")
    return subprocess.Popen(
        command, cwd=ROOT, env=env, start_new_session=True, stdout=log.open("w"), stderr=subprocess.STDOUT
    )


@pytest.mark.django_db(transaction=True)
def test_the_development_server_logs_no_secret(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "runserver.log"
    proc = _server(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        _env(settings.DATABASES["default"]["NAME"]),
        log,
    )
    try:
        _wait_until_up(f"http://127.0.0.1:{port}", proc, "runserver")
        sent = _secret_requests(f"http://127.0.0.1:{port}")
    finally:
        _stop(proc)
    text = log.read_text()
    assert "tournaments/table/<token>/" in text, text[-2000:]  # the requests were logged, masked
    for secret in sent:
        assert secret not in text


@pytest.mark.django_db(transaction=True)
def test_gunicorn_logs_no_secret(tmp_path: Path) -> None:
    port = free_port()
    access, errors = tmp_path / "access.log", tmp_path / "error.log"
    proc = _server(
        [
            *(sys.executable, "-m", "gunicorn", "golfclub.wsgi", "--bind", f"127.0.0.1:{port}"),
            *("--access-logfile", str(access), "--error-logfile", str(errors)),
            *("--access-logformat", '%(h)s "%(r)s" %(s)s "%(f)s" %(U)s %(q)s "%({authorization}i)s"'),
            *("--logger-class", "golfclub.gunicorn_logging.TokenMaskingLogger"),
        ],
        _env(settings.DATABASES["default"]["NAME"]),
        tmp_path / "stdout.log",
    )
    try:
        _wait_until_up(f"http://127.0.0.1:{port}", proc, "gunicorn")
        sent = _secret_requests(f"http://127.0.0.1:{port}")
    finally:
        _stop(proc)
    text = access.read_text() + errors.read_text() + (tmp_path / "stdout.log").read_text()
    assert "tournaments/table/<token>/" in text, text[-2000:]
    for secret in sent:
        assert secret not in text


def test_the_clubs_secret_links_are_masked_before_the_urlconf_is_read_too() -> None:
    """A public club's read-only link and an owner invitation are secrets as a game's edit link is:
    masked by the routes (tokens converter) and by the fallback used before the URLconf loads."""
    from golfclub.log_filters import _FALLBACK_PATHS

    line = '"GET /clubs/p/PubL1cT0ken/members/3/ HTTP/1.1" 200 /fr/clubs/invitations/Inv1teT0ken/'
    for masked in (mask_tokens(line), _FALLBACK_PATHS.sub(lambda m: m.group(1) + "<token>", line)):
        assert "PubL1cT0ken" not in masked and "Inv1teT0ken" not in masked, masked
        assert "/clubs/p/<token>/members/3/" in masked and "/clubs/invitations/<token>/" in masked
    assert "clubs/p/<token:token>/" in {route for route, _ in secret_routes()}


def test_a_secret_link_percent_encoded_in_a_query_string_is_masked() -> None:
    """A logged-out visitor of an owner invitation is sent to log in with the link in `next`; a
    client may send it percent-encoded, and the access log line must not carry the secret then."""
    line = '"GET /accounts/login/?next=%2Fclubs%2Finvitations%2FInv1teT0ken%2F HTTP/1.1" 200 3331'
    masked = mask_tokens(line)
    assert "Inv1teT0ken" not in masked and "%2Fclubs%2Finvitations%2F<token>%2F" in masked
    assert "PubL1cT0ken" not in mask_tokens("/accounts/login/?next=%2fclubs%2fp%2fPubL1cT0ken%2f")
    assert mask_tokens("/accounts/login/?next=%2Fclubs%2F") == "/accounts/login/?next=%2Fclubs%2F"
