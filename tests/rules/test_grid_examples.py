"""Worked examples from the rule sources, one table per preset (SPEC "How a grid scores", "Presets").

Each case's id names the source line it comes from."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import PRESETS, resolve_ruleset, score_grid

G = list[list[str]]

CASES: list[tuple[str, Any, G, int]] = [
    # --- official (000 §2, §5.1) ---
    ("000 §2.3 Example 1: Q/Q column scores 0", "official", [["Q", "3", "4"], ["Q", "5", "6"]], 18),
    ("000 §2.3 Example 2: 7/7 column scores 0", "official", [["3", "7", "4"], ["5", "7", "6"]], 18),
    ("SPEC contract example: Q/Q and 7/7 columns, K + 3", "official", [["Q", "7", "K"], ["Q", "7", "3"]], 3),
    ("000 §2.3 Special case: a pair of 2s scores -4", "official", [["2", "3", "4"], ["2", "5", "6"]], 14),
    (
        "000 §2.3 Important: 7s in the same row do not pair",
        "official",
        [["7", "7", "K"], ["A", "3", "K"]],
        18,
    ),
    ("000 §7: a pair of Kings in a column scores 0", "official", [["K", "3", "4"], ["K", "5", "6"]], 18),
    ("000 §2.2: A 1, 9 9, J/Q/10 10, 4 4", "official", [["A", "9", "J"], ["4", "10", "Q"]], 44),
    ("000 §2.2: a lone 2 is -2, a King 0", "official", [["2", "K", "3"], ["4", "5", "K"]], 10),
    ("000 §2.2: suits never change points", "official", [["5H", "KD", "3S"], ["4C", "5S", "KC"]], 17),
    # --- official-quick (000 §5.2) ---
    ("000 §5.2: vertical pairs still apply on 2x2", "official-quick", [["Q", "3"], ["Q", "K"]], 3),
    ("000 §5.2: a 2x2 grid without pairs", "official-quick", [["2", "3"], ["J", "K"]], 11),
    # --- official-extended (000 §5.3) ---
    ("000 §5.3: same scoring as Classic", "official-extended", [["Q", "7", "K"], ["Q", "7", "3"]], 3),
    # --- official-jokers (000 §5.4) ---
    (
        "000 §5.4: joker -2, a 2 is +2 and 2/2 pairs to 0",
        "official-jokers",
        [["X", "2", "K"], ["A", "2", "5"]],
        4,
    ),
    (
        "000 §5.4 with rule 2.3: a joker pair keeps -4",
        "official-jokers",
        [["X", "3", "4"], ["X", "5", "6"]],
        14,
    ),
    # --- jokers-54 (004) ---
    ("004 §Card Deck: a column pair cancels to 0", "jokers-54", [["J", "3", "4"], ["J", "5", "6"]], 18),
    (
        "004 §Strategy: two Jacks in different columns are 20",
        "jokers-54",
        [["J", "K", "K"], ["K", "J", "K"]],
        20,
    ),
    ("004 §Card Deck: a lone joker is -2", "jokers-54", [["X", "K", "K"], ["3", "K", "A"]], 2),
    (
        "001 part 3 step 2: a pair of jokers goes from -4 to 0",
        "jokers-54",
        [["X", "3", "4"], ["X", "5", "6"]],
        18,
    ),
    # --- basic (001, 002) ---
    ("001 part 1 step 10: a Queen above a Queen cancels", "basic", [["Q", "2", "9"], ["Q", "2", "A"]], 10),
    ("001 scoring guide, basic: a 2 is 2 points", "basic", [["2", "3", "4"], ["5", "6", "7"]], 27),
    # --- harder (001 scoring guide) ---
    ("001 scoring guide, harder: J 11, Q 12, K 13", "harder", [["J", "Q", "K"], ["A", "2", "3"]], 42),
    (
        "001 scoring guide, harder: a King pair still cancels",
        "harder",
        [["K", "Q", "J"], ["K", "5", "5"]],
        33,
    ),
    # --- four-card (001 part 2) ---
    ("001 part 2 step 8: a pair in a row is worth 0", "four-card", [["Q", "Q"], ["3", "5"]], 8),
    ("001 part 2 step 8: a pair in a column is worth 0", "four-card", [["Q", "3"], ["Q", "5"]], 8),
    ("001 part 2 step 8: of three of a kind only two cancel", "four-card", [["Q", "Q"], ["Q", "5"]], 15),
    ("001 part 2 step 8: four of a kind, the grid is worth 0", "four-card", [["Q", "Q"], ["Q", "Q"]], 0),
    ("001 part 2: diagonal cards do not pair by default", "four-card", [["Q", "3"], ["5", "Q"]], 28),
    # --- eight-card (001 part 4, 002) ---
    (
        "001 part 4 step 1: 6-card rules on a 4x2 grid",
        "eight-card",
        [["Q", "3", "4", "5"], ["Q", "K", "4", "A"]],
        9,
    ),
    # --- ten-card (001 part 4) ---
    (
        "001 part 4 step 1: 6-card rules on a 5x2 grid",
        "ten-card",
        [["7", "7", "A", "2", "3"], ["7", "9", "A", "J", "3"]],
        28,
    ),
    # --- nine-card (001 part 4, 002) ---
    (
        "001 part 4 step 3: three of a kind in a row cancel",
        "nine-card",
        [["Q", "Q", "Q"], ["5", "6", "7"], ["Q", "8", "9"]],
        45,
    ),
    (
        "001 part 4 step 3: three of a kind in a column cancel",
        "nine-card",
        [["3", "Q", "4"], ["5", "Q", "6"], ["7", "Q", "8"]],
        33,
    ),
    (
        "001 part 4 step 3: a pair in a column does not cancel",
        "nine-card",
        [["Q", "3", "4"], ["Q", "5", "6"], ["7", "8", "9"]],
        62,
    ),
    (
        "001 part 4 step 3: a card cancels in one line only",
        "nine-card",
        [["Q", "Q", "Q"], ["Q", "5", "6"], ["Q", "8", "9"]],
        48,
    ),
    # --- anywhere-pairs (001 part 4) ---
    (
        "001 part 4 step 4: two equal cards anywhere cancel",
        "anywhere-pairs",
        [["Q", "3", "5"], ["4", "Q", "6"]],
        18,
    ),
    (
        "001 part 2 step 8 + part 4: three Queens, one pair",
        "anywhere-pairs",
        [["Q", "Q", "Q"], ["3", "4", "5"]],
        22,
    ),
    ("001 part 4 step 4: two pairs anywhere", "anywhere-pairs", [["Q", "3", "5"], ["3", "Q", "5"]], 0),
    # --- variants by override ---
    (
        "SPEC negative_matches example: zero makes the 2/2 column 0",
        {"preset": "official", "negative_matches": "zero"},
        [["2", "K", "4"], ["2", "5", "4"]],
        5,
    ),
    (
        "000 §9.1 house rule: horizontal pairs score 0",
        {"preset": "official", "match_lines": ["columns", "rows"]},
        [["7", "7", "K"], ["A", "3", "5"]],
        9,
    ),
    (
        "001 part 4 step 5: pairs across diagonally cancel",
        {"preset": "four-card", "match_lines": ["columns", "rows", "diagonals"]},
        [["Q", "3"], ["5", "Q"]],
        8,
    ),
    (
        "002 / 001 part 4: diagonals of three on 3x3",
        {"preset": "nine-card", "match_lines": ["columns", "rows", "diagonals"]},
        [["Q", "3", "4"], ["5", "Q", "6"], ["7", "8", "Q"]],
        33,
    ),
    (
        "001 part 4 step 5: pairs don't cancel at all",
        {"preset": "four-card", "match_lines": []},
        [["Q", "Q"], ["Q", "Q"]],
        40,
    ),
    (
        "001 part 4 step 4: four of a kind in adjacent columns cancel",
        {"preset": "basic", "four_of_a_kind_block": {"points": 0, "others_add": 10}},
        [["Q", "Q", "3"], ["Q", "Q", "4"]],
        7,
    ),
    (
        "001 Q&A: four 2s in a block are -20",
        {"preset": "basic", "four_of_a_kind_block": {"points": -20, "others_add": 0}},
        [["2", "2", "3"], ["2", "2", "4"]],
        -13,
    ),
    (
        "001 Q&A: a block needs side-by-side columns, not columns at both ends",
        {"preset": "basic", "four_of_a_kind_block": {"points": -20, "others_add": 10}},
        [["2", "3", "2"], ["2", "4", "2"]],
        7,
    ),
    (
        "002 What is a Joker worth: a wild joker matches its column",
        {"preset": "jokers-54", "jokers_wild": True},
        [["X", "3", "4"], ["Q", "5", "6"]],
        18,
    ),
    (
        "002 + 000 §5.4: a wild joker keeps -2 with negatives keep",
        {"preset": "official-jokers", "jokers_wild": True},
        [["X", "3", "4"], ["Q", "5", "6"]],
        16,
    ),
    (
        "002 What is a Joker worth: in 9-card a joker stands in a line of three",
        {"preset": "nine-card", "jokers": 2, "jokers_wild": True},
        [["Q", "X", "Q"], ["3", "4", "5"], ["6", "7", "8"]],
        31,
    ),
    (
        "002 What is a Joker worth: an unmatched joker in 9-card scores its value",
        {"preset": "nine-card", "jokers": 2, "jokers_wild": True},
        [["X", "3", "4"], ["5", "6", "7"], ["8", "9", "10"]],
        50,
    ),
    (
        "SPEC How a grid scores 2: the lowest of the maximal match sets counts",
        {"preset": "basic", "match_lines": ["columns", "rows"], "jokers": 2, "jokers_wild": True},
        [["X", "Q", "K"], ["Q", "A", "5"]],
        14,
    ),
    (
        "SPEC How a grid scores 3: with zero, a joker pair is 0 although -4 is lower",
        {"preset": "jokers-54", "match_lines": ["anywhere"]},
        [["X", "X", "3"], ["4", "5", "6"]],
        18,
    ),
    (
        "SPEC How a grid scores 2 + 002: a wild joker stays unmatched when every other card pairs",
        {"preset": "jokers-54", "rows": 3, "cols": 3, "match_lines": ["anywhere"], "jokers_wild": True},
        [["X", "Q", "Q"], ["K", "K", "5"], ["5", "A", "A"]],
        -2,
    ),
    (
        "SPEC How a grid scores 2 + 002: a wild joker takes the odd card worth most",
        {"preset": "jokers-54", "match_lines": ["anywhere"], "jokers_wild": True},
        [["X", "Q", "Q"], ["3", "9", "3"]],
        0,
    ),
    (
        "004 §Strategy: a perfect hand of three joker columns is -12 when negatives keep",
        {"preset": "official-jokers", "decks": 3},
        [["X", "X", "X"], ["X", "X", "X"]],
        -12,
    ),
    (
        "SPEC presets: the same perfect hand is 0 in jokers-54 (negatives zero)",
        "jokers-54",
        [["X", "X", "X"], ["X", "X", "X"]],
        0,
    ),
]


@pytest.mark.parametrize(("source", "ruleset", "grid", "total"), CASES, ids=[case[0] for case in CASES])
def test_it_scores_the_worked_examples_of_the_sources(source: str, ruleset: Any, grid: G, total: int) -> None:
    result = score_grid(grid, resolve_ruleset(ruleset))
    assert result.total == total, "\n".join(result.explanation)
    assert sum(card.points for card in result.cards) + sum(block.points for block in result.blocks) == total


def test_it_covers_every_preset_with_a_worked_example() -> None:
    assert {case[1] for case in CASES if isinstance(case[1], str)} == set(PRESETS)
