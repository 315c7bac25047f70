"""The static files listed once per test process (tests/static_files.py) are served as before."""

from __future__ import annotations

from pathlib import Path

from django.test import Client
from whitenoise.middleware import WhiteNoiseMiddleware

STATIC = Path(__file__).resolve().parent.parent / "static"


def test_each_new_client_serves_the_static_files_with_their_own_bytes_and_headers() -> None:
    first, second = Client().get("/static/css/app.css"), Client().get("/static/css/app.css")
    for response in (first, second):
        assert response.status_code == 200
        assert b"".join(response.streaming_content) == (STATIC / "css" / "app.css").read_bytes()
        assert response["Content-Type"].startswith("text/css")
    assert first["Last-Modified"] == second["Last-Modified"] and first["ETag"] == second["ETag"]
    assert Client().get("/static/css/no-such-file.css").status_code == 404


def test_a_middleware_built_later_holds_the_same_files_as_one_listing_them_anew(monkeypatch) -> None:
    later = WhiteNoiseMiddleware(lambda request: None)
    listing = WhiteNoiseMiddleware.add_files_from_finders.__wrapped__  # WhiteNoise's own
    monkeypatch.setattr(WhiteNoiseMiddleware, "add_files_from_finders", listing)
    fresh = WhiteNoiseMiddleware(lambda request: None)
    assert "/static/css/app.css" in fresh.files and "/static/favicon.ico" in fresh.files
    assert set(later.files) == set(fresh.files)
    for url, static in fresh.files.items():
        assert later.files[url].alternatives == static.alternatives, url
