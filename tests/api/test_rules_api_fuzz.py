"""Any JSON body posted to the scoring endpoints answers 200 or a 400 in the error shape: never a 500."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.rules import PRESETS

ENDPOINTS = ("/api/v1/score/", "/api/v1/score-hole/")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Any code point, lone surrogates included (JSON can escape them; UTF-8 cannot encode them).
characters = st.one_of(
    st.characters(exclude_categories=[]), st.sampled_from(["\ud800", "\udfff", "♣", "\x00"])
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(characters, max_size=12),
)
any_json = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(characters, max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)
tokens = st.one_of(
    st.sampled_from(
        ["A", "2", "5", "10", "T", "J", "Q", "K", "X", "JK", "qs", "10h", "7♣", "x", "Xs", " 9 "]
    ),
    st.text(characters, max_size=4),
    scalars,
)
grids = st.one_of(
    st.lists(st.lists(tokens, min_size=0, max_size=6), min_size=0, max_size=4),
    any_json,
)
rulesets = st.one_of(
    st.sampled_from(list(PRESETS)),
    st.text(characters, max_size=10),
    st.builds(
        lambda preset, overrides: {"preset": preset, **overrides},
        st.one_of(st.sampled_from(list(PRESETS)), scalars),
        st.dictionaries(
            st.sampled_from(
                [
                    "rows",
                    "cols",
                    "decks",
                    "jokers",
                    "values",
                    "match_lines",
                    "negative_matches",
                    "jokers_wild",
                    "four_of_a_kind_block",
                    "ender_penalty",
                    "ender_penalty_on_tie",
                    "hole_end",
                    "holes",
                    "target_score",
                    "tiebreakers",
                    "face_up_at_start",
                    "min_decks",
                    "colour",
                ]
            ),
            st.one_of(
                any_json,
                st.sampled_from(
                    ["auto", "zero", "keep", "knock", "anywhere", ["rows", "columns"], ["diagonals"]]
                ),
                st.dictionaries(
                    st.sampled_from(["K", "Q", "2", "X", "Z", "points", "others_add", "kind"]),
                    st.one_of(st.integers(-200, 200), any_json),
                    max_size=3,
                ),
            ),
            max_size=3,
        ),
    ),
    any_json,
)
score_bodies = st.one_of(
    any_json,
    st.fixed_dictionaries({"ruleset": rulesets, "grid": grids}),
    st.fixed_dictionaries(
        {"grid": grids}, optional={"ruleset": rulesets, "players": any_json, "extra": any_json}
    ),
)
hole_entries = st.one_of(
    grids,
    st.integers(min_value=-2000, max_value=2000),
    st.fixed_dictionaries(
        {"total": any_json}, optional={"blocks_marked": st.one_of(st.integers(-3, 5), any_json)}
    ),
)
hole_bodies = st.one_of(
    any_json,
    st.fixed_dictionaries(
        {
            "ruleset": rulesets,
            "grids": st.dictionaries(st.text(characters, max_size=6), hole_entries, max_size=5),
        },
        optional={"ender": st.one_of(st.none(), st.text(characters, max_size=6), any_json)},
    ),
)


def assert_never_a_server_error(api: APIClient, path: str, body: Any) -> None:
    """200 with a JSON object, or 400 with {"detail", "errors": [{"where", "message"}]}."""
    response = api.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400), (response.status_code, body, response.content[:500])
    answer = response.json()
    assert isinstance(answer, dict)
    if response.status_code == 400:
        assert answer["errors"], answer
        assert answer["detail"] == answer["errors"][0]["message"]
        assert all(set(e) == {"where", "message"} and e["message"] for e in answer["errors"]), answer
    elif path == ENDPOINTS[0]:
        assert isinstance(answer["total"], int)
    else:
        assert [p["name"] for p in answer["players"]] == list(body["grids"])


@FUZZ
@given(body=score_bodies)
@example(body={"ruleset": None, "grid": []})  # once a 500: a brace in an error message template
def test_it_never_fails_on_any_score_body(api: APIClient, body: Any) -> None:
    assert_never_a_server_error(api, ENDPOINTS[0], body)


@FUZZ
@given(body=hole_bodies)
@example(body={"ruleset": None, "grids": {}})
def test_it_never_fails_on_any_hole_body(api: APIClient, body: Any) -> None:
    assert_never_a_server_error(api, ENDPOINTS[1], body)


@FUZZ
@given(body=any_json, path=st.sampled_from(ENDPOINTS))
def test_it_never_fails_on_arbitrary_json(api: APIClient, body: Any, path: str) -> None:
    assert_never_a_server_error(api, path, body)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200), path=st.sampled_from(ENDPOINTS))
def test_it_never_fails_on_arbitrary_bytes(api: APIClient, raw: bytes, path: str) -> None:
    response = api.generic("POST", path, raw, content_type="application/json")
    assert response.status_code in (200, 400), (response.status_code, raw)
    assert "errors" in response.json() or response.status_code == 200
