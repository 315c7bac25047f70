"""The hole answer built directly (`hole_body`, used on every recorded hole) equals HoleSerializer's."""

from __future__ import annotations

import pytest
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from scoring import selectors, services
from scoring.api.games.response_serializers import HoleSerializer, hole_body

from .conftest import GRID_3, GRID_21

pytestmark = pytest.mark.django_db


def test_it_builds_the_hole_answer_exactly_as_the_serializer_does(make_game):
    ruleset = {"preset": "official", "holes": 2, "ender_penalty": {"kind": "fixed", "points": 10}}
    game = make_game(["ann", "bob", "cy"], ruleset=ruleset)
    services.hole_record(game, entries={"ann": GRID_3, "bob": 5, "cy": GRID_21}, ender="cy")
    services.hole_record(game, entries={"ann": 5, "bob": 3, "cy": 9}, ender=None)
    services.hole_record(game, entries={"ann": 1, "bob": 2}, ender="bob", playoff=True)
    board = selectors.scoreboard(game)
    lines = [*board.holes, *board.playoff_holes]
    assert len(lines) == 3 and board.status == "finished"
    assert any(entry.adjustments for line in lines for entry in line.entries)  # the ender's penalty
    assert any(entry.typed for line in lines for entry in line.entries)
    assert any(line.ender is None for line in lines) and any(line.ender for line in lines)
    request = Request(APIRequestFactory().get("/"))
    for line in lines:
        kind = "playoff-holes" if line.is_playoff else "holes"
        url = f"http://testserver/api/v1/games/t/{kind}/{line.number}/"
        assert hole_body(line, url) == HoleSerializer(line, context={"request": request, "token": "t"}).data
