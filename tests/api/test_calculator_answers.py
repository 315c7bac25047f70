"""The calculator's answers are the rules engine's own dicts (`to_dict`, which the engine also
uses without Django); their schema is `scoring.api.calculator.response_serializers`. Each answer
must be exactly what its serializer makes of it (same keys, same types), so that the two cannot
drift apart."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers
from rest_framework.test import APIClient

from scoring.api.calculator.response_serializers import (
    HoleResponseSerializer,
    RulesetListSerializer,
    RulesetSerializer,
    ScoreResponseSerializer,
)

_GRID = [["Q", "7", "K"], ["Q", "7", "3"]]
_HOLE = {
    "ruleset": {"preset": "official", "ender_penalty": {"kind": "fixed", "points": 10}},
    "grids": {"ann": [["9", "K", "Q"], ["A", "K", "Q"]], "bob": [["3", "J", "5"], ["K", "J", "5"]]},
    "ender": "ann",
}


def _same(serializer: type[serializers.Serializer], body: dict[str, Any]) -> None:
    assert serializer(body).data == body
    assert set(body) == set(serializer().fields)


@pytest.mark.parametrize(
    "ruleset", ["official", "harder", "anywhere-pairs", {"preset": "official", "holes": 3}]
)
def test_a_scored_grid_is_exactly_its_serializers_rendering(api: APIClient, ruleset: Any) -> None:
    response = api.post("/api/v1/score/", {"ruleset": ruleset, "grid": _GRID}, format="json")
    assert response.status_code == 200, response.content
    _same(ScoreResponseSerializer, response.json())


def test_a_scored_hole_is_exactly_its_serializers_rendering(api: APIClient) -> None:
    response = api.post("/api/v1/score-hole/", _HOLE, format="json")
    assert response.status_code == 200, response.content
    _same(HoleResponseSerializer, response.json())


def test_the_rulesets_are_exactly_their_serializers_rendering(api: APIClient) -> None:
    _same(RulesetListSerializer, api.get("/api/v1/rulesets/").json())
    _same(RulesetSerializer, api.get("/api/v1/rulesets/official/").json())
