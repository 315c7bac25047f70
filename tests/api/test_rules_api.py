"""The scoring API (SPEC "Scoring API contract"): POST score/, score-hole/, GET rulesets/ under /api/v1/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from scoring.rules import PARAMETERS, PRESETS, RANKS

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_SMOKE = ROOT.parent / "shared" / "tools" / "contract_smoke.py"
SPEC_PRESETS = [
    "official",
    "official-quick",
    "official-extended",
    "official-jokers",
    "jokers-54",
    "basic",
    "harder",
    "four-card",
    "eight-card",
    "ten-card",
    "nine-card",
    "anywhere-pairs",
]


def post(api: APIClient, path: str, body: Any) -> tuple[int, Any]:
    """POST a JSON body; answer (status, parsed JSON body)."""
    response = api.post(path, data=json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def post_raw(
    api: APIClient, path: str, raw: bytes | str, content_type: str = "application/json"
) -> tuple[int, Any]:
    """POST raw bytes as they are; answer (status, parsed JSON body)."""
    response = api.generic("POST", path, raw, content_type=content_type)
    return response.status_code, response.json()


def assert_bad(status: int, body: Any, where: str, *words: str) -> None:
    """A 400 in the API's error shape whose problems include one at `where` mentioning every word."""
    assert status == 400, body
    assert set(body) == {"detail", "errors"}, body
    assert body["detail"] == body["errors"][0]["message"]
    at_where = [e["message"] for e in body["errors"] if e["where"] == where]
    assert at_where, f"no problem at {where!r}: {body['errors']}"
    text = " ".join(at_where).lower()
    for word in words:
        assert word.lower() in text, f"{word!r} not in {at_where}"


# --- POST /api/v1/score/ ----------------------------------------------------------------------------


SCORE_TABLE = [
    # (ruleset, grid, total): SPEC examples first, then one per match kind and parameter that changes a total.
    ("official", [["Q", "7", "K"], ["Q", "7", "3"]], 3),
    ({"preset": "official", "negative_matches": "zero"}, [["2", "K", "4"], ["2", "5", "4"]], 5),
    ("official", [["2", "K", "4"], ["2", "5", "4"]], 1),  # rule 2.3: a pair of 2s keeps -4
    ("official", [["A", "2", "3"], ["4", "5", "6"]], 1 - 2 + 3 + 4 + 5 + 6),
    ("official", [["10h", "ts", "J"], ["10d", "Q", "k"]], 0 + 10 + 10 + 10 + 0),
    ("basic", [["2", "K", "4"], ["2", "5", "4"]], 5),  # 2 is +2 in basic: the pair cancels to 0
    ("harder", [["J", "Q", "K"], ["A", "A", "3"]], 11 + 12 + 13 + 1 + 1 + 3),
    ("official-quick", [["Q", "7"], ["Q", "3"]], 10),
    ("four-card", [["Q", "Q"], ["7", "3"]], 10),  # a row pair cancels in four-card
    ("nine-card", [["Q", "Q", "Q"], ["7", "3", "A"], ["7", "4", "A"]], 7 + 3 + 1 + 7 + 4 + 1),
    ("anywhere-pairs", [["Q", "7", "K"], ["3", "Q", "5"]], 7 + 0 + 3 + 5),
    ("eight-card", [["Q", "7", "K", "5"], ["Q", "7", "3", "5"]], 3),
    ("ten-card", [["Q", "7", "K", "5", "9"], ["Q", "7", "3", "5", "9"]], 3),
    ({"preset": "official", "values": {"K": -3}}, [["Q", "7", "K"], ["Q", "7", "3"]], 0),
    ("official-jokers", [["X", "7", "K"], ["5", "7", "3"]], -2 + 5 + 3),
]


@pytest.mark.parametrize(("ruleset", "grid", "total"), SCORE_TABLE)
def test_it_scores_grids(api: APIClient, ruleset: Any, grid: list[list[str]], total: int) -> None:
    status, body = post(api, "/api/v1/score/", {"ruleset": ruleset, "grid": grid})
    assert status == 200, body
    assert body["total"] == total
    assert sum(card["points"] for card in body["cards"]) + sum(b["points"] for b in body["blocks"]) == total


