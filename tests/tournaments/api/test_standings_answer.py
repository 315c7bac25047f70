"""The standings answer is built by `Standings.to_api` for speed (a serializer per line cost 300 ms
at 1,000 players): it must be exactly what its schema's serializer, StandingsSerializer, makes of it
(same keys, same types), here live and with penalty points."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.api.response_serializers import StandingSerializer, StandingsSerializer

from .conftest import create, csv_post
from .test_contract import score_table, seat

pytestmark = pytest.mark.django_db


def test_the_standings_are_exactly_their_serializers_rendering(dora: APIClient) -> None:
    tid = create(dora, rounds=1)["id"]
    names = "\n".join(f"Player {n}" for n in range(1, 9))
    assert csv_post(dora, tid, f"name\n{names}\n").status_code == 201
    round_ = seat(dora, tid)
    assert dora.post(f"/api/v1/tournaments/{tid}/rounds/1/publish/", {}, format="json").status_code == 200
    first, second = round_["tables"]
    score_table(first, holes=3)
    score_table(second, holes=1)  # live: a round in play, one table further on
    player = first["players"][0]["id"]
    given = dora.post(
        f"/api/v1/tournaments/{tid}/penalties/",
        {"player": player, "offence": "illegal_move", "step": "points"},
        format="json",
    )
    assert given.status_code == 201, given.content
    body = dora.get(f"/api/v1/tournaments/{tid}/standings/").json()
    assert body["live"] is True and body["standings"]
    assert any(line["penalty_points"] for line in body["standings"])
    assert StandingsSerializer(body).data == body
    assert set(body) == set(StandingsSerializer().fields)
    for line in body["standings"]:
        assert set(line) == set(StandingSerializer().fields)
