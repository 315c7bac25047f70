"""Random rulesets for the phone engine's conformance test: valid ones drawn from the PARAMETERS space
(every preset, random overrides: jokers, blocks, diagonals, every match kind, ender penalties,
tiebreakers) and broken ones (every kind of refusal `resolve_ruleset` names)."""

from __future__ import annotations

import random
from typing import Any

from scoring.rules import PRESETS, RANKS, RulesetError, resolve_ruleset
from scoring.rules.ruleset import HOLE_ENDS, SHAPES, TIEBREAKERS

PRESET_NAMES = list(PRESETS)
_ALIASES = {"10": ["10", "T", "t"], "X": ["X", "x", "JK", "jk"]}


def rank_key(rng: random.Random, rank: str) -> str:
    """A rank as a player may type it in `values`: "Q", "q", " T ", "jk"."""
    text = rng.choice(_ALIASES.get(rank, [rank, rank.lower()]))
    return f" {text} " if rng.random() < 0.05 else text


def _values(rng: random.Random) -> dict[str, int]:
    ranks = rng.sample(RANKS, rng.randint(1, 6))
    wide = rng.random() < 0.1
    return {rank_key(rng, r): rng.randint(-100, 100) if wide else rng.randint(-6, 15) for r in ranks}


def _match_lines(rng: random.Random, shape: tuple[int, int]) -> Any:
    roll = rng.random()
    if roll < 0.12:
        return ["anywhere"]
    if roll < 0.17:
        return []
    if roll < 0.2:
        return rng.choice(["columns", "rows"])
    lines = [kind for kind in ("columns", "rows") if rng.random() < 0.6]
    if shape[0] == shape[1] and rng.random() < 0.5:
        lines.append("diagonals")
    rng.shuffle(lines)
    return lines


def _ender(rng: random.Random) -> Any:
    return rng.choice([None, {"kind": "fixed", "points": rng.randint(0, 25)}, {"kind": "lowest_score"}])


def _tiebreakers(rng: random.Random) -> list[str]:
    return rng.sample(TIEBREAKERS, rng.randint(0, len(TIEBREAKERS)))


def random_spec(rng: random.Random) -> Any:
    """A ruleset spec that should resolve: a preset name, or a preset and 1-8 random overrides."""
    preset = rng.choice(PRESET_NAMES)
    if rng.random() < 0.1:
        return rng.choice([preset, preset.upper(), f" {preset} "])
    spec: dict[str, Any] = {"preset": preset}
    base = PRESETS[preset]
    shape = (base.rows, base.cols)
    if rng.random() < 0.35:
        shape = rng.choice(SHAPES)
        spec["rows"], spec["cols"] = shape
    size = shape[0] * shape[1]
    makers = {
        "face_up_at_start": lambda: rng.randint(0, size),
        "decks": lambda: rng.choice(["auto", 1, 1, 2, 3, 8]),
        "min_decks": lambda: rng.randint(1, 3),
        "jokers": lambda: rng.choice([0, 2, 2]),
        "values": lambda: _values(rng),
        "match_lines": lambda: _match_lines(rng, shape),
        "negative_matches": lambda: rng.choice(["keep", "zero"]),
        "jokers_wild": lambda: rng.random() < 0.6,
        "four_of_a_kind_block": lambda: (
            {"points": rng.randint(-20, 10), "others_add": rng.randint(0, 20)} if shape[0] == 2 else None
        ),
        "ender_penalty": lambda: _ender(rng),
        "ender_penalty_on_tie": lambda: rng.random() < 0.5,
        "hole_end": lambda: rng.choice(HOLE_ENDS),
        "holes": lambda: rng.choice([None, 1, 2, 3, 5, 9, 18, rng.randint(1, 99)]),
        "target_score": lambda: rng.choice([None, None, rng.randint(5, 120)]),
        "tiebreakers": lambda: _tiebreakers(rng),
    }
    for name in rng.sample(list(makers), rng.randint(1, 8)):
        spec[name] = makers[name]()
    if rng.random() < 0.4:  # the ender's penalty, and a tie for it, in many more tables
        spec["ender_penalty"] = rng.choice(
            [{"kind": "fixed", "points": rng.randint(0, 25)}, {"kind": "lowest_score"}]
        )
        spec["ender_penalty_on_tie"] = rng.random() < 0.6
    if spec.get("holes", base.holes) is None and spec.get("target_score") is None and rng.random() < 0.5:
        spec["holes"] = rng.randint(1, 12)
    return spec