def test_it_answers_the_spec_example_in_full(api: APIClient) -> None:
    status, body = post(
        api, "/api/v1/score/", {"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]]}
    )
    assert status == 200
    assert body["total"] == 3
    assert body["ruleset"] == PRESETS["official"].to_dict()
    matches = sorted(body["matches"], key=lambda m: m["positions"][0]["col"])
    assert [m["kind"] for m in matches] == ["column", "column"]
    assert [m["positions"] for m in matches] == [
        [{"row": 1, "col": 1}, {"row": 2, "col": 1}],
        [{"row": 1, "col": 2}, {"row": 2, "col": 2}],
    ]
    assert [m["points"] for m in matches] == [0, 0]
    assert len(body["cards"]) == 6
    assert [c["card"] for c in body["cards"]] == ["Q", "7", "K", "Q", "7", "3"]
    assert {(c["card"], c["points"], c["matched"]) for c in body["cards"]} >= {
        ("K", 0, False),
        ("3", 3, False),
    }
    assert body["explanation"] and all(isinstance(line, str) and line for line in body["explanation"])


def test_it_reports_overrides_in_the_resolved_ruleset(api: APIClient) -> None:
    spec = {"preset": "official", "negative_matches": "zero", "values": {"K": -1}}
    status, body = post(api, "/api/v1/score/", {"ruleset": spec, "grid": [["2", "K", "4"], ["2", "5", "4"]]})
    assert status == 200, body
    assert body["ruleset"]["negative_matches"] == "zero"
    assert body["ruleset"]["values"]["K"] == -1
    assert body["ruleset"]["values"]["Q"] == 10
    assert set(body["ruleset"]["overrides"]) == {"negative_matches", "values"}
    assert body["total"] == -1 + 5


def test_it_takes_official_when_no_ruleset_is_given(api: APIClient) -> None:
    status, body = post(api, "/api/v1/score/", {"grid": [["2", "K", "4"], ["2", "5", "4"]]})
    assert status == 200, body
    assert body["ruleset"]["preset"] == "official"
    assert body["total"] == 1


def test_it_reads_whole_numbers_as_card_ranks(api: APIClient) -> None:
    status, body = post(api, "/api/v1/score/", {"ruleset": "official", "grid": [["Q", 7, "K"], ["Q", 7, 3]]})
    assert status == 200, body
    assert body["total"] == 3


def test_it_marks_a_matched_pair_of_jokers_in_jokers_54(api: APIClient) -> None:
    status, body = post(
        api, "/api/v1/score/", {"ruleset": "jokers-54", "grid": [["JK", "7", "K"], ["x", "4", "3"]]}
    )
    assert status == 200, body
    assert body["total"] == 7 + 4 + 3  # negatives zero: the jokers' pair scores 0, not -4
    assert [m["kind"] for m in body["matches"]] == ["column"]


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        (
            {"ruleset": "official", "grid": [["Q", "7", "?"], ["Q", "7", "3"]]},
            "grid[1][3]",
            ["?", "row 1, column 3"],
        ),
        ({"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "1Z", "3"]]}, "grid[2][2]", ["1Z"]),
        ({"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7"]]}, "grid", ["same number"]),
        ({"ruleset": "official", "grid": [["Q", "7"], ["Q", "7"]]}, "grid", []),
        ({"ruleset": "official", "grid": [["K", "K", "K"], ["K", "K", "3"]]}, "grid[1][1]", ["Kings", "5"]),
        ({"ruleset": "official", "grid": [["X", "7", "K"], ["Q", "7", "3"]]}, "grid[1][1]", ["joker"]),
        ({"ruleset": "official", "grid": []}, "grid", []),
        ({"ruleset": "official", "grid": "Q 7 K / Q 7 3"}, "grid", []),
        ({"ruleset": "official", "grid": [["Q", None, "K"], ["Q", "7", "3"]]}, "grid[1][2]", []),
        ({"ruleset": "official", "grid": [["Q", "7", "K"], {"a": 1}]}, "grid[2]", []),
        ({"ruleset": "official"}, "grid", ["required"]),
        ({"ruleset": "official", "grid": None}, "grid", ["null"]),
        ({"ruleset": "nope", "grid": [["Q"]]}, "ruleset", ["nope", "official"]),
        ({"ruleset": 7, "grid": [["Q"]]}, "ruleset", ["preset name"]),
        ({"ruleset": None, "grid": [["Q"]]}, "ruleset", ["preset name", "null"]),
        ({"ruleset": ["official"], "grid": [["Q"]]}, "ruleset", ["a list"]),
        ({"ruleset": {"preset": "official", "colour": "red"}, "grid": [["Q"]]}, "ruleset.colour", ["colour"]),
        (
            {"ruleset": {"preset": "official", "values": {"Q": "ten"}}, "grid": [["Q"]]},
            "ruleset.values.Q",
            [],
        ),
        (
            {"ruleset": {"preset": "official", "values": {"Q": 10**30}}, "grid": [["Q"]]},
            "ruleset.values.Q",
            [],
        ),
        ({"ruleset": {"preset": "official", "rows": 7}, "grid": [["Q"]]}, "ruleset.rows", []),
        ({"ruleset": {"preset": 3}, "grid": [["Q"]]}, "ruleset.preset", []),
        ({"ruleset": "official", "grid": [["Q"]], "grids": {}}, "grids", ["unknown key"]),
        ({"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]], "players": 0}, "players", []),
        (
            {"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]], "players": "many"},
            "players",
            [],
        ),
        (
            {"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]], "players": 10**40},
            "players",
            [],
        ),
        ({"ruleset": "official", "grid": [["♣", "7", "K"], ["Q", "7", "3"]]}, "grid[1][1]", ["♣"]),
    ],
)
def test_it_names_what_and_where_in_bad_score_requests(
    api: APIClient, body: dict[str, Any], where: str, words: list[str]
) -> None:
    status, answer = post(api, "/api/v1/score/", body)
    assert_bad(status, answer, where, *words)


def test_it_names_every_bad_card_and_the_bad_ruleset_at_once(api: APIClient) -> None:
    body = {"ruleset": {"preset": "official", "jokers": 5}, "grid": [["Q", "?", "K"], ["Q", "7", "ZZ"]]}
    status, answer = post(api, "/api/v1/score/", body)
    assert_bad(status, answer, "grid[1][2]", "?")
    assert_bad(status, answer, "grid[2][3]", "ZZ")
    assert_bad(status, answer, "ruleset.jokers")


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b'{"ruleset": "official", "grid": [["Q"', ["json"]),
        (b"{'ruleset': 'official'}", ["json"]),
        (b'{"grid": NaN}', ["nan"]),
        (b'{"grid": [[Infinity]]}', ["infinity"]),
        (b"[" * 50_000 + b"]" * 50_000, ["nested"]),
        ('{"grid": [["\udcff"]]}'.encode("utf-8", "surrogatepass"), []),
        (b"\xff\xfe\x00garbage", []),
        (b'{"grid": [["\\ud800", "K"]]}', ["surrogate"]),
        (b'{"grids": {"\\udfff": 3}}', ["surrogate"]),
        (b'{"grid": [[1' + b"0" * 5000 + b"]]}", ["json"]),
    ],
)
def test_it_answers_400_for_bodies_that_are_not_json(api: APIClient, raw: bytes, words: list[str]) -> None:
    for path in ("/api/v1/score/", "/api/v1/score-hole/"):
        status, answer = post_raw(api, path, raw)
        assert_bad(status, answer, "body", *words)


