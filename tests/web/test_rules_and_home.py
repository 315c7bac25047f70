"""The rules reference page and the landing page."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services
from scoring.rules import PARAMETERS, PRESETS

pytestmark = pytest.mark.django_db


def test_it_lists_every_preset_with_its_source_and_every_parameter(client: Client) -> None:
    response = client.get("/rules/")
    assert response.status_code == 200
    page = response.content.decode()
    for name, ruleset in PRESETS.items():
        assert f"<strong>{name}</strong>" in page
        assert ruleset.source in page
    for name in PARAMETERS:
        assert f"<code>{name}</code>" in page
    # The joker's value, read from the engine, only where the preset plays with jokers; a true minus sign.
    official = page.split("<strong>official</strong>")[1].split("</details>")[0]
    assert "Joker" not in official and "2 \u22122" in official and "2\u00d73" in official
    with_jokers = page.split("<strong>official-jokers</strong>")[1].split("</details>")[0]
    assert "Joker \u22122" in with_jokers


def test_it_links_each_preset_to_the_score_page_with_that_preset(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    assert 'href="/score/?preset=four-card"' in page
    response = client.get("/score/?preset=four-card")
    assert response.status_code == 200
    assert 'value="four-card" selected' in response.content.decode()


def test_it_refuses_to_post_to_the_rules_page(client: Client) -> None:
    assert client.post("/rules/").status_code == 405


def test_it_offers_the_demo_game_on_the_home_page_only_when_it_exists(
    client: Client, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(1):
        page = client.get("/").content.decode()
    assert "demo game" not in page
    services.create_game(
        players=["Ann", "Bob"], ruleset="official", tokens=("demo-friday-edit", "demo-friday-view")
    )
    page = client.get("/").content.decode()
    assert 'href="/games/v/demo-friday-view/"' in page
    assert 'href="/games/new/"' in page and 'href="/rules/"' in page
