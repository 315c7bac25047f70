"""Card notation (SPEC "Cards"): every accepted spelling, canonical tokens, and errors that say where."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golfclub.core.errors import answered_body
from scoring.rules import RANKS, SUITS, Card, CardError, GridError, format_grid, parse_card, parse_grid


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("Q", Card("Q")),
        ("q", Card("Q")),
        ("10", Card("10")),
        ("T", Card("10")),
        ("t", Card("10")),
        ("10h", Card("10", "H")),
        ("TH", Card("10", "H")),
        ("QS", Card("Q", "S")),
        ("x", Card("X")),
        ("X", Card("X")),
        ("JK", Card("X")),
        ("jk", Card("X")),
        ("J", Card("J")),
        ("JS", Card("J", "S")),
        ("A♠", Card("A", "S")),
        ("K♥", Card("K", "H")),
        ("7♦", Card("7", "D")),
        ("2♣", Card("2", "C")),
        ("  9c ", Card("9", "C")),
        ("10 d", Card("10", "D")),
    ],
)
def test_it_parses_every_notation_of_the_spec(token: str, card: Card) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize(("card", "text"), [(Card("10", "H"), "10H"), (Card("Q"), "Q"), (Card("X"), "X")])
def test_it_prints_the_canonical_token(card: Card, text: str) -> None:
    assert str(card) == text


@given(st.sampled_from(RANKS), st.sampled_from((None, *SUITS)))
def test_it_parses_its_own_output_back_for_any_card(rank: str, suit: str | None) -> None:
    card = Card(rank, None if rank == "X" else suit)
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card


def test_it_gives_a_card_a_readable_name() -> None:
    assert Card("Q", "H").name == "Queen of Hearts"
    assert Card("X").name == "Joker"
    assert Card("10").name == "10"


@pytest.mark.parametrize("token", ["1Z", "11", "1", "Z", "QQ", "10X", "KZ", "♠", "0"])
def test_it_rejects_a_bad_token_naming_it(token: str) -> None:
    with pytest.raises(CardError) as error:
        parse_card(token)
    assert f'"{token}"' in error.value.message


@pytest.mark.parametrize("token", ["XH", "JKs", "x♠"])
def test_it_rejects_a_joker_with_a_suit(token: str) -> None:
    with pytest.raises(CardError, match="Jokers take no suit"):
        parse_card(token)


@pytest.mark.parametrize("token", ["", "   "])
def test_it_rejects_an_empty_token(token: str) -> None:
    with pytest.raises(CardError, match="Missing card"):
        parse_card(token, "grid[2][1]")


@pytest.mark.parametrize("token", [None, 7, 1.5, ["Q"]])
def test_it_rejects_a_token_that_is_not_text(token: object) -> None:
    with pytest.raises(CardError, match="Expected a card token"):
        parse_card(token)  # type: ignore[arg-type]


def test_it_refuses_to_build_an_impossible_card() -> None:
    with pytest.raises(CardError):
        Card("Z")
    with pytest.raises(CardError):
        Card("X", "H")
    with pytest.raises(CardError):
        Card("Q", "Z")


def test_it_names_row_and_column_of_a_bad_card_one_based() -> None:
    with pytest.raises(CardError) as error:
        parse_grid([["Q", "7", "1Z"], ["Q", "7", "3"]])
    problem = error.value.problems[0]
    assert problem.where == "grid[1][3]"
    assert problem.message.startswith('Unknown card "1Z" at row 1, column 3')


def test_it_reports_every_bad_card_not_only_the_first() -> None:
    with pytest.raises(CardError) as error:
        parse_grid([["Q", "??", "K"], ["W", "7", "3"]], where="grids.ann")
    assert [p.where for p in error.value.problems] == ["grids.ann[1][2]", "grids.ann[2][1]"]
    assert answered_body(error.value)["detail"].startswith('Unknown card "??" at row 1, column 2')
    assert len(answered_body(error.value)["errors"]) == 2


def test_it_rejects_ragged_rows_saying_each_length() -> None:
    with pytest.raises(GridError) as error:
        parse_grid([["Q", "7", "K"], ["Q", "7"]])
    assert "row 1: 3, row 2: 2" in error.value.message
    assert error.value.problems[0].where == "grid"


@pytest.mark.parametrize("rows", [[], "QQQ", [["Q", "7"], "Q7"], [[], []], 5])
def test_it_rejects_what_is_not_a_grid(rows: object) -> None:
    with pytest.raises(GridError):
        parse_grid(rows)  # type: ignore[arg-type]


def test_it_round_trips_a_grid_through_its_tokens() -> None:
    grid = parse_grid([["10h", "jk", "q"], ["T♠", "a", "K"]])
    assert format_grid(grid) == [["10H", "X", "Q"], ["10S", "A", "K"]]
    assert parse_grid(format_grid(grid)) == grid
    assert parse_grid(grid) == grid


def test_it_builds_errors_from_a_message_or_problems() -> None:
    from scoring.rules import Problem, RulesError, cite

    error = RulesError("Something is wrong.", where="grid")
    assert answered_body(error) == {
        "detail": "Something is wrong.",
        "errors": [{"where": "grid", "message": "Something is wrong."}],
    }
    assert RulesError(Problem("ender", "No such player.")).problems == (Problem("ender", "No such player."),)
    with pytest.raises(ValueError, match="at least one problem"):
        RulesError([])
    assert str(RulesError([Problem("a", "One."), Problem("b", "Two.")])) == "One.; Two."
    assert [cite(key) for key in ("2.3", "seed 001", "project", "ruleset")] == [
        "rule 2.3",
        "seed 001",
        "project decision",
        "ruleset override",
    ]


def test_a_bad_card_message_offers_jokers_only_where_the_ruleset_plays_them():
    from scoring.rules import CardError, parse_card, parse_grid

    with pytest.raises(CardError) as with_jokers:
        parse_card("1Z", "grid[1][1]")
    assert "joker" in with_jokers.value.problems[0].message
    with pytest.raises(CardError) as without:
        parse_grid([["1Z", "5"], ["5", "K"]], "entries.Bob", jokers=False)
    message = without.value.problems[0].message
    assert message.startswith('Unknown card "1Z" at row 1, column 1') and "joker" not in message.lower()