def test_it_answers_413_for_a_body_over_256_kb(api: APIClient) -> None:
    # Refused before it is read (golfclub/middleware.py), in the same error shape.
    for path in ("/api/v1/score/", "/api/v1/score-hole/"):
        status, answer = post_raw(api, path, b'{"grid": "' + b"Q" * 300_000 + b'"}')
        assert status == 413
        assert answer["errors"][0]["where"] == "body" and "larger than 256 KB" in answer["detail"]


@pytest.mark.parametrize("body", [[], [1, 2], "official", 3, 2.5, True, None])
def test_it_wants_a_json_object_as_the_body(api: APIClient, body: Any) -> None:
    for path in ("/api/v1/score/", "/api/v1/score-hole/"):
        status, answer = post(api, path, body)
        assert_bad(status, answer, "body", "json object")


def test_it_reads_json_whatever_the_content_type(api: APIClient) -> None:
    raw = json.dumps({"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]]})
    for content_type in (
        "application/x-www-form-urlencoded",
        "text/plain",
        "application/json; charset=utf-8",
    ):
        status, answer = post_raw(api, "/api/v1/score/", raw, content_type)
        assert status == 200, (content_type, answer)
        assert answer["total"] == 3


def test_it_answers_without_the_trailing_slash_too(api: APIClient) -> None:
    status, answer = post(api, "/api/v1/score", {"grid": [["Q", "7", "K"], ["Q", "7", "3"]]})
    assert (status, answer["total"]) == (200, 3)
    status, answer = post(api, "/api/v1/score-hole", {"grids": {"ann": 4, "bob": 2}})
    assert (status, scores(answer)) == (200, [("ann", 4), ("bob", 2)])


def test_it_answers_an_empty_body_by_naming_the_missing_grid(api: APIClient) -> None:
    status, answer = post_raw(api, "/api/v1/score/", b"")
    assert_bad(status, answer, "grid", "required")


def test_it_refuses_get_on_scoring_endpoints_in_the_error_shape(api: APIClient) -> None:
    for path in ("/api/v1/score/", "/api/v1/score-hole/"):
        response = api.get(path)
        assert response.status_code == 405
        assert response.json()["errors"][0]["where"] == "request"


@pytest.mark.django_db
def test_it_needs_no_csrf_token_even_for_a_logged_in_user() -> None:
    user = get_user_model().objects.create_user("scorer", password="a-long-password-1")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    body = {"ruleset": "official", "grid": [["Q", "7", "K"], ["Q", "7", "3"]]}
    response = client.post("/api/v1/score/", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["total"] == 3


# --- POST /api/v1/score-hole/ -----------------------------------------------------------------------

SPEC_HOLE = {
    "ruleset": {"preset": "official", "ender_penalty": {"kind": "fixed", "points": 10}},
    "grids": {"ann": [["9", "K", "Q"], ["A", "K", "Q"]], "bob": [["3", "J", "5"], ["K", "J", "5"]]},
    "ender": "ann",
}


def scores(body: dict[str, Any]) -> list[tuple[str, int]]:
    """[(name, score)] in the answer's order."""
    return [(p["name"], p["score"]) for p in body["players"]]


def test_it_answers_the_spec_hole_example(api: APIClient) -> None:
    status, body = post(api, "/api/v1/score-hole/", SPEC_HOLE)
    assert status == 200, body
    assert scores(body) == [("ann", 20), ("bob", 3)]
    ann, bob = body["players"]
    assert ann["grid_score"] == 10
    assert [(a["points"], bool(a["reason"])) for a in ann["adjustments"]] == [(10, True)]
    assert bob["adjustments"] == []
    assert body["ender"] == "ann"
    assert body["ruleset"]["ender_penalty"] == {"kind": "fixed", "points": 10}


HOLE_TABLE = [
    # (ruleset, grids, ender, [(name, score)]) in seat order
    ("official", {"zed": [["Q", "7", "K"], ["Q", "7", "3"]], "amy": 5}, None, [("zed", 3), ("amy", 5)]),
    # Seed 001's example: the ender's 17 plus the lowest score 12 makes 29.
    (
        {"preset": "basic", "ender_penalty": {"kind": "lowest_score"}},
        {"a": 17, "b": 12, "c": 20},
        "a",
        [("a", 29), ("b", 12), ("c", 20)],
    ),
    # Adding a zero or negative lowest score is no penalty (project decision).
    (
        {"preset": "official", "ender_penalty": {"kind": "lowest_score"}},
        {"a": 17, "b": -3},
        "a",
        [("a", 17), ("b", -3)],
    ),
    # The ender who only ties is not penalised, unless ender_penalty_on_tie.
    (
        {"preset": "basic", "ender_penalty": {"kind": "fixed", "points": 10}},
        {"a": 5, "b": 5},
        "a",
        [("a", 5), ("b", 5)],
    ),
    (
        {"preset": "basic", "ender_penalty": {"kind": "fixed", "points": 10}, "ender_penalty_on_tie": True},
        {"a": 5, "b": 5},
        "a",
        [("a", 15), ("b", 5)],
    ),
    (
        {"preset": "basic", "ender_penalty": {"kind": "fixed", "points": 10}},
        {"a": 4, "b": 5},
        "a",
        [("a", 4), ("b", 5)],
    ),
    ("basic", {"ann": {"total": 7}, "bob": {"total": 9, "blocks_marked": 0}}, None, [("ann", 7), ("bob", 9)]),
    ("official", {"Zoë": 4, "李": 6, "😀": 2}, "李", [("Zoë", 4), ("李", 6), ("😀", 2)]),
]


@pytest.mark.parametrize(("ruleset", "grids", "ender", "expected"), HOLE_TABLE)
def test_it_scores_holes(
    api: APIClient, ruleset: Any, grids: dict[str, Any], ender: str | None, expected: list
) -> None:
    status, body = post(api, "/api/v1/score-hole/", {"ruleset": ruleset, "grids": grids, "ender": ender})
    assert status == 200, body
    assert scores(body) == expected


def test_it_adds_a_four_of_a_kind_block_to_every_opponent(api: APIClient) -> None:
    ruleset = {"preset": "basic", "four_of_a_kind_block": {"points": -20, "others_add": 10}}
    grids = {"ann": [["Q", "Q", "3"], ["Q", "Q", "4"]], "bob": [["A", "2", "3"], ["A", "2", "2"]], "cy": 6}
    status, body = post(api, "/api/v1/score-hole/", {"ruleset": ruleset, "grids": grids, "ender": None})
    assert status == 200, body
    ann, bob, cy = body["players"]
    assert ann["grid_score"] == -20 + 3 + 4
    assert bob["score"] == 5 + 10 and cy["score"] == 6 + 10
    assert [a["points"] for a in bob["adjustments"]] == [10]


def test_it_adds_blocks_marked_by_hand_on_typed_totals(api: APIClient) -> None:
    ruleset = {"preset": "basic", "four_of_a_kind_block": {"points": -20, "others_add": 10}}
    grids = {"ann": {"total": -13, "blocks_marked": 1}, "bob": 5}
    status, body = post(api, "/api/v1/score-hole/", {"ruleset": ruleset, "grids": grids, "ender": None})
    assert status == 200, body
    assert scores(body) == [("ann", -13), ("bob", 15)]


def test_it_checks_the_decks_across_the_whole_table(api: APIClient) -> None:
    grids = {"ann": [["K", "K", "3"], ["K", "5", "4"]], "bob": [["K", "K", "3"], ["9", "5", "4"]]}
    status, body = post(api, "/api/v1/score-hole/", {"ruleset": "official", "grids": grids, "ender": None})
    assert status == 400, body
    assert "K" in body["detail"] and "5" in body["detail"]


def test_it_leaves_typed_totals_out_of_the_deck_check(api: APIClient) -> None:
    grids = {"ann": [["K", "K", "3"], ["K", "5", "4"]], "bob": 9}
    status, body = post(api, "/api/v1/score-hole/", {"ruleset": "official", "grids": grids})
    assert status == 200, body
    assert scores(body) == [("ann", 12), ("bob", 9)]


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        ({**SPEC_HOLE, "ender": "zed"}, "ender", ["zed", "ann", "bob"]),
        ({**SPEC_HOLE, "ender": 5}, "ender", []),
        ({**SPEC_HOLE, "ender": ""}, "ender", ['""', "ann, bob"]),
        ({**SPEC_HOLE, "ender": ["ann"]}, "ender", []),
        ({"ruleset": "official", "grids": {}}, "grids", ["at least one"]),
        ({"ruleset": "official", "grids": []}, "grids", ["a list"]),
        ({"ruleset": "official", "grids": None}, "grids", ["null"]),
        ({"ruleset": "official"}, "grids", ["required"]),
        ({"ruleset": "official", "grids": {"ann": True}}, "grids.ann", ["true/false"]),
        ({"ruleset": "official", "grids": {"ann": 2.5}}, "grids.ann", ["a number"]),
        ({"ruleset": "official", "grids": {"ann": "12"}}, "grids.ann", ["a string"]),
        ({"ruleset": "official", "grids": {"ann": 10**12}}, "grids.ann", ["between"]),
        ({"ruleset": "official", "grids": {"ann": {"points": 3}}}, "grids.ann.points", ["unknown key"]),
        ({"ruleset": "official", "grids": {"ann": {"blocks_marked": 1}}}, "grids.ann.total", []),
        (
            {"ruleset": "official", "grids": {"ann": {"total": 3, "blocks_marked": -1}}},
            "grids.ann.blocks_marked",
            [],
        ),
        ({"ruleset": "official", "grids": {" ": 3}}, "grids. ", ["blank"]),
        (
            {"ruleset": "official", "grids": {"ann": [["Q", "7", "K"], ["Q", "?", "3"]], "bob": 3}},
            "grids.ann[2][2]",
            ["?"],
        ),
        ({"ruleset": "official", "grids": {"ann": [["Q", "7"], ["Q", "7"]], "bob": 3}}, "grids.ann", []),
        ({"ruleset": "mystery", "grids": {"ann": 3}}, "ruleset", ["mystery"]),
        ({"ruleset": "official", "grids": {"ann": 3}, "grid": [["Q"]]}, "grid", ["unknown key"]),
        ({"ruleset": "official", "grids": {str(n): 1 for n in range(40)}}, "grids", ["at most"]),
    ],
)
def test_it_names_what_and_where_in_bad_hole_requests(
    api: APIClient, body: dict[str, Any], where: str, words: list[str]
) -> None:
    status, answer = post(api, "/api/v1/score-hole/", body)
    assert_bad(status, answer, where, *words)


# --- GET /api/v1/rulesets/ --------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_lists_every_preset_resolved_without_touching_the_database(
    api: APIClient, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(0):
        response = api.get("/api/v1/rulesets/")
    assert response.status_code == 200
    body = response.json()
    assert [preset["preset"] for preset in body["presets"]] == SPEC_PRESETS
    for preset in body["presets"]:
        assert preset == PRESETS[preset["preset"]].to_dict()
        assert preset["source"]
        assert list(preset["values"]) == list(RANKS)
    assert [p["name"] for p in body["parameters"]] == list(PARAMETERS)
    assert all(p["meaning"] and p["values"] for p in body["parameters"])
    match_lines = next(p for p in body["parameters"] if p["name"] == "match_lines")
    assert set(match_lines["choices"]) == {"columns", "rows", "diagonals", "anywhere"}


def test_it_shows_one_preset(api: APIClient) -> None:
    response = api.get("/api/v1/rulesets/nine-card/")
    assert response.status_code == 200
    body = response.json()
    assert body == PRESETS["nine-card"].to_dict()
    assert (body["rows"], body["cols"], body["face_up_at_start"]) == (3, 3, 3)
    assert api.get("/api/v1/rulesets/Official/").json()["preset"] == "official"


def test_it_answers_404_naming_an_unknown_preset(api: APIClient) -> None:
    response = api.get("/api/v1/rulesets/pinochle/")
    assert response.status_code == 404
    body = response.json()
    assert body["errors"][0]["where"] == "name"
    assert "pinochle" in body["detail"] and "official" in body["detail"]


def test_it_round_trips_a_listed_preset_through_the_score_endpoint(api: APIClient) -> None:
    presets = api.get("/api/v1/rulesets/").json()["presets"]
    four_card = next(p for p in presets if p["preset"] == "four-card")
    status, body = post(api, "/api/v1/score/", {"ruleset": four_card, "grid": [["Q", "Q"], ["7", "3"]]})
    assert status == 200, body
    assert body["ruleset"] == four_card
    assert body["total"] == 10


# --- the outside contract check ---------------------------------------------------------------------


def test_it_passes_the_shared_contract_smoke_test() -> None:
    if not CONTRACT_SMOKE.exists():
        # CI always has shared/ beside the clone; a laptop clone elsewhere may not.
        if os.environ.get("CI"):
            pytest.fail(f"CI run without the shared contract check at {CONTRACT_SMOKE}")
        pytest.skip(f"no shared contract check at {CONTRACT_SMOKE} (shared/ is not beside this clone)")
    python = ROOT / ".venv" / "bin" / "python"
    result = subprocess.run(
        [str(python if python.exists() else sys.executable), str(CONTRACT_SMOKE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all pass" in result.stdout