_BAD_VALUES: dict[str, list[Any]] = {
    "rows": [4, 1, "2", 2.5, True, None, 10**10],
    "cols": [6, 1, "x", 3.5, -1],
    "face_up_at_start": [10, -1, "2", 7],
    "decks": [0, 9, "many", 1.5, None, True, "AUTO"],
    "min_decks": [0, 9, "1", None],
    "jokers": [1, 4, "2", True, None],
    "values": [
        [],
        "Q",
        {"Z": 3},
        {"Q": 101},
        {"Q": -101},
        {"Q": "ten"},
        {"Q": 2.5},
        {"1": 3, "q": 4},
        {"q": None},
        {"K": 1, "11": 2, "2": "x"},
        7,
    ],
    "match_lines": [
        "sideways",
        ["$`rows"],
        ["anywhere", "rows"],
        [1],
        {"a": 1},
        5,
        ["diagonals"],
        ["rows", "rows", None],
        None,
    ],
    "negative_matches": ["never", 1, None, "Keep"],
    "jokers_wild": ["yes", 1, None],
    "four_of_a_kind_block": [
        {"points": 1},
        {"points": 1, "others_add": 2, "x": 3},
        5,
        "big",
        {"points": 200, "others_add": 1},
        [],
        {"points": True, "others_add": 1},
    ],
    "ender_penalty": [
        {"kind": "fixed"},
        {"kind": "fixed", "points": -1},
        {"kind": "lowest_score", "points": 3},
        {"kind": "other"},
        {"kind": "fixed", "points": 5, "extra": 1},
        "fixed",
        3,
        {},
        {"kind": "lowest_score", "x": 1},
    ],
    "ender_penalty_on_tie": ["no", 0],
    "hole_end": ["never", 3, ["knock"]],
    "holes": [0, 100, "9", 9.5, False],
    "target_score": [0, 10001, "100", -5],
    "tiebreakers": [
        "countback",
        ["coin"],
        ["$&", "$'"],
        ["countback", "countback"],
        [1, "shared"],
        {"a": 1},
        None,
    ],
    "colour": ["red"],
    "Rows": [2],
    "3": [1],
}
_BAD_SPECS: list[Any] = [
    5,
    None,
    [],
    ["official"],
    "nonexistent",
    "",
    {"preset": 5},
    {"preset": "nope"},
    {"preset": None},
    {"preset": ["official"]},
    True,
    2.5,
    {"preset": " Ten-Card "},
    {"match_lines": ["diagonals", "rows"]},
    {"preset": "nine-card", "four_of_a_kind_block": {"points": 0, "others_add": 1}},
    {"face_up_at_start": 9},
    {"rows": 3, "cols": 4},
    {"preset": "four-card", "cols": 5, "rows": 3},
    {"preset": "ten-card", "match_lines": "diagonals", "face_up_at_start": 11},
    {"rows": 3, "jokers": 3},
    {"preset": "official-quick", "match_lines": ["anywhere", "diagonals"]},
    {"cols": 4, "rows": 4},
]


def bad_spec(rng: random.Random) -> Any:
    """A spec with 1-3 wrong parameters (or a wrong shape of spec): a refusal case."""
    if rng.random() < 0.08:
        return rng.choice(_BAD_SPECS)
    spec = random_spec(rng)
    if not isinstance(spec, dict):
        spec = {"preset": PRESET_NAMES[0]}
    for name in rng.sample(list(_BAD_VALUES), rng.randint(1, 3)):
        spec[name] = rng.choice(_BAD_VALUES[name])
    return spec


def ruleset_pool(rng: random.Random, size: int) -> tuple[list[Any], list[Any]]:
    """`size` specs that resolve (the presets first) and the random ones that were refused."""
    pool: list[Any] = list(PRESET_NAMES)
    refused: list[Any] = []
    while len(pool) < size:
        spec = random_spec(rng)
        try:
            resolve_ruleset(spec)
        except RulesetError:
            refused.append(spec)
            continue
        pool.append(spec)
    return pool, refused
