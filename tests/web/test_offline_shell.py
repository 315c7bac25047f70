"""The offline shell, /offline/ (issue 32): one page with every text and template the offline app
draws with, and nothing of any user or game, so the service worker can keep one copy per language
for everyone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import services

pytestmark = pytest.mark.django_db
ENGINE = Path(__file__).resolve().parents[2] / "static" / "js" / "engine"


def test_the_shell_can_be_kept_and_has_its_own_title(client: Client) -> None:
    response = client.get("/offline/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=86400"
    assert "Accept-Language" in response["Vary"]
    assert not response.cookies
    html = response.content.decode()
    assert "<title>On this phone · Golf club</title>" in html
    parts = ('id="offline-texts"', 'id="offline-start-players"', 'id="offline-keypad"', "data-offline-app")
    for part in parts:
        assert part in html, part
    assert "js/engine/golf-engine.js" in html and "js/offline/sync.js" in html and "js/offline/app.js" in html


def test_the_shell_loads_every_part_of_the_engine_in_its_load_order(client: Client) -> None:
    """golf-engine.js lists its parts in load order (PARTS); the page loads them so, then golf-engine.js."""
    listed = re.search(r"var PARTS = \[(.*?)\];", (ENGINE / "golf-engine.js").read_text())
    assert listed is not None
    parts = [*re.findall(r'"([\w-]+)"', listed.group(1)), "golf-engine"]
    assert sorted(parts) == sorted(path.stem for path in ENGINE.glob("*.js"))  # no part left out
    html = client.get("/offline/").content.decode()
    loaded = re.findall(r'<script src="/static/js/engine/([\w-]+)\.js" defer></script>', html)
    assert loaded == parts


def test_the_shell_holds_nothing_of_the_visitor(client: Client) -> None:
    services.create_game(players=["Zed", "Quinn"], ruleset="official")
    anonymous = client.get("/offline/").content
    user = get_user_model().objects.create_user("wilhelmina-xq", password="pw-long-enough")
    client.force_login(user)
    logged_in = client.get("/offline/").content
    assert anonymous == logged_in
    assert b"csrfmiddlewaretoken" not in anonymous and b"X-CSRFToken" not in anonymous
    assert b"wilhelmina-xq" not in logged_in and b"Zed" not in anonymous


def test_the_shell_offers_the_online_start_forms_choices(client: Client) -> None:
    html = client.get("/offline/").content.decode()
    for choice in ('value="official"', 'name="holes"', 'name="target_score"', 'name="ender_penalty"'):
        assert choice in html, choice
    assert 'data-t="save_hole">Save hole {n}<' in html
    assert 'data-max-players="12"' in html


def test_only_get_and_head(client: Client) -> None:
    assert client.post("/offline/").status_code == 405
