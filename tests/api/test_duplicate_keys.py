"""Issue 31 item 3: a JSON body naming a key twice is a 400 naming the key and where it is, on every
kind of JSON endpoint (the calculator, games, a hole's fast path and its corrections, the tournament
and rulings API), never last-one-wins; nothing is written. The one place this is decided is the API's
JSON parser (`golfclub.core.parsers`), so every endpoint reading JSON is covered by it."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from golfclub.core.parsers import AnyTypeJSONParser, BoundedJSONParser
from scoring import services
from scoring.models import Game, Hole
from tests.tournaments.api.conftest import client_of
from tournaments.models import Tournament

GRID = '[["Q", "7", "K"], ["Q", "7", "3"]]'


def _refused(response, where: str, key: str) -> None:
    assert response.status_code == 400, response.content
    problem = response.json()["errors"][0]
    assert problem["where"] == where, problem
    assert f'"{key}"' in problem["message"] and "more than once" in problem["message"]


def _send(client: APIClient, method: str, url: str, raw: str, **headers: str):
    return getattr(client, method)(url, data=raw, content_type="application/json", **headers)


@pytest.mark.django_db
def test_it_refuses_a_players_entry_given_twice_in_a_new_hole_the_fast_path(api):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    raw = '{"entries": {"Ann": 3, "Bob": 4, "Ann": 9}}'
    response = _send(api, "post", f"/api/v1/games/{game.edit_token}/holes/", raw)
    _refused(response, "entries.Ann", "Ann")
    assert "in entries" in response.json()["detail"]
    assert not Hole.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_it_refuses_a_key_twice_in_a_hole_correction_and_keeps_the_hole(api):
    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 3, "Bob": 4}, ender=None)
    url = f"/api/v1/games/{game.edit_token}/holes/1/"
    raw = '{"entries": {"Ann": 5, "Bob": 6}, "ender": "Ann", "ender": "Bob"}'
    _refused(_send(api, "put", url, raw, HTTP_IF_MATCH="*"), "ender", "ender")
    assert sorted(Hole.objects.get(game=game).entries.values_list("score", flat=True)) == [3, 4]


@pytest.mark.django_db
def test_it_refuses_a_top_level_key_twice_when_starting_a_game(api):
    raw = '{"players": ["Ann", "Bob"], "title": "Friday", "title": "Saturday"}'
    response = _send(api, "post", "/api/v1/games/", raw)
    _refused(response, "title", "title")
    assert "in the body" in response.json()["detail"]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_it_refuses_a_grid_named_twice_in_the_calculator(api):
    raw = f'{{"ruleset": "official", "grids": {{"ann": {GRID}, "bob": {GRID}, "ann": {GRID}}}}}'
    _refused(_send(api, "post", "/api/v1/score-hole/", raw), "grids.ann", "ann")
    raw = f'{{"grid": {GRID}, "ruleset": "official", "grid": {GRID}}}'
    _refused(_send(api, "post", "/api/v1/score/", raw), "grid", "grid")
    # Whatever Content-Type (curl -d sends a form's): the lenient parser refuses it the same way.
    response = api.post("/api/v1/score/", data=raw, content_type="application/x-www-form-urlencoded")
    _refused(response, "grid", "grid")


@pytest.mark.django_db
def test_it_refuses_a_nested_key_twice_in_the_tournament_api_and_creates_nothing():
    director = client_of("dora")
    raw = '{"name": "Spring Open", "ruleset": {"preset": "official", "holes": 9, "holes": 18}, "rounds": 3}'
    _refused(_send(director, "post", "/api/v1/tournaments/", raw), "ruleset.holes", "holes")
    assert not Tournament.objects.exists()
    raw = (
        '{"situation": "card_revealed",'
        ' "facts": {"intentional": false, "can_be_hidden": true, "intentional": true}}'
    )
    _refused(_send(director, "post", "/api/v1/rulings/advise/", raw), "facts.intentional", "intentional")


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ('{"a": [1, {"b": 1}, {"c": 1, "c": 2}]}', "a[3].c"),
        ('[{"x": {"y": 1, "y": 1}}]', "[1].x.y"),
        ('{"a": 1, "b": {"c": 1}, "a": 1}', "a"),
    ],
)
def test_it_names_where_a_repeated_key_is_however_deep(raw, where):
    for parser in (BoundedJSONParser(), AnyTypeJSONParser()):
        with pytest.raises(ParseError) as refused:
            parser.parse(io.BytesIO(raw.encode()))
        assert list(refused.value.detail) == [where]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_JSON)
def test_it_reads_every_body_without_a_repeated_key_as_json_does(value):
    assert BoundedJSONParser().parse(io.BytesIO(json.dumps(value).encode())) == value
