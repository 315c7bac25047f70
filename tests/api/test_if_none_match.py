"""If-None-Match is compared by Django's conditional-response helper (`scoring.api.games.concurrency.
not_modified`, over `django.utils.cache.get_conditional_response`): weakly, as RFC 9110 asks, `*`
alone matches, and only the 304 is taken (these GETs check no If-Match of their own)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _scoreboard(api: APIClient) -> tuple[str, str]:
    """A new game's scoreboard address and its ETag."""
    created = api.post("/api/v1/games/", {"players": ["ann", "bob"]}, format="json").json()
    url = f"/api/v1/games/{created['edit_token']}/scoreboard/"
    return url, api.get(url)["ETag"]


@pytest.mark.parametrize(
    "sent",
    [
        "{tag}",
        "W/{tag}",
        '"other-1-v1", {tag}',
        "*",
        " * ",
    ],
)
def test_it_answers_304_with_the_etag_when_the_header_names_it(api: APIClient, sent: str) -> None:
    url, tag = _scoreboard(api)
    answer = api.get(url, HTTP_IF_NONE_MATCH=sent.format(tag=tag))
    assert answer.status_code == 304 and answer.content == b""
    assert answer["ETag"] == tag


@pytest.mark.parametrize("sent", ['"game-0-v0"', "{bare}", "W/{bare}x", ""])
def test_it_answers_the_scoreboard_when_the_header_names_another(api: APIClient, sent: str) -> None:
    url, tag = _scoreboard(api)
    answer = api.get(url, HTTP_IF_NONE_MATCH=sent.format(bare=tag.strip('"')))
    assert answer.status_code == 200 and answer["ETag"] == tag


def test_a_stale_if_match_on_a_get_changes_nothing(api: APIClient) -> None:
    url, _tag = _scoreboard(api)
    assert api.get(url, HTTP_IF_MATCH='"game-0-v0"').status_code == 200
    assert (
        api.get(
            url, HTTP_IF_MATCH='"game-0-v0"', HTTP_IF_UNMODIFIED_SINCE="Sat, 01 Jan 2000 00:00:00 GMT"
        ).status_code
        == 200
    )


def test_the_game_pages_weak_etag_matches_its_strong_form(client, api: APIClient) -> None:
    created = api.post("/api/v1/games/", {"players": ["ann", "bob"]}, format="json").json()
    url = f"/games/v/{created['view_token']}/scoreboard/"
    tag = client.get(url)["ETag"]
    assert tag.startswith('W/"')
    for sent in (tag, tag.removeprefix("W/"), "*"):
        answer = client.get(url, headers={"If-None-Match": sent})
        assert answer.status_code == 304 and answer["ETag"] == tag
        assert answer["Cache-Control"] == "no-cache"
