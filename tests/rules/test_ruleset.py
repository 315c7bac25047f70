"""Rulesets (SPEC "Ruleset parameters", "Presets"): the twelve presets and validation of overrides."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.rules import (
    PARAMETERS,
    PRESETS,
    RANKS,
    BlockRule,
    EnderPenalty,
    Ruleset,
    RulesetError,
    resolve_ruleset,
)

OFFICIAL_VALUES = {"A": 1, "2": -2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
OFFICIAL_VALUES |= {"J": 10, "Q": 10, "K": 0, "X": -2}
HOME_VALUES = OFFICIAL_VALUES | {"2": 2}

# (name, source, shape, face up, decks, min_decks, jokers, values, match_lines, negatives, hole_end, holes)
PRESET_TABLE = [
    ("official", "000 §2, §5.1", (2, 3), 2, 1, 1, 0, OFFICIAL_VALUES, {"columns"}, "keep", "all_face_up", 9),
    (
        "official-quick",
        "000 §5.2",
        (2, 2),
        2,
        1,
        1,
        0,
        OFFICIAL_VALUES,
        {"columns"},
        "keep",
        "all_face_up",
        6,
    ),
    (
        "official-extended",
        "000 §5.3",
        (2, 3),
        2,
        1,
        1,
        0,
        OFFICIAL_VALUES,
        {"columns"},
        "keep",
        "all_face_up",
        18,
    ),
    ("official-jokers", "000 §5.4", (2, 3), 2, 1, 1, 2, HOME_VALUES, {"columns"}, "keep", "all_face_up", 9),
    ("jokers-54", "004", (2, 3), 2, "auto", 1, 2, HOME_VALUES, {"columns"}, "zero", "all_face_up", 9),
    ("basic", "001, 002", (2, 3), 2, "auto", 1, 0, HOME_VALUES, {"columns"}, "keep", "all_face_up", 9),
    (
        "harder",
        "001 scoring guide",
        (2, 3),
        2,
        "auto",
        1,
        0,
        HOME_VALUES | {"J": 11, "Q": 12, "K": 13},
        {"columns"},
        "keep",
        "all_face_up",
        9,
    ),
    (
        "four-card",
        "001 part 2",
        (2, 2),
        2,
        "auto",
        1,
        0,
        HOME_VALUES,
        {"columns", "rows"},
        "keep",
        "knock",
        9,
    ),
    (
        "eight-card",
        "001 part 4, 002",
        (2, 4),
        2,
        "auto",
        2,
        0,
        HOME_VALUES,
        {"columns"},
        "keep",
        "all_face_up",
        9,
    ),
    ("ten-card", "001 part 4", (2, 5), 2, "auto", 2, 0, HOME_VALUES, {"columns"}, "keep", "all_face_up", 9),
    (
        "nine-card",
        "001 part 4, 002",
        (3, 3),
        3,
        "auto",
        2,
        0,
        HOME_VALUES,
        {"columns", "rows"},
        "keep",
        "all_face_up",
        9,
    ),
    (
        "anywhere-pairs",
        "001 part 4",
        (2, 3),
        2,
        "auto",
        1,
        0,
        HOME_VALUES,
        {"anywhere"},
        "keep",
        "all_face_up",
        9,
    ),
]


def test_it_has_exactly_the_twelve_presets_of_the_spec() -> None:
    assert list(PRESETS) == [row[0] for row in PRESET_TABLE]


@pytest.mark.parametrize("row", PRESET_TABLE, ids=[row[0] for row in PRESET_TABLE])
def test_it_sets_every_preset_as_the_spec_table(row: tuple) -> None:
    name, source, shape, face_up, decks, min_decks, jokers, values, lines, negatives, hole_end, holes = row
    ruleset = PRESETS[name]
    assert ruleset.preset == name
    assert ruleset.source == source
    assert (ruleset.rows, ruleset.cols) == shape
    assert ruleset.face_up_at_start == face_up
    assert ruleset.decks == decks
    assert ruleset.min_decks == min_decks
    assert ruleset.jokers == jokers
    assert dict(ruleset.values) == values
    assert [rank for rank, _ in ruleset.values] == list(RANKS)
    assert ruleset.match_lines == frozenset(lines)
    assert ruleset.negative_matches == negatives
    assert ruleset.hole_end == hole_end
    assert ruleset.holes == holes
    assert ruleset.jokers_wild is False
    assert ruleset.four_of_a_kind_block is None
    assert ruleset.ender_penalty is None
    assert ruleset.ender_penalty_on_tie is False
    assert ruleset.target_score is None
    assert ruleset.overrides == ()


def test_it_breaks_official_ties_by_rule_4_2_methods_and_home_ties_by_sharing() -> None:
    for name, ruleset in PRESETS.items():
        if name.startswith("official"):
            assert ruleset.tiebreakers == ("countback", "most_holes_won", "sudden_death")
        elif name == "jokers-54":
            assert ruleset.tiebreakers == ("countback", "sudden_death")  # seed 004: a sudden-death extra hole
        else:
            assert ruleset.tiebreakers == ("countback", "shared")  # seed 001: "let them share the glory"


@pytest.mark.parametrize(
    ("name", "players", "decks"),
    [
        ("official", 6, 1),  # rule 1.1: one deck for 2-6 players
        ("basic", 2, 1),
        ("basic", 3, 1),
        ("basic", 4, 2),  # seed 002: a deck for every 4 players
        ("basic", 7, 2),
        ("basic", 8, 3),
        ("basic", 11, 3),
        ("basic", 12, 4),
        ("eight-card", 2, 2),  # seed 002: eight- and nine-card always use two decks
        ("nine-card", 3, 2),
        ("ten-card", 8, 3),  # max(2, auto)
    ],
)
def test_it_counts_the_packs_in_play(name: str, players: int, decks: int) -> None:
    assert PRESETS[name].decks_for(players) == decks


def test_it_resolves_a_preset_name_an_override_dict_and_a_ruleset() -> None:
    assert resolve_ruleset("official") is PRESETS["official"]
    assert resolve_ruleset(" Official ") is PRESETS["official"]
    assert resolve_ruleset({"preset": "basic"}) is PRESETS["basic"]
    assert resolve_ruleset(PRESETS["harder"]) is PRESETS["harder"]


def test_it_applies_overrides_and_lists_them() -> None:
    ruleset = resolve_ruleset(
        {
            "preset": "official",
            "negative_matches": "zero",
            "values": {"k": -1, "T": 11},
            "ender_penalty": {"kind": "fixed", "points": 10},
            "four_of_a_kind_block": {"points": -20, "others_add": 10},
        }
    )
    assert ruleset.negative_matches == "zero"
    assert ruleset.value_of("K") == -1
    assert ruleset.value_of("10") == 11
    assert ruleset.value_of("Q") == 10  # unlisted ranks keep the preset's
    assert ruleset.ender_penalty == EnderPenalty("fixed", 10)
    assert ruleset.four_of_a_kind_block == BlockRule(-20, 10)
    assert ruleset.overrides == ("values", "negative_matches", "four_of_a_kind_block", "ender_penalty")
    assert ruleset.source == "000 §2, §5.1"


def test_it_does_not_list_an_override_equal_to_the_preset() -> None:
    assert resolve_ruleset({"preset": "official", "holes": 9, "match_lines": ["columns"]}).overrides == ()


@pytest.mark.parametrize("name", list(PRESETS))
def test_it_round_trips_every_preset_through_json(name: str) -> None:
    data = json.loads(json.dumps(PRESETS[name].to_dict()))
    assert resolve_ruleset(data) == PRESETS[name]


def test_it_round_trips_a_ruleset_with_overrides_through_json() -> None:
    ruleset = resolve_ruleset(
        {
            "preset": "nine-card",
            "match_lines": ["rows", "diagonals", "columns"],
            "jokers": 2,
            "jokers_wild": True,
            "ender_penalty": {"kind": "lowest_score"},
            "ender_penalty_on_tie": True,
            "target_score": 100,
            "holes": None,
            "tiebreakers": ["most_holes_won", "shared"],
        }
    )
    data = json.loads(json.dumps(ruleset.to_dict()))
    assert data["match_lines"] == ["columns", "rows", "diagonals"]
    assert data["ender_penalty"] == {"kind": "lowest_score"}
    again = resolve_ruleset(data)
    assert again == ruleset
    assert again.overrides == ruleset.overrides


def test_it_resolves_every_parameter_in_to_dict() -> None:
    data = PRESETS["official"].to_dict()
    assert set(PARAMETERS) <= set(data)
    assert {"preset", "source", "overrides"} <= set(data)
    assert data["values"]["2"] == -2


def test_it_describes_every_parameter_for_forms() -> None:
    settable = {
        name for name in PRESETS["official"].to_dict() if name not in ("preset", "source", "overrides")
    }
    assert set(PARAMETERS) == settable
    assert all(info.meaning and info.values for info in PARAMETERS.values())


def problems_of(spec: Any) -> dict[str, str]:
    with pytest.raises(RulesetError) as error:
        resolve_ruleset(spec)
    return {p.where: p.message for p in error.value.problems}


@pytest.mark.parametrize(
    ("override", "where", "words"),
    [
        ({"colour": "red"}, "ruleset.colour", 'Unknown ruleset parameter "colour"'),
        ({"rows": "2"}, "ruleset.rows", "whole number"),
        ({"rows": True}, "ruleset.rows", "whole number"),
        ({"rows": 4}, "ruleset.rows", "between 2 and 3"),
        ({"cols": 6}, "ruleset.cols", "between 2 and 5"),
        ({"cols": 4, "rows": 3}, "ruleset.cols", "3x4 is not supported"),
        ({"rows": 3, "cols": 2}, "ruleset.cols", "3x2 is not supported"),
        ({"face_up_at_start": 7}, "ruleset.face_up_at_start", "more than the 6 cards"),
        ({"face_up_at_start": -1}, "ruleset.face_up_at_start", "between 0"),
        ({"decks": 0}, "ruleset.decks", '"auto"'),
        ({"decks": "many"}, "ruleset.decks", '"auto"'),
        ({"min_decks": 9}, "ruleset.min_decks", "between 1 and 8"),
        ({"jokers": 1}, "ruleset.jokers", "0 or 2"),
        ({"values": [1, 2]}, "ruleset.values", "rank → points"),
        ({"values": {"Z": 3}}, "ruleset.values.Z", "not a rank"),
        ({"values": {"Q": "ten"}}, "ruleset.values.Q", "whole number"),
        ({"values": {"Q": 1.5}}, "ruleset.values.Q", "whole number"),
        ({"values": {"Q": 1000}}, "ruleset.values.Q", "between -100 and 100"),
        ({"match_lines": ["columns", "sideways"]}, "ruleset.match_lines", '"sideways"'),
        ({"match_lines": ["anywhere", "rows"]}, "ruleset.match_lines", "cannot be combined"),
        ({"match_lines": 3}, "ruleset.match_lines", "list"),
        ({"match_lines": ["diagonals"]}, "ruleset.match_lines", "only on 2x2 and 3x3"),
        ({"negative_matches": "drop"}, "ruleset.negative_matches", '"keep", "zero"'),
        ({"jokers_wild": "yes"}, "ruleset.jokers_wild", "true or false"),
        ({"jokers_wild": 1}, "ruleset.jokers_wild", "true or false"),
        ({"four_of_a_kind_block": 10}, "ruleset.four_of_a_kind_block", "null or"),
        ({"four_of_a_kind_block": {"points": 0}}, "ruleset.four_of_a_kind_block.others_add", "whole number"),
        (
            {"four_of_a_kind_block": {"points": 0, "others_add": 10, "bonus": 1}},
            "ruleset.four_of_a_kind_block.bonus",
            "Unknown key",
        ),
        ({"ender_penalty": "ten"}, "ruleset.ender_penalty", "null,"),
        ({"ender_penalty": {"kind": "double"}}, "ruleset.ender_penalty.kind", '"fixed" or "lowest_score"'),
        ({"ender_penalty": {"kind": "fixed"}}, "ruleset.ender_penalty.points", "needs points"),
        ({"ender_penalty": {"kind": "fixed", "points": -5}}, "ruleset.ender_penalty.points", "from 0"),
        (
            {"ender_penalty": {"kind": "lowest_score", "points": 5}},
            "ruleset.ender_penalty.points",
            "takes no points",
        ),
        ({"ender_penalty": {"kind": "fixed", "points": 5, "x": 1}}, "ruleset.ender_penalty.x", "Unknown key"),
        ({"ender_penalty_on_tie": "no"}, "ruleset.ender_penalty_on_tie", "true or false"),
        ({"hole_end": "timer"}, "ruleset.hole_end", '"all_face_up", "knock", "either"'),
        ({"holes": 0}, "ruleset.holes", "between 1 and 99"),
        ({"holes": "nine"}, "ruleset.holes", "whole number or null"),
        ({"target_score": 0}, "ruleset.target_score", "between 1"),
        ({"tiebreakers": "countback"}, "ruleset.tiebreakers", "must be a list"),
        ({"tiebreakers": ["coin_toss"]}, "ruleset.tiebreakers", '"coin_toss"'),
        ({"tiebreakers": ["countback", "countback"]}, "ruleset.tiebreakers", "listed twice"),
    ],
)
def test_it_rejects_a_bad_override_naming_the_parameter(override: dict, where: str, words: str) -> None:
    problems = problems_of({"preset": "official", **override})
    assert where in problems, problems
    assert words in problems[where]


def test_it_rejects_a_block_rule_on_a_three_row_grid() -> None:
    problems = problems_of({"preset": "nine-card", "four_of_a_kind_block": {"points": 0, "others_add": 10}})
    assert "not on 3x3" in problems["ruleset.four_of_a_kind_block"]


def test_it_allows_diagonals_on_2x2_and_3x3() -> None:
    assert "diagonals" in resolve_ruleset({"preset": "four-card", "match_lines": ["diagonals"]}).match_lines
    assert "diagonals" in resolve_ruleset({"preset": "nine-card", "match_lines": ["diagonals"]}).match_lines


def test_it_allows_no_match_lines_at_all() -> None:
    # seed 001 part 4: "Pairs don't cancel out at all."
    assert resolve_ruleset({"preset": "four-card", "match_lines": []}).match_lines == frozenset()


def test_it_collects_every_problem_before_raising() -> None:
    problems = problems_of(
        {"preset": "official", "rows": 9, "jokers": 3, "colour": "red", "values": {"Z": 1, "Q": "x"}}
    )
    assert set(problems) == {
        "ruleset.rows",
        "ruleset.jokers",
        "ruleset.colour",
        "ruleset.values.Z",
        "ruleset.values.Q",
    }


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        ("poker", "ruleset"),
        ({"preset": "poker"}, "ruleset.preset"),
        ({"preset": 3}, "ruleset.preset"),
        (42, "ruleset"),
    ],
)
def test_it_rejects_an_unknown_preset(spec: Any, where: str) -> None:
    problems = problems_of(spec)
    assert where in problems


def test_it_lists_the_presets_when_one_is_unknown() -> None:
    assert "official-quick" in problems_of("poker")["ruleset"]


def test_it_takes_the_official_preset_when_only_overrides_are_given() -> None:
    ruleset = resolve_ruleset({"holes": 6})
    assert ruleset.preset == "official"
    assert ruleset.holes == 6


def test_it_keeps_rulesets_frozen_and_hashable() -> None:
    ruleset = PRESETS["official"]
    with pytest.raises(AttributeError):
        ruleset.holes = 3  # type: ignore[misc]
    assert len({ruleset, resolve_ruleset(ruleset.to_dict()), PRESETS["basic"]}) == 2
    assert isinstance(ruleset, Ruleset)


def test_it_accepts_rule_objects_as_overrides() -> None:
    ruleset = resolve_ruleset(
        {
            "preset": "basic",
            "four_of_a_kind_block": BlockRule(0, 10),
            "ender_penalty": EnderPenalty("lowest_score"),
        }
    )
    assert ruleset.four_of_a_kind_block == BlockRule(0, 10)
    assert ruleset.ender_penalty == EnderPenalty("lowest_score")


@pytest.mark.parametrize(
    ("value", "shown"), [({"a": 1}, "an object"), (1.5, "1.5"), (10**12, "a number"), (object, "type")]
)
def test_it_names_the_type_of_a_wrong_value(value: Any, shown: str) -> None:
    assert shown in problems_of({"preset": "official", "hole_end": value})["ruleset.hole_end"]


def test_it_pickles_and_copies_by_parameters_only() -> None:
    import copy
    import pickle

    from scoring.rules import score_grid

    ruleset = resolve_ruleset({"preset": "nine-card", "jokers": 2, "jokers_wild": True})
    score_grid([["Q", "X", "Q"], ["3", "4", "5"], ["6", "7", "8"]], ruleset)  # fills the engine memo
    for clone in (pickle.loads(pickle.dumps(ruleset)), copy.deepcopy(ruleset), copy.copy(ruleset)):
        assert clone == ruleset
        assert clone.overrides == ruleset.overrides
        assert clone.value_of("X") == -2
        assert score_grid([["Q", "X", "Q"], ["3", "4", "5"], ["6", "7", "8"]], clone).total == 31


def test_it_shares_one_instance_of_equal_rulesets() -> None:
    spec = {"preset": "basic", "match_lines": ["anywhere"], "jokers": 2, "jokers_wild": True}
    first = resolve_ruleset(spec)
    assert resolve_ruleset(dict(spec)) is first
    assert resolve_ruleset(first.to_dict()) is first
    assert resolve_ruleset({"preset": "official", "holes": 9}) is PRESETS["official"]
