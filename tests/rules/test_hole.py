"""How a hole scores (SPEC "How a hole scores"): grid scores, opponent blocks, the ender penalty."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.rules import (
    PRESETS,
    DeckError,
    GridError,
    PlayerEntry,
    RulesError,
    check_table_cards,
    parse_grid,
    resolve_ruleset,
    score_hole,
)

FIXED_10 = resolve_ruleset({"preset": "official", "ender_penalty": {"kind": "fixed", "points": 10}})
LOWEST = resolve_ruleset({"preset": "basic", "ender_penalty": {"kind": "lowest_score"}})
LOWEST_OFFICIAL = resolve_ruleset({"preset": "official", "ender_penalty": {"kind": "lowest_score"}})
BLOCKS = resolve_ruleset({"preset": "basic", "four_of_a_kind_block": {"points": 0, "others_add": 10}})


def scores(hole: Any) -> dict[str, int]:
    return {player.name: player.score for player in hole.players}


def test_it_scores_the_contract_example_with_a_fixed_ender_penalty() -> None:
    hole = score_hole(
        {"ann": [["9", "K", "Q"], ["A", "K", "Q"]], "bob": [["3", "J", "5"], ["K", "J", "5"]]},
        FIXED_10,
        ender="ann",
    )
    ann, bob = hole.players
    assert (ann.grid_score, ann.score, bob.grid_score, bob.score) == (10, 20, 3, 3)
    (penalty,) = ann.adjustments
    assert (penalty.kind, penalty.points, penalty.rule) == ("ender_penalty", 10, "seed 001")
    assert penalty.reason == "ann ended the hole and did not have the lowest score (bob: 3): +10 (seed 001)."
    assert bob.adjustments == ()


def test_it_scores_seed_001s_scrooge_and_marley_example() -> None:
    # 001 part 3 step 3: Scrooge knocks with 17, Marley has 12: Scrooge adds 12 and ends on 29.
    hole = score_hole({"Scrooge": 17, "Marley": 12}, LOWEST, ender="Scrooge")
    assert scores(hole) == {"Scrooge": 29, "Marley": 12}
    assert hole.players[0].typed
    assert hole.players[0].adjustments[0].reason.endswith("adds the lowest score, +12 (seed 001).")


@pytest.mark.parametrize("lowest", [0, -3])
def test_it_adds_no_lowest_score_that_is_zero_or_negative(lowest: int) -> None:
    # SPEC "How a hole scores": adding a zero or negative score is no penalty (project decision).
    # Under the official values (2 = -2), since no grid scores below 0 under the basic ones.
    hole = score_hole({"ann": 17, "bob": lowest}, LOWEST_OFFICIAL, ender="ann")
    assert scores(hole) == {"ann": 17, "bob": lowest}


def test_it_leaves_an_ender_with_the_lowest_score_alone() -> None:
    hole = score_hole({"ann": 4, "bob": 9, "cy": 12}, FIXED_10, ender="ann")
    assert scores(hole) == {"ann": 4, "bob": 9, "cy": 12}


def test_it_penalises_a_tie_only_with_ender_penalty_on_tie() -> None:
    assert scores(score_hole({"ann": 9, "bob": 9}, FIXED_10, ender="ann"))["ann"] == 9
    on_tie = resolve_ruleset({**FIXED_10.to_dict(), "ender_penalty_on_tie": True})
    hole = score_hole({"ann": 9, "bob": 9}, on_tie, ender="ann")
    assert scores(hole)["ann"] == 19
    assert "tied for the lowest score" in hole.players[0].adjustments[0].reason


def test_it_ignores_the_ender_without_an_ender_penalty() -> None:
    hole = score_hole({"ann": 30, "bob": 2}, PRESETS["official"], ender="ann")
    assert scores(hole) == {"ann": 30, "bob": 2}
    assert hole.ender == "ann"


def test_it_adds_others_add_to_every_opponent_of_a_block() -> None:
    hole = score_hole(
        {"ann": [["Q", "Q", "3"], ["Q", "Q", "4"]], "bob": [["A", "5", "6"], ["7", "8", "9"]], "cy": 5},
        BLOCKS,
    )
    assert scores(hole) == {"ann": 7, "bob": 36 + 10, "cy": 15}
    assert hole.players[1].adjustments[0].kind == "block_others_add"
    assert hole.players[1].adjustments[0].reason.startswith("ann has a four-of-a-kind block: +10")
    assert hole.players[0].adjustments == ()


def test_it_counts_blocks_marked_by_hand_on_typed_totals() -> None:
    hole = score_hole([PlayerEntry("ann", total=3, blocks_marked=1), PlayerEntry("bob", total=20)], BLOCKS)
    assert scores(hole) == {"ann": 3, "bob": 30}


def test_it_applies_the_ender_penalty_after_block_adjustments() -> None:
    ruleset = resolve_ruleset({**BLOCKS.to_dict(), "ender_penalty": {"kind": "fixed", "points": 10}})
    # bob ends on 8 against ann's 3; ann's block gives bob +10 first: 18, then +10 for ending: 28.
    hole = score_hole(
        [PlayerEntry("ann", total=3, blocks_marked=1), PlayerEntry("bob", total=8)], ruleset, "bob"
    )
    assert scores(hole) == {"ann": 3, "bob": 28}
    assert [a.kind for a in hole.players[1].adjustments] == ["block_others_add", "ender_penalty"]


def test_it_keeps_seat_order_and_serialises_the_contract_shape() -> None:
    hole = score_hole(
        {"bob": [["3", "J", "5"], ["K", "J", "5"]], "ann": [["9", "K", "Q"], ["A", "K", "Q"]]},
        FIXED_10,
        "ann",
    )
    data = json.loads(json.dumps(hole.to_dict()))
    assert [p["name"] for p in data["players"]] == ["bob", "ann"]
    assert data["ender"] == "ann"
    assert data["decks"] == 1
    ann = data["players"][1]
    assert {"name", "grid_score", "typed", "adjustments", "score", "grid"} <= set(ann)
    assert ann["adjustments"][0]["points"] == 10
    assert ann["grid"]["total"] == 10
    assert "grid" not in score_hole({"ann": 4}, FIXED_10).to_dict()["players"][0]
    assert hole.score_of("ann") == 20


def test_it_reports_the_packs_in_play() -> None:
    assert score_hole({f"p{i}": 5 for i in range(5)}, PRESETS["basic"]).decks == 2
    assert score_hole({"a": 5, "b": 5}, PRESETS["nine-card"]).decks == 2


# --- deck checks across the table ---------------------------------------------------------------


def test_it_rejects_more_of_a_rank_across_the_table_than_the_packs_hold() -> None:
    with pytest.raises(DeckError) as error:
        score_hole(
            {"ann": [["Q", "Q", "Q"], ["A", "3", "4"]], "bob": [["Q", "Q", "5"], ["6", "7", "8"]], "cy": 12},
            PRESETS["official"],
        )
    assert error.value.problems[0].where == "grids"
    assert error.value.message == "5 Queens entered across the table, but 1 pack holds only 4 (ann 3, bob 2)."


def test_it_names_the_player_when_one_grid_alone_is_over() -> None:
    with pytest.raises(DeckError) as error:
        score_hole({"ann": [["Q", "Q", "Q"], ["Q", "Q", "4"]], "bob": 3}, PRESETS["official"])
    assert error.value.problems[0].where == "grids.ann[1][1]"


def test_it_rejects_an_exact_card_held_twice_at_the_table() -> None:
    with pytest.raises(DeckError, match=r"Queen of Hearts \(QH\) is entered 2 times across the table"):
        score_hole(
            {"ann": [["QH", "2", "3"], ["4", "5", "6"]], "bob": [["QH", "2", "3"], ["4", "5", "6"]]}, FIXED_10
        )


def test_it_lets_more_players_bring_more_packs() -> None:
    grids = {f"p{i}": [["Q", "Q", "3"], ["4", "5", "6"]] for i in range(4)}
    with pytest.raises(DeckError, match="8 Queens entered across the table, but 1 pack holds only 4"):
        score_hole(grids, resolve_ruleset({"preset": "basic", "decks": 1}))
    assert score_hole(grids, PRESETS["basic"]).decks == 2  # auto: 4 players, 2 packs hold 8 Queens


def test_it_can_skip_the_deck_check() -> None:
    grids = {f"p{i}": [["Q", "Q", "3"], ["4", "5", "6"]] for i in range(3)}
    assert len(score_hole(grids, PRESETS["official"], check_decks=False).players) == 3


def test_it_checks_tables_directly() -> None:
    grids = {"ann": parse_grid([["X", "X"], ["3", "4"]]), "bob": parse_grid([["X", "5"], ["6", "7"]])}
    with pytest.raises(DeckError, match="3 Jokers entered across the table, but 1 pack holds only 2"):
        check_table_cards(grids, resolve_ruleset({"preset": "official-quick", "jokers": 2}))


# --- bad entries ----------------------------------------------------------------------------------


def problems(entries: Any, ruleset: Any = BLOCKS, ender: str | None = None) -> dict[str, str]:
    with pytest.raises(RulesError) as error:
        score_hole(entries, ruleset, ender=ender)
    return {p.where: p.message for p in error.value.problems}


def test_it_rejects_an_ender_who_is_not_playing() -> None:
    assert 'The ender "zed" is not one of the players' in problems({"ann": 3}, ender="zed")["ender"]


def test_it_rejects_a_player_listed_twice() -> None:
    assert "listed twice" in problems([PlayerEntry("ann", total=3), PlayerEntry("ann", total=4)])["grids.ann"]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        (PlayerEntry("ann"), "Enter ann's grid or hole total."),
        (PlayerEntry("ann", grid=[["Q", "3", "4"], ["5", "6", "7"]], total=3), "not both"),
        (PlayerEntry("ann", total=True), "whole number"),  # type: ignore[arg-type]
        (PlayerEntry("ann", total=5000), "from -1000 to 1000"),
    ],
)
def test_it_rejects_an_entry_without_exactly_one_whole_score(entry: PlayerEntry, words: str) -> None:
    assert words in problems([entry])["grids.ann"]


def test_it_rejects_a_score_that_is_not_a_grid_or_a_number() -> None:
    with pytest.raises(GridError):
        score_hole({"ann": "twelve"}, BLOCKS)


@pytest.mark.parametrize(
    ("entry", "ruleset", "words"),
    [
        (PlayerEntry("ann", total=3, blocks_marked=-1), BLOCKS, "0 or more"),
        (PlayerEntry("ann", total=3, blocks_marked=1), PRESETS["basic"], "no four-of-a-kind block rule"),
        (PlayerEntry("ann", total=3, blocks_marked=2), BLOCKS, "holds at most 1 block."),
        (
            PlayerEntry("ann", grid=[["Q", "Q", "3"], ["Q", "Q", "4"]], blocks_marked=1),
            BLOCKS,
            "found from the cards",
        ),
    ],
)
def test_it_rejects_impossible_marked_blocks(entry: PlayerEntry, ruleset: Any, words: str) -> None:
    assert words in problems([entry], ruleset)["grids.ann.blocks_marked"]


def test_it_names_the_player_row_and_column_of_a_bad_card() -> None:
    found = problems({"ann": [["Q", "3", "4"], ["5", "1Z", "7"]], "bob": [["Q", "3"], ["5", "6"]], "cy": 4})
    assert found["grids.ann[2][2]"].startswith('Unknown card "1Z" at row 2, column 2')
    assert "plays 2x3 grids" in found["grids.bob"]


def test_it_rejects_an_empty_table() -> None:
    assert "at least one player" in problems({})["grids"]


def test_it_takes_player_entries_in_a_mapping() -> None:
    hole = score_hole({"ann": PlayerEntry("ann", total=3, blocks_marked=1), "bob": 8}, BLOCKS)
    assert scores(hole) == {"ann": 3, "bob": 18}


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ("ann", "as a list or a mapping"),
        (42, "as a list or a mapping"),
        (["ann"], "Expected a player entry"),
        ([PlayerEntry(" ", total=3)], "Every player needs a name"),
    ],
)
def test_it_rejects_entries_that_are_not_players(entries: Any, words: str) -> None:
    with pytest.raises(GridError, match=words):
        score_hole(entries, BLOCKS)
