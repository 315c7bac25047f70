"""bench/offline_budget.py: what a phone downloads to work offline, against the 300 KB budget
(issue 32, item 7). Run here on the test database, through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from bench.offline_budget import main
from scoring.web.pwa_files import precached_names

pytestmark = pytest.mark.django_db


def client_get(url: str) -> tuple[int, bytes]:
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, body


def test_everything_a_phone_stores_at_install_fits_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([], get=client_get) == 0
    out = capsys.readouterr().out
    for name in precached_names():
        assert re.search(rf"^/static/{re.escape(name)} ", out, re.MULTILINE), name
    for page in (
        "/sw.js",
        "/manifest.webmanifest",
        "/no-connection/",
        "/",
        "/games/new/",
        "/score/",
        "/rules/",
    ):
        assert re.search(rf"^{re.escape(page)} ", out, re.MULTILINE), page
    total = re.search(
        r"Offline download: \d+ files, ([\d.]+) KB as served .* within budget$", out, re.MULTILINE
    )
    assert total and 0 < float(total.group(1)) <= 300


def test_it_fails_when_over_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--budget-kb", "10"], get=client_get) == 1
    assert "OVER budget" in capsys.readouterr().out
