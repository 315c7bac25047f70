"""A page refused to an anonymous visitor (a session ended) sends them to log in and back to the page
they were on: a form's POST goes back to the page of the form (its POST-only address would answer
the GET after the login with a 405), and a part of a page (an htmx poll or button) sends the whole
page to the login (`HX-Redirect`) instead of swapping the login page into the part."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from tests.tournaments.web.conftest import staffed_event

pytestmark = pytest.mark.django_db


def _next_of(location: str) -> str:
    url = urlsplit(location)
    assert url.path == "/accounts/login/", location
    return parse_qs(url.query)["next"][0]


@pytest.fixture
def dashboard() -> str:
    return staffed_event(publish=False).url


def test_a_page_asked_by_a_logged_out_visitor_comes_back_to_itself(dashboard: str) -> None:
    answer = Client().get(f"{dashboard}officiating/?tab=calls")
    assert answer.status_code == 302 and _next_of(answer["Location"]) == f"{dashboard}officiating/?tab=calls"


def test_a_forms_post_after_the_session_ended_comes_back_to_the_forms_page(dashboard: str) -> None:
    form_page = f"http://testserver{dashboard}players/"
    answer = Client().post(
        f"{dashboard}players/add/", {"name": "Late Arrival"}, headers={"Referer": form_page}
    )
    assert answer.status_code == 302 and _next_of(answer["Location"]) == f"{dashboard}players/"
    elsewhere = Client().post(
        f"{dashboard}players/add/", {"name": "X"}, headers={"Referer": "https://evil.example/p"}
    )
    assert _next_of(elsewhere["Location"]) == "/"


def test_a_part_of_a_page_sends_the_whole_page_to_log_in(dashboard: str) -> None:
    answer = Client().get(
        f"{dashboard}calls/live/",
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{dashboard}officiating/"},
    )
    assert answer.status_code == 200 and answer.content == b""
    assert _next_of(answer["HX-Redirect"]) == f"{dashboard}officiating/"
