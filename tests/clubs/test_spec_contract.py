"""The SPEC's "Clubs API contract", walked end to end as an outside client would: every request of
its table, exactly as written there, and the ratings checked against openskill called directly."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from tests.clubs.factories import make_owner

pytestmark = pytest.mark.django_db


def _post(client: APIClient, url: str, body: dict[str, Any]) -> Any:
    key = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())}
    return client.post(url, json.dumps(body), content_type="application/json", **key)


def _play(client: APIClient, edit_token: str, holes: list[dict[str, int]]) -> None:
    for entries in holes:
        answer = _post(client, f"/api/v1/games/{edit_token}/holes/", {"entries": entries, "ender": None})
        assert answer.status_code == 201, answer.content


def test_the_clubs_api_contract_as_the_spec_writes_it() -> None:
    client = APIClient()
    client.force_login(make_owner("spec-owner"))
    club = _post(client, "/api/v1/clubs/", {"name": "Friday Golf"})
    assert club.status_code == 201 and {"id", "name"} <= set(club.json())
    club_id = club.json()["id"]
    ids = {}
    for name in ("Ann", "Bob", "Cy"):
        member = _post(client, f"/api/v1/clubs/{club_id}/members/", {"name": name})
        assert member.status_code == 201 and set(member.json()) == {"id", "name"}
        ids[name] = member.json()["id"]
    assert _post(client, f"/api/v1/clubs/{club_id}/members/", {"name": "ann"}).status_code == 400

    # Two games: Ann, Bob and a guest; then Cy, Ann (Cy wins) and Bob.
    first = _post(
        client,
        "/api/v1/games/",
        {"players": ["Ann", "Bob", "Zoe"], "club": club_id, "members": [ids["Ann"], ids["Bob"], None]},
    )
    assert first.status_code == 201, first.content
    _play(client, first.json()["edit_token"], [{"Ann": 2, "Bob": 6, "Zoe": 4}] * 9)
    second = _post(
        client,
        "/api/v1/games/",
        {"players": ["Cy", "Ann", "Bob"], "club": club_id, "members": [ids["Cy"], ids["Ann"], ids["Bob"]]},
    )
    _play(client, second.json()["edit_token"], [{"Cy": 1, "Ann": 5, "Bob": 3}] * 9)

    # The ratings, by openskill itself: game 1 ranks Ann 1, Bob 3 (the guest was 2nd); game 2 ranks
    # Cy 1, Bob 2, Ann 3.
    model = PlackettLuce()
    ann, bob, cy = model.rating(), model.rating(), model.rating()
    [ann], [bob] = model.rate([[ann], [bob]], ranks=[1, 3])
    [cy], [bob], [ann] = model.rate([[cy], [bob], [ann]], ranks=[1, 2, 3])
    expected = {"Ann": ann, "Bob": bob, "Cy": cy}
    ratings = client.get(f"/api/v1/clubs/{club_id}/ratings/")
    assert ratings.status_code == 200
    rows = ratings.json()["ratings"]
    assert [row["ordinal"] for row in rows] == sorted((row["ordinal"] for row in rows), reverse=True)
    for row in rows:
        want = expected[row["member"]["name"]]
        assert (row["mu"], row["sigma"], row["ordinal"]) == (want.mu, want.sigma, want.mu - 3 * want.sigma)
        assert set(row) >= {"member", "mu", "sigma", "ordinal", "games"}
        assert set(row["member"]) >= {"id", "name"}

    detail = client.get(f"/api/v1/clubs/{club_id}/members/{ids['Ann']}/").json()
    assert {
        "id", "name", "games", "wins", "holes_played", "total_points", "average_per_hole", "low_hole_score",
        "best_hole_score", "rating", "rating_history", "head_to_head",
    } <= set(detail)  # fmt: skip
    assert (detail["games"], detail["wins"], detail["holes_played"], detail["total_points"]) == (2, 1, 18, 63)
    assert detail["average_per_hole"] == 3.5 and detail["best_hole_score"] == 2
    assert detail["low_hole_score"] == 9  # game 1: lowest on every hole; game 2: never
    assert [point["game"] for point in detail["rating_history"]] == [first.json()["id"], second.json()["id"]]
    assert set(detail["rating_history"][0]) >= {"game", "mu", "sigma", "ordinal"}
    bob_row = next(row for row in detail["head_to_head"] if row["member"]["name"] == "Bob")
    assert {key: bob_row[key] for key in ("games", "ahead", "behind", "tied")} == {
        "games": 2, "ahead": 1, "behind": 1, "tied": 0
    }  # fmt: skip

    season = _post(
        client,
        f"/api/v1/clubs/{club_id}/seasons/",
        {"name": "2027", "start": "2000-01-01", "end": "2999-12-31"},
    )
    assert season.status_code == 201 and "id" in season.json()
    board = client.get(f"/api/v1/clubs/{club_id}/seasons/{season.json()['id']}/leaderboard/")
    assert board.status_code == 200
    by_name = {row["member"]["name"]: row for row in board.json()["rows"]}
    assert set(by_name["Cy"]) >= {
        "member", "games", "wins", "total_points", "holes_played", "average_per_hole", "low_hole_score",
        "best_hole_score", "rating_change",
    }  # fmt: skip
    assert (by_name["Cy"]["games"], by_name["Cy"]["wins"], by_name["Cy"]["total_points"]) == (1, 1, 9)
    # Cy started from the default rating, whose ordinal is 25 - 3 * 25/3 = 0.
    assert by_name["Cy"]["rating_change"] == pytest.approx(cy.mu - 3 * cy.sigma, abs=1e-4)

    # Another user: the private club is a 404 everywhere, and writes are refused alike.
    stranger = APIClient()
    stranger.force_login(make_owner("spec-stranger"))
    assert stranger.get(f"/api/v1/clubs/{club_id}/ratings/").status_code == 404
    assert _post(stranger, f"/api/v1/clubs/{club_id}/members/", {"name": "Eve"}).status_code == 404
