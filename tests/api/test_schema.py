"""The OpenAPI schema validates without warnings, and its human docs page is served offline."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import call_command
from rest_framework.test import APIClient


def test_it_generates_a_valid_schema_without_warnings(tmp_path: Path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in ("/api/v1/score/", "/api/v1/score-hole/", "/api/v1/rulesets/", "/api/v1/rulesets/{name}/"):
        assert f"{path}:" in text, path


def test_it_serves_the_schema_with_the_scoring_contract(api: APIClient) -> None:
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    score = schema["paths"]["/api/v1/score/"]["post"]
    assert score["operationId"] == "score_grid"
    assert set(score["responses"]) >= {"200", "400"}
    assert "application/json" in score["requestBody"]["content"]
    assert schema["paths"]["/api/v1/score-hole/"]["post"]["operationId"] == "score_hole"
    components = schema["components"]["schemas"]
    assert {"ScoreResponse", "HoleResponse", "Error", "Ruleset"} <= set(components)
    assert set(components["Error"]["properties"]) == {"detail", "errors"}
    # The public endpoints need no authentication: the schema must not ask for any.
    assert score.get("security") in (None, [], [{}])


def test_it_serves_the_docs_page_from_local_static_files(api: APIClient) -> None:
    response = api.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', html)
    assert scripts, html
    assert all(src.startswith("/static/") for src in scripts), scripts
    assert "cdn" not in html.lower()
    assert "/api/schema/" in html


def test_it_can_fetch_the_docs_page_script(api: APIClient) -> None:
    html = api.get("/api/docs/").content.decode()
    src = re.findall(r'<script[^>]+src="([^"]+)"', html)[0]
    response = api.get(src)
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert len(body) > 10_000
