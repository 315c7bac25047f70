"""Any JSON body posted to the scoring endpoints answers 200 or a 400 in the error shape: never a 500."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.rules import PRESETS, RANKS

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

# Near-valid bodies: a grid of the preset's own shape in real cards, then perhaps one card mutated and
# perhaps a few overrides, so that most of them reach the scoring itself rather than the input checks.
plain_ranks = st.sampled_from([rank for rank in RANKS if rank != "X"] + ["T"])
real_cards = st.one_of(
    plain_ranks,
    plain_ranks,
    plain_ranks,
    st.builds(lambda rank, suit: rank + suit, plain_ranks, st.sampled_from(["s", "H", "♦", "C"])),
    st.sampled_from(["X", "x", "JK"]),
)
good_overrides = st.fixed_dictionaries(
    {},
    optional={
        "negative_matches": st.sampled_from(["zero", "keep"]),
        "jokers": st.sampled_from([0, 2]),
        "jokers_wild": st.booleans(),
        "values": st.dictionaries(
            st.sampled_from(["A", "K", "Q", "2", "X"]), st.integers(-5, 15), max_size=2
        ),
        "decks": st.sampled_from(["auto", 1, 2, 3]),
        "four_of_a_kind_block": st.sampled_from([None, {"points": -20, "others_add": 10}]),
        "ender_penalty": st.sampled_from([None, {"kind": "lowest_score"}, {"kind": "fixed", "points": 10}]),
        "ender_penalty_on_tie": st.booleans(),
    },
)
overrides = st.one_of(
    good_overrides,
    good_overrides,
    st.dictionaries(
        st.sampled_from(["match_lines", "rows", "cols", "tiebreakers", "colour"]), any_json, max_size=2
    ),
)


@st.composite
def near_valid_grid(draw: st.DrawFn, preset: str) -> list[list[Any]]:
    """A grid of the preset's shape in real cards, perhaps with one card replaced by anything."""
    shape = PRESETS[preset]
    grid: list[list[Any]] = [[draw(real_cards) for _ in range(shape.cols)] for _ in range(shape.rows)]
    if draw(st.integers(0, 3)) == 0:
        row, col = draw(st.integers(0, shape.rows - 1)), draw(st.integers(0, shape.cols - 1))
        grid[row][col] = draw(tokens)
    return grid


@st.composite
def near_valid_score_body(draw: st.DrawFn) -> dict[str, Any]:
    """{"ruleset": preset or preset plus overrides, "grid": near-valid grid}."""
    preset = draw(st.sampled_from(list(PRESETS)))
    changes = draw(overrides)
    return {
        "ruleset": {"preset": preset, **changes} if changes else preset,
        "grid": draw(near_valid_grid(preset)),
    }


@st.composite
def near_valid_hole_body(draw: st.DrawFn) -> dict[str, Any]:
    """A table of 1-6 players with near-valid grids or typed totals, and an ender (or a stranger)."""
    preset = draw(st.sampled_from(list(PRESETS)))
    changes = draw(overrides)
    names = draw(st.lists(st.text(characters, min_size=1, max_size=5), min_size=1, max_size=6, unique=True))
    grids = {
        name: draw(
            st.one_of(
                near_valid_grid(preset),
                st.integers(-30, 60),
                st.fixed_dictionaries(
                    {"total": st.integers(-30, 60)}, optional={"blocks_marked": st.integers(0, 2)}
                ),
            )
        )
        for name in names
    }
    ender = draw(st.one_of(st.none(), st.sampled_from(names), st.text(characters, max_size=3)))
    return {"ruleset": {"preset": preset, **changes} if changes else preset, "grids": grids, "ender": ender}


def assert_never_a_server_error(api: APIClient, path: str, body: Any) -> None:
    """200 with a JSON object, or 400 with {"detail", "errors": [{"where", "message"}]}."""
    response = api.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400), (response.status_code, body, response.content[:500])
    event(f"HTTP {response.status_code}")  # --hypothesis-show-statistics shows how many reach the scoring
    answer = response.json()
    assert isinstance(answer, dict)
    if response.status_code == 400:
        assert answer["errors"], answer
        assert answer["detail"] == answer["errors"][0]["message"]
        assert all(set(e) == {"where", "message"} and e["message"] for e in answer["errors"]), answer
    elif path == ENDPOINTS[0]:
        cards = sum(card["points"] for card in answer["cards"]) + sum(b["points"] for b in answer["blocks"])
        assert answer["total"] == cards, answer
        assert len(answer["cards"]) == answer["ruleset"]["rows"] * answer["ruleset"]["cols"]
    else:
        assert [p["name"] for p in answer["players"]] == list(body["grids"])
        for player in answer["players"]:
            assert player["score"] == player["grid_score"] + sum(a["points"] for a in player["adjustments"])


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
@given(body=near_valid_score_body())
def test_it_scores_or_refuses_near_valid_grids(api: APIClient, body: dict[str, Any]) -> None:
    assert_never_a_server_error(api, ENDPOINTS[0], body)


@FUZZ
@given(body=near_valid_hole_body())
def test_it_scores_or_refuses_near_valid_holes(api: APIClient, body: dict[str, Any]) -> None:
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
