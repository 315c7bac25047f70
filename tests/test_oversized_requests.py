"""Oversized bodies: 413 before being read, in the API's JSON error shape under /api/; every /api/
error is JSON in that shape, whatever produced it."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from golfclub.core.parsers import MAX_BODY_BYTES

pytestmark = pytest.mark.django_db

BIG = 3 * 1024 * 1024  # over Django's 2.5 MB DATA_UPLOAD_MAX_MEMORY_SIZE


def assert_api_error(response, status: int, where: str) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert set(body) == {"detail", "errors"} and body["errors"][0]["where"] == where
    assert body["detail"] == body["errors"][0]["message"]
    return body


def test_it_answers_413_json_to_a_json_body_over_2_5_mb(client: Client) -> None:
    body = json.dumps({"players": ["x" * BIG]})
    response = client.post("/api/v1/games/", body, content_type="application/json")
    assert "256 KB" in assert_api_error(response, 413, "body")["detail"]


def test_it_answers_413_json_to_a_form_encoded_body_over_2_5_mb(client: Client) -> None:
    response = client.post(
        "/api/v1/score/", "grid=" + "Q" * BIG, content_type="application/x-www-form-urlencoded"
    )
    assert_api_error(response, 413, "body")


def test_it_answers_413_json_to_an_oversized_multipart_upload(client: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("big.bin", b"\0" * BIG, content_type="application/octet-stream")
    response = client.post("/api/v1/games/", {"file": upload})
    assert_api_error(response, 413, "body")


def test_it_answers_413_to_an_api_body_just_over_the_parser_limit(client: Client) -> None:
    body = json.dumps({"players": ["x" * MAX_BODY_BYTES]})
    assert_api_error(client.post("/api/v1/games/", body, content_type="application/json"), 413, "body")


def test_it_answers_a_413_page_to_an_oversized_form_post(client: Client) -> None:
    response = client.post(
        "/games/new/", "player=" + "A" * BIG, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413 and response["Content-Type"].startswith("text/html")
    assert "2.5 MB" in response.content.decode()


def test_it_turns_django_s_request_data_too_big_into_a_json_413(client: Client, settings) -> None:
    # A body without Content-Length is only caught when read: Django raises RequestDataTooBig, and
    # handler400 makes it a 413 in the API's shape.
    from django.core.exceptions import RequestDataTooBig
    from django.test import RequestFactory

    from golfclub.core.errors import bad_request

    request = RequestFactory().post("/api/v1/games/")
    assert_api_error(bad_request(request, RequestDataTooBig("too big")), 413, "body")
    page = bad_request(RequestFactory().post("/games/new/"), RequestDataTooBig("too big"))
    assert page.status_code == 413


def test_it_answers_json_to_a_csrf_failure_under_the_api(settings) -> None:
    client = Client(enforce_csrf_checks=True)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("ann", password="pw-1234567")
    client.force_login(user)
    # Session-authenticated API writes need the CSRF token: without it a 403, in the API's shape.
    response = client.post("/api/v1/games/", {"players": ["a", "b"]}, content_type="application/json")
    assert_api_error(response, 403, "request")


def test_it_answers_json_for_a_method_the_docs_page_does_not_take(client: Client) -> None:
    body = assert_api_error(client.delete("/api/docs/"), 405, "request")
    assert "DELETE" in body["detail"]


def test_it_answers_a_csrf_failure_page_for_a_stale_form(settings) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/games/new/", {"player": ["Ann", "Bob"]})
    assert response.status_code == 403 and "This form expired" in response.content.decode()


def test_it_answers_json_to_a_server_error_under_the_api() -> None:
    from django.test import RequestFactory

    from golfclub.core.errors import server_error

    assert_api_error(server_error(RequestFactory().get("/api/v1/rulesets/")), 500, "server")
