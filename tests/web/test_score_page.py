"""The "Score a grid" page (/score/) through Django's test client: plain form, htmx partials, hole mode."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from scoring.rules import PRESETS
from scoring.web.calculator.forms import rules_initial

pytestmark = pytest.mark.django_db

SPEC_GRID = [["Q", "7", "K"], ["Q", "7", "3"]]
HTMX = {"HTTP_HX_REQUEST": "true"}


def cells(grid: list[list[str]], player: int = 1) -> dict[str, str]:
    """Form fields for a grid: cell-<player>-<row>-<col>."""
    return {
        f"cell-{player}-{r}-{c}": token
        for r, row in enumerate(grid, start=1)
        for c, token in enumerate(row, start=1)
    }


def adjusted_rules(preset: str = "official", **changes: Any) -> dict[str, Any]:
    """Every rule control as the page draws it for `preset`, with some changed (as a person would)."""
    data: dict[str, Any] = {}
    for key, value in (rules_initial(PRESETS[preset]) | changes).items():
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif value is not None:
            data[key] = value
    return data


def text_of(html: str) -> str:
    """The page's text without tags, spaces collapsed (none before punctuation); inline links (the
    rule citations) are read as the words they are."""
    html = re.sub(r"</?a\b[^>]*>", "", html)
    text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()
    return re.sub(r" ([:.,])", r"\1", text)


def total_of(html: str) -> str:
    match = re.search(r"data-total>\s*(-?\d+)\s*<", html)
    assert match, "no total on the page"
    return match.group(1)


def test_it_shows_an_empty_official_grid_with_labels_and_a_keypad(client: Client) -> None:
    response = client.get("/score/")
    html = response.content.decode()
    assert response.status_code == 200
    assert len(re.findall(r'name="cell-1-\d-\d"', html)) == 6
    assert '<label class="visually-hidden" for="id-cell-1-1-2">Row 1, column 2</label>' in html
    assert "data-card-keypad" in html
    for rank in ("A", "10", "J", "Q", "K", "X"):
        assert f'data-rank="{rank}"' in html
    assert "official (000 §2, §5.1)" in html
    assert "nine-card (001 part 4, 002)" in html
    assert "Enter the 6 cards of the grid." in html
    assert "data-total" not in html


def test_it_scores_the_spec_grid_from_a_plain_get(client: Client) -> None:
    response = client.get("/score/", cells(SPEC_GRID) | {"score": "1"})
    html = response.content.decode()
    text = text_of(html)
    assert response.status_code == 200
    assert total_of(html) == "3"
    assert "Column 1: Q + Q → 0 (rule 2.3)" in text
    assert "Column 2: 7 + 7 → 0 (rule 2.3)" in text
    assert "Row 2, column 3: 3 scores 3 (rule 2.2)." in text
    assert "Grid score: 0 + 0 + 0 + 3 = 3 (rule 2.4)." in text
    assert re.findall(r"data-card-points>(-?\d+)<", html) == ["0", "0", "0", "0", "0", "3"]


def test_it_scores_a_plain_post_without_javascript(client: Client) -> None:
    grid = [["2", "5", "J"], ["2", "9", "K"]]
    response = client.post("/score/", {"preset": "official", "score": "1"} | cells(grid))
    html = response.content.decode()
    assert response.status_code == 200
    # Official: a pair of 2s keeps -4 (rule 2.3); 5 + 9 + J 10 + K 0.
    assert total_of(html) == "20"
    assert 'value="J"' in html and 'value="K"' in html


def test_it_names_the_row_and_column_of_a_bad_card(client: Client) -> None:
    grid = [["Q", "7", "1Z"], ["Q", "7", "3"]]
    html = client.get("/score/", cells(grid) | {"score": "1"}).content.decode()
    text = text_of(html)
    assert 'Unknown card "1Z" at row 1, column 3' in text
    bad_cell = r'name="cell-1-1-3" value="1Z"[^>]*aria-invalid="true" aria-describedby="id-cell-1-1-3-error"'
    assert re.search(bad_cell, html)
    assert 'id="id-cell-1-1-3-error" data-cell="cell-1-1-3"' in html
    assert "data-total>" not in html
    assert "Fix the card marked in the grid." in text


def test_it_offers_jokers_in_a_bad_cards_message_only_where_the_rules_play_them(client: Client) -> None:
    # A grid still being filled in under the official rules (no jokers) was told "or X/JK for a
    # joker" about its bad card (found by a phone walk).
    partial = {"cell-1-1-1": "Q", "cell-1-1-2": "1Z"}
    for submitted in ({}, {"score": "1"}):
        official = text_of(client.get("/score/", partial | submitted).content.decode())
        assert 'Unknown card "1Z" at row 1, column 2: use A, 2-10 (or T), J, Q or K,' in official
        assert "joker" not in official.split('Unknown card "1Z"', 1)[1].split(".", 1)[0]
    two_bad = text_of(client.get("/score/", partial | {"cell-1-1-3": "Z", "score": "1"}).content.decode())
    assert re.search(r"Fix the \d+ cards marked in red\.", two_bad)  # one grid: not "in the grids"
    jokers = client.get("/score/", {"preset": "jokers-54"} | partial).content.decode()
    assert "X/JK for a joker" in text_of(jokers)


def test_it_reports_missing_cards_only_once_score_is_pressed(client: Client) -> None:
    partial = {"cell-1-1-1": "Q", "cell-1-2-1": "Q"}
    while_tapping = text_of(client.get("/score/", partial).content.decode())
    assert "4 cards to go." in while_tapping
    assert "Missing card" not in while_tapping
    submitted = text_of(client.get("/score/", partial | {"score": "1"}).content.decode())
    assert "Missing card at row 1, column 2" in submitted
    assert "Missing card at row 2, column 3" in submitted


def test_it_counts_cards_beyond_the_packs_in_play(client: Client) -> None:
    grid = [["Q", "Q", "Q"], ["Q", "Q", "3"]]
    html = client.get("/score/", cells(grid)).content.decode()
    assert "5 Queens entered, but 1 pack holds only 4." in text_of(html)
    assert "data-total>" not in html


def test_it_flags_a_fifth_queen_as_soon_as_it_is_entered(client: Client) -> None:
    tapped = {"cell-1-1-1": "Q", "cell-1-1-2": "Q", "cell-1-1-3": "Q", "cell-1-2-1": "Q", "cell-1-2-2": "Q"}
    html = client.get("/score/", tapped).content.decode()
    assert '<ul class="grid-entry-errors errorlist" id="cell-1-errors" >' in html
    assert "5 Queens entered, but 1 pack holds only 4." in text_of(html)


def test_it_counts_a_whole_tables_cards_in_hole_mode(client: Client) -> None:
    data = {"mode": "hole", "players": "2", "name-1": "Ann", "name-2": "Bob"} | cells(SPEC_GRID, 1)
    data |= cells([["K", "K", "A"], ["K", "K", "2"]], 2)
    html = client.get("/score/", data).content.decode()
    assert "5 Kings entered across the table, but 1 pack holds only 4 (Ann 1, Bob 4)." in text_of(html)
    assert "data-hole-score" not in html


def test_it_answers_htmx_with_only_the_result_partial(client: Client) -> None:
    response = client.get("/score/", cells(SPEC_GRID), HTTP_HX_TARGET="score-result", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<form" not in html
    assert 'id="total-cell-1" hx-swap-oob="true"' in html
    assert total_of(html) == "3"
    assert 'hx-swap-oob="innerHTML:#score-announce">Total: 3<' in html
    assert 'id="cell-1-errors" hx-swap-oob="true"' in html
    replaced = urlsplit(response.headers["HX-Replace-Url"])
    assert replaced.path == "/score/"
    assert parse_qs(replaced.query)["cell-1-2-3"] == ["3"]


def test_it_keeps_cards_where_positions_remain_when_the_shape_changes(client: Client) -> None:
    data = adjusted_rules("official", shape="2x2") | cells(SPEC_GRID)
    response = client.get("/score/", data, HTTP_HX_TARGET="score-grids", **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="score-grids"')
    assert sorted(re.findall(r'name="(cell-1-\d-\d)" value="(\w*)"', html)) == [
        ("cell-1-1-1", "Q"),
        ("cell-1-1-2", "7"),
        ("cell-1-2-1", "Q"),
        ("cell-1-2-2", "7"),
    ]
    # The result comes along out of band: Q/Q and 7/7 cancel.
    assert 'hx-swap-oob="innerHTML:#score-result"' in html
    assert "Grid score: 0 + 0 = 0 (rule 2.4)." in text_of(html)


def test_it_draws_a_new_presets_shape_and_rules_when_the_preset_changes(client: Client) -> None:
    # The adjustment controls still describe "official": they are dropped, nine-card's own rules apply.
    data = adjusted_rules("official", value_K=13) | {"preset": "nine-card"} | cells(SPEC_GRID)
    response = client.get("/score/", data, HTTP_HX_TARGET="score-app", **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="score-app"')
    assert len(re.findall(r'name="cell-1-\d-\d"', html)) == 9
    assert 'name="value_K" value="0"' in html
    assert 'name="rules_for" value="nine-card"' in html
    assert 'value="Q"' in html


def test_it_applies_adjusted_rules(client: Client) -> None:
    data = adjusted_rules("official", value_K=13) | cells(SPEC_GRID)
    html = client.get("/score/", data).content.decode()
    assert total_of(html) == "16"
    assert "adjusted: card values." in text_of(html)
    assert '<details class="rules-adjust" open>' in html


def test_it_applies_rows_as_match_lines(client: Client) -> None:
    grid = [["5", "5", "K"], ["9", "8", "3"]]
    plain = client.get("/score/", {"preset": "basic"} | cells(grid)).content.decode()
    assert total_of(plain) == "30"
    rows = adjusted_rules("basic", match_lines=["columns", "rows"]) | cells(grid)
    assert total_of(client.get("/score/", rows).content.decode()) == "20"


def test_it_puts_a_ruleset_problem_next_to_its_control(client: Client) -> None:
    data = adjusted_rules("official", match_lines=["columns", "diagonals"]) | cells(SPEC_GRID)
    html = client.get("/score/", data).content.decode()
    text = text_of(html)
    assert "Diagonal matches exist only on 2x2 and 3x3 grids, not on 2x3." in text
    assert "data-total>" not in html
    assert '<details class="rules-adjust" open>' in html


def test_it_rejects_a_card_value_that_is_not_a_number(client: Client) -> None:
    data = adjusted_rules("official", value_Q="ten") | cells(SPEC_GRID)
    response = client.get("/score/", data)
    text = text_of(response.content.decode())
    assert response.status_code == 200
    assert "Queen must be a whole number written with the digits 0-9" in text
    assert "Queen" in text


def test_it_explains_an_unknown_preset(client: Client) -> None:
    response = client.get("/score/", {"preset": "poker"} | cells(SPEC_GRID))
    assert response.status_code == 200
    assert "Select a valid choice. poker is not one of the available choices." in text_of(
        response.content.decode()
    )


def test_it_scores_a_hole_with_the_ender_penalty(client: Client) -> None:
    data = (
        adjusted_rules("official", ender_kind="fixed", ender_points=10)
        | {"mode": "hole", "players": "2", "name-1": "Ann", "name-2": "Bob", "ender": "1"}
        | cells(SPEC_GRID, 1)
        | cells([["J", "J", "A"], ["J", "J", "2"]], 2)
    )
    html = client.get("/score/", data).content.decode()
    text = text_of(html)
    # Ann ended on 3 while Bob had -1 (J pairs 0, A 1, 2 -2): Ann adds 10.
    assert re.search(r'data-player="Ann".*?data-hole-score>13<', html, re.S)
    assert re.search(r'data-player="Bob".*?data-hole-score>\u22121<', html, re.S)
    assert "Grid 3" in text and "+10 (seed 001)" in text
    assert re.search(r'<input type="radio" name="ender" value="1" checked> Ann', html)


def test_it_scores_the_hole_only_when_every_grid_is_in(client: Client) -> None:
    data = {"mode": "hole", "players": "3"} | cells(SPEC_GRID, 1) | {"cell-2-1-1": "A"}
    html = client.get("/score/", data).content.decode()
    text = text_of(html)
    assert len(re.findall(r'name="cell-3-\d-\d"', html)) == 6
    assert "data-hole-score" not in html
    assert "Grid 3" in text
    assert "11 cards to go." in text


def test_it_adds_and_removes_players_without_javascript(client: Client) -> None:
    added = client.get("/score/", {"mode": "hole", "players": "2", "name-1": "Ann", "action": "add-player"})
    assert added.status_code == 302
    assert parse_qs(urlsplit(added.url).query)["players"] == ["3"]
    page = client.get(added.url).content.decode()
    assert len(re.findall(r'name="name-\d"', page)) == 3

    data = {"mode": "hole", "players": "3", "name-1": "Ann", "name-2": "Bob", "name-3": "Cy", "ender": "3"}
    removed = client.get("/score/", data | cells(SPEC_GRID, 2) | {"action": "remove-player-1"})
    query = parse_qs(urlsplit(removed.url).query)
    assert query["players"] == ["2"]
    assert query["name-1"] == ["Bob"] and query["cell-1-2-3"] == ["3"]
    assert query["ender"] == ["2"]


def test_it_asks_for_distinct_names(client: Client) -> None:
    data = {"mode": "hole", "players": "2", "name-1": "Ann", "name-2": "ann"} | cells(SPEC_GRID, 1)
    data |= cells(SPEC_GRID, 2)
    html = client.get("/score/", data).content.decode()
    assert 'Two players are called "ann": give each a different name.' in text_of(html)
    assert "data-hole-score" not in html


def test_it_refuses_a_name_past_the_limit_saying_both_numbers(client: Client) -> None:
    """Issue 31 item 4: the name was cut to 40 characters without a word (and the box's maxlength
    let the browser cut a pasted one)."""
    data = {"mode": "hole", "players": "2", "name-1": "A" * 47, "name-2": "Bob"} | cells(SPEC_GRID, 1)
    html = client.get("/score/", data | cells(SPEC_GRID, 2)).content.decode()
    assert "The name is too long: at most 40 characters; this one has 47." in text_of(html)
    assert "data-hole-score" not in html
    assert 'maxlength="40"' not in html


def test_it_compares_names_as_live_games_do(client: Client) -> None:
    # "José" typed precomposed and decomposed, or "ANN" in full-width letters, are one name
    # (`golfclub.core.names.name_key`), as at a live game's table: casefold alone told them apart.
    for first, second in (("Jos\u00e9", "Jose\u0301"), ("ann", "\uff21\uff2e\uff2e")):
        data = {"mode": "hole", "players": "2", "name-1": first, "name-2": second}
        html = client.get("/score/", data | cells(SPEC_GRID, 1) | cells(SPEC_GRID, 2)).content.decode()
        assert "give each a different name" in text_of(html), (first, second)
        assert "data-hole-score" not in html


def test_it_keeps_the_cards_when_switching_mode(client: Client) -> None:
    html = client.get("/score/", cells(SPEC_GRID)).content.decode()
    link = unescape(re.search(r'<a href="([^"]*mode=hole[^"]*)"', html).group(1))
    assert parse_qs(urlsplit(link).query)["cell-1-1-3"] == ["K"]


def test_it_needs_no_database_query(client: Client, django_assert_max_num_queries) -> None:
    with django_assert_max_num_queries(0):
        assert client.get("/score/", cells(SPEC_GRID)).status_code == 200


def test_it_goes_back_to_the_presets_rules(client: Client) -> None:
    data = adjusted_rules("official", value_K=13) | cells(SPEC_GRID) | {"action": "reset-rules"}
    response = client.get("/score/", data)
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.url).query)
    assert "value_K" not in query and query["cell-1-1-3"] == ["K"]
    assert total_of(client.get(response.url).content.decode()) == "3"


def test_it_adds_a_player_through_htmx_without_repeating_the_action_on_reload(client: Client) -> None:
    data = {"mode": "hole", "players": "2", "name-1": "Ann", "action": "add-player"} | cells(SPEC_GRID, 1)
    response = client.get("/score/", data, HTTP_HX_TARGET="score-grids", **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="score-grids"')
    assert len(re.findall(r"data-grid-entry ", html)) == 3
    assert 'name="name-1" value="Ann"' in html
    query = parse_qs(urlsplit(response.headers["HX-Replace-Url"]).query)
    assert query["players"] == ["3"] and "action" not in query
