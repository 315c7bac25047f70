"""Unknown URLs: JSON under /api/, a page elsewhere; never Django's debug page shape in the API."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture(autouse=True)
def production_404s(settings) -> None:
    settings.DEBUG = False


def test_it_answers_json_for_an_unknown_api_url(client: Client) -> None:
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["errors"][0]["where"] == "url"
    assert "/api/v1/no-such-thing/" in body["detail"]


def test_it_answers_a_page_for_an_unknown_page(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Not found" in response.content
