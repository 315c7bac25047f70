"""Edit tokens stay out of logs, error e-mails and gunicorn's access log."""

from __future__ import annotations

import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core import mail
from django.test import Client

from golfclub.gunicorn_logging import TokenMaskingLogger
from golfclub.log_filters import mask_tokens
from scoring import services

SECRET = "s3cr3t-edit-token-for-tests"


def test_it_masks_tokens_in_page_and_api_paths() -> None:
    assert mask_tokens("/games/e/abc/holes/2/") == "/games/e/<token>/holes/2/"
    assert mask_tokens("GET /api/v1/games/abc/undo/ HTTP/1.1") == "GET /api/v1/games/<token>/undo/ HTTP/1.1"
    assert mask_tokens("https://x.example/games/v/abc/") == "https://x.example/games/v/<token>/"
    assert mask_tokens("/games/new/ /games/ /api/v1/games/") == "/games/new/ /games/ /api/v1/games/"


@pytest.mark.django_db
def test_it_keeps_the_token_out_of_the_error_email_and_the_log(settings, monkeypatch, caplog) -> None:
    settings.ADMINS = ["admin@example.com"]
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    game.edit_token = SECRET
    game.save(update_fields=["edit_token"])

    from scoring.web.games import board_views as game_views

    def broken(request, token, **kwargs):
        raise RuntimeError(f"something broke for {request.path}")

    monkeypatch.setattr(game_views, "game_history", broken)
    from django.urls import clear_url_caches

    clear_url_caches()
    import importlib

    import golfclub.urls
    import scoring.web.games.urls

    importlib.reload(scoring.web.games.urls)
    importlib.reload(golfclub.urls)
    try:
        client = Client(raise_request_exception=False)
        with caplog.at_level(logging.ERROR, logger="django.request"):
            response = client.get(
                f"/games/e/{SECRET}/history/", HTTP_REFERER=f"https://golf.example.com/games/e/{SECRET}/"
            )
    finally:
        monkeypatch.undo()
        importlib.reload(scoring.web.games.urls)
        importlib.reload(golfclub.urls)
        clear_url_caches()
    assert response.status_code == 500
    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    report = email.subject + email.body + "".join(str(content) for content, _ in email.alternatives)
    assert "/games/e/&lt;token&gt;/history/" in report or "/games/e/<token>/history/" in report
    assert SECRET not in report
    logged = "\n".join(handler_format(record) for record in caplog.records)
    assert "/games/e/<token>/history/" in logged and SECRET not in logged


def handler_format(record: logging.LogRecord) -> str:
    """The record as a handler with the project's filter writes it."""
    from golfclub.log_filters import MaskTokensFilter

    MaskTokensFilter().filter(record)
    return record.getMessage()


def test_it_masks_tokens_in_the_gunicorn_access_log() -> None:
    from gunicorn.config import Config

    logger = TokenMaskingLogger(Config())
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": f"/api/v1/games/{SECRET}/holes/?x=1",
        "PATH_INFO": f"/api/v1/games/{SECRET}/holes/",
        "QUERY_STRING": "x=1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"https://golf.example.com/games/e/{SECRET}/",
        "REMOTE_ADDR": "10.0.0.1",
    }
    req = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    resp = SimpleNamespace(status="201 Created", sent=12, headers=[])
    atoms = logger.atoms(resp, req, environ, timedelta(milliseconds=5))
    assert atoms["r"] == "POST /api/v1/games/<token>/holes/?x=1 HTTP/1.1"
    assert atoms["U"] == "/api/v1/games/<token>/holes/"
    assert SECRET not in repr(atoms)
