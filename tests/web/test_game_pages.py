"""The live-game pages through Django's test client: every view, bad input, read-only links, ETag/304."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model

from scoring import services
from scoring.models import Game, GameChange, Hole

pytestmark = pytest.mark.django_db

GRID_3 = [["Q", "7", "K"], ["Q", "7", "3"]]  # official: Q and 7 pair in their columns, K 0, 3 = 3
GRID_21 = [["Q", "5", "4"], ["A", "2", "3"]]  # 10 + 5 + 4 + 1 - 2 + 3 = 21


def cells(index: int, grid: list[list[str]]) -> dict[str, str]:
    """The hole form's cell fields of player `index` for `grid`."""
    return {f"p{index}-{r}-{c}": token for r, row in enumerate(grid, 1) for c, token in enumerate(row, 1)}


def html(response) -> str:
    """The response body as markup (for links, attributes and field values)."""
    return response.content.decode()


def text(response) -> str:
    """The response body as a person reads it: tags dropped, whitespace collapsed, entities kept."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def game() -> Game:
    return services.create_game(players=["Ann", "Bob", "Cy"], ruleset="official", first_dealer=1)


def record(game: Game, *totals: int, playoff: bool = False, players: list[str] | None = None) -> Hole:
    names = players or [seat.name for seat in game.seats.order_by("seat")]
    return services.hole_record(
        game, entries=dict(zip(names, totals, strict=True)), ender=None, playoff=playoff
    )


# -- start ---------------------------------------------------------------------------------------------


def test_it_shows_the_first_start_screen_with_four_seats_and_the_presets(client):
    response = client.get("/games/new/")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('name="player"') == 4 + 1  # four seats and the JavaScript row template
    assert 'value="official" selected' in body and "nine-card" in body


def test_it_adds_a_seat_without_javascript(client):
    response = client.get(
        "/games/new/", {"ruleset": "basic", "player": ["Ann", "Bob", "Cy", "Dee"], "add": "1"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="player-5"' in body and 'value="Dee"' in body and 'value="basic" selected' in body


def test_it_refuses_fewer_than_two_players_with_a_message(client):
    response = client.get("/games/new/", {"step": "dealer", "ruleset": "official", "player": ["Ann", "", ""]})
    assert response.status_code == 400
    assert "Enter at least 2 player names." in text(response)
    assert 'value="Ann"' in response.content.decode()


def test_it_refuses_the_same_name_twice_naming_the_seats(client):
    response = client.get("/games/new/", {"step": "dealer", "ruleset": "official", "player": ["Ann", "ann "]})
    assert response.status_code == 400
    assert "Player 2: &quot;ann&quot; is already player 1; names must differ." in text(response)


def test_it_lets_a_long_name_through_to_be_refused_with_its_limit_never_cut_by_the_browser(client):
    """The seats carry no maxlength (a browser cut a pasted 45-character name to 40 without a word,
    found by a phone walk): the server refuses it with the limit and the name's length."""
    page = client.get("/games/new/").content.decode()
    seats = re.findall(r'<input[^>]*name="player"[^>]*>', page)
    assert seats and not [seat for seat in seats if "maxlength" in seat]
    too_long = {"step": "dealer", "ruleset": "official", "player": ["Ann", "A" * 45]}
    response = client.get("/games/new/", too_long)
    assert response.status_code == 400
    assert "Player 2: the name is too long: at most 40 characters; this one has 45." in text(response)
    assert Game.objects.count() == 0


def test_it_refuses_an_unknown_ruleset(client):
    response = client.get("/games/new/", {"step": "dealer", "ruleset": "poker", "player": ["Ann", "Bob"]})
    assert response.status_code == 400
    assert "Select a valid choice. poker is not one of the available choices." in text(response)


def test_it_asks_who_deals_first_carrying_the_players_along(client):
    response = client.get("/games/new/", {"step": "dealer", "ruleset": "basic", "player": ["Ann", "", "Bob"]})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Who deals first?" in body
    assert '<input type="hidden" name="player" value="Ann">' in body
    assert '<input type="hidden" name="player" value="Bob">' in body
    assert re.search(r'name="start_key" value="[0-9a-f]{32}"', body)
    assert "/games/new/?ruleset=basic&amp;player=Ann&amp;player=Bob" in body  # the way back


def test_it_starts_a_game_and_lists_it_on_this_device(client):
    data = {"ruleset": "official", "player": ["Ann", "Bob", "Cy"], "first_dealer": "2", "start_key": "k1"}
    response = client.post("/games/new/", data)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/e/{game.edit_token}/"
    assert [s.name for s in game.seats.order_by("seat")] == ["Ann", "Bob", "Cy"]
    assert game.first_dealer == 2 and game.preset == "official" and game.owner is None
    listing = client.get("/games/")
    assert "Ann, Bob and Cy" in text(listing) and f"/games/e/{game.edit_token}/" in html(listing)
    # Sent again (back button, double tap): the same game opens, no second one is made.
    again = client.post("/games/new/", data)
    assert again["Location"] == f"/games/e/{game.edit_token}/" and Game.objects.count() == 1


def test_it_starts_a_game_with_house_rules(client):
    query = {
        "step": "dealer",
        "ruleset": "basic",
        "holes": "6",
        "ender_penalty": "fixed-10",
        "player": ["A", "B"],
    }
    response = client.get("/games/new/", query)
    assert response.status_code == 200
    assert "basic: 2\u00d73 grid, 6 holes, 2 = 2, K = 0, ender +10 if beaten" in text(response)
    assert '<input type="hidden" name="holes" value="6">' in html(response)
    assert "holes=6&amp;ender_penalty=fixed-10" in html(response)  # the way back keeps them
    data = {
        "ruleset": "basic",
        "holes": "6",
        "ender_penalty": "fixed-10",
        "player": ["A", "B"],
        "first_dealer": "0",
    }
    client.post("/games/new/", data)
    ruleset = Game.objects.get().ruleset
    assert ruleset["holes"] == 6 and ruleset["ender_penalty"] == {"kind": "fixed", "points": 10}
    assert ruleset["preset"] == "basic" and set(ruleset["overrides"]) == {"holes", "ender_penalty"}


def test_it_refuses_a_house_rule_that_is_not_offered(client):
    response = client.get(
        "/games/new/", {"step": "dealer", "ruleset": "basic", "holes": "7", "player": ["A", "B"]}
    )
    assert (
        response.status_code == 400
        and "Select a valid choice. 7 is not one of the available choices." in text(response)
    )


def test_it_offers_blocks_of_four_for_typed_totals_when_the_ruleset_counts_them(client):
    game = services.create_game(
        players=["Ann", "Bob"],
        ruleset={"preset": "basic", "four_of_a_kind_block": {"points": -20, "others_add": 0}},
    )
    body = html(client.get(f"/games/e/{game.edit_token}/holes/new/"))
    assert 'name="p0-blocks"' in body and 'name="p1-blocks"' in body
    client.post(
        f"/games/e/{game.edit_token}/holes/new/", {"p0-total": "-20", "p0-blocks": "1", "p1-total": "9"}
    )
    entry = Hole.objects.get().entries.get(seat__name="Ann")
    assert entry.blocks_marked == 1 and entry.typed_total == -20


def test_it_refuses_a_first_dealer_who_is_not_at_the_table(client):
    data = {"ruleset": "official", "player": ["Ann", "Bob"], "first_dealer": "5", "start_key": "k2"}
    response = client.post("/games/new/", data)
    assert response.status_code == 400
    assert "Select a valid choice." in text(response) and Game.objects.count() == 0


def test_it_records_the_owner_and_offers_earlier_names_when_logged_in(client):
    user = get_user_model().objects.create_user("pat", password="pw-long-enough")
    client.force_login(user)
    client.post("/games/new/", {"ruleset": "official", "player": ["Zed", "Yan"], "first_dealer": "0"})
    assert Game.objects.get().owner == user
    response = client.get("/games/new/")
    assert 'data-recent-name="Zed"' in response.content.decode()
    listing = client.get("/games/")
    assert "Your games" in text(listing) and "Zed and Yan" in text(listing)


# -- the game page -------------------------------------------------------------------------------------


def test_it_shows_the_scorecard_the_next_dealer_and_the_links(client, game):
    record(game, 5, 12, 3)
    response = client.get(f"/games/e/{game.edit_token}/")
    assert response.status_code == 200
    body = html(response)
    assert "Hole 2 of 9" in text(response) and "Cy deals" in body and "Ann plays first" in body
    assert f"/games/e/{game.edit_token}/holes/1/" in body  # tap a hole to correct it
    assert f"/games/e/{game.edit_token}/holes/new/" in body
    assert f"/api/v1/games/{game.edit_token}/export.csv" in body
    assert "Leading: Cy" in body and '<svg class="chart"' in body
    assert "data-wake-lock" in body


@pytest.mark.parametrize("link", ["edit", "view"])
def test_it_links_to_exports_that_answer(client, game, link):
    record(game, 5, 12, 3)
    token = game.edit_token if link == "edit" else game.view_token
    body = html(client.get(f"/games/{link[0]}/{token}/"))
    urls = re.findall(r'href="(/api/v1/games/[^"]+/(?:export\.csv|export\.json|results/))"', body)
    assert len(urls) == 3
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"Ann" in response.content


def test_it_answers_404_for_an_unknown_link(client):
    assert client.get("/games/e/not-a-token/").status_code == 404
    assert client.get("/games/v/not-a-token/").status_code == 404


def test_it_shows_the_read_only_page_without_any_way_to_change_scores(client, game):
    record(game, 5, 12, 3)
    response = client.get(f"/games/v/{game.view_token}/")
    assert response.status_code == 200
    body = html(response)
    assert game.edit_token not in body
    # The only hole links are the read-only breakdowns of the scores (.../holes/<n>/scores/).
    assert not re.search(r"/holes/(?!\d+/scores/)", body)
    assert "/undo/" not in body and "Score hole" not in body
    assert f'data-poll-url="/games/v/{game.view_token}/scoreboard/"' in body
    assert '<svg role="img"' in body  # the QR code of this page
    for path in ("scoreboard/", "history/"):
        assert game.edit_token not in html(client.get(f"/games/v/{game.view_token}/{path}")), path


@pytest.mark.parametrize(
    "path",
    [
        "",
        "holes/new/",
        "holes/1/",
        "holes/1/delete/",
        "playoff/new/",
        "preview/",
        "undo/",
        "share/",
        "scoreboard/",
    ],
)
def test_it_refuses_every_write_through_the_view_link(client, game, path):
    record(game, 5, 12, 3)
    for url in (f"/games/v/{game.view_token}/{path}", f"/games/e/{game.view_token}/{path}"):
        response = client.post(url, {"p0-total": "1", "p1-total": "2", "p2-total": "3"})
        assert response.status_code == 403, url
        assert "This link can only watch" in text(response)
    assert Hole.objects.count() == 1 and GameChange.objects.count() == 1


def test_it_lets_the_edit_link_open_the_view_page_as_the_scorer(client, game):
    response = client.get(f"/games/v/{game.edit_token}/")
    assert response.status_code == 302 and response["Location"] == f"/games/e/{game.edit_token}/"


# -- polling: ETag / 304 -------------------------------------------------------------------------------


def test_it_answers_304_while_the_game_is_unchanged_and_200_after_a_change(client, game):
    url = f"/games/v/{game.view_token}/scoreboard/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert 'id="scoreboard"' in first.content.decode() and "<html" not in first.content.decode()
    same = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert same.status_code == 304 and same.content == b""
    record(game, 5, 12, 3)
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert ">12<" in changed.content.decode()


def test_it_checks_the_etag_before_building_the_scoreboard(client, game, django_assert_max_num_queries):
    for _hole in range(5):
        record(game, 5, 12, 3)
    url = f"/games/v/{game.view_token}/scoreboard/"
    etag = client.get(url)["ETag"]
    with django_assert_max_num_queries(1):  # the token lookup only (no session is touched)
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_it_gives_the_edit_and_view_partials_different_etags(client, game):
    edit = client.get(f"/games/e/{game.edit_token}/scoreboard/")
    view = client.get(f"/games/v/{game.view_token}/scoreboard/")
    assert edit["ETag"] != view["ETag"]
    assert f"/games/e/{game.edit_token}/holes/new/" in edit.content.decode()
    assert client.get(f"/games/e/{game.view_token}/scoreboard/").status_code == 403


# -- recording a hole ----------------------------------------------------------------------------------


def test_it_shows_the_hole_screen_with_dealer_and_first_player(client, game):
    response = client.get(f"/games/e/{game.edit_token}/holes/new/")
    assert response.status_code == 200
    assert "Hole 1 of 9 Bob deals · Cy plays first (dealer's left)" in text(response)
    body = html(response)
    assert 'name="p0-1-1"' in body and 'name="p2-total"' in body and "data-card-keypad" in body
    assert re.search(r'name="idempotency_key" value="[0-9a-f]{32}"', body)


def test_it_records_a_hole_of_grids_and_totals_and_says_what_it_scored(client, game):
    data = {**cells(0, GRID_3), **cells(1, GRID_21), "p2-total": "7", "ender": "0", "idempotency_key": "h1"}
    response = client.post(f"/games/e/{game.edit_token}/holes/new/", data, follow=True)
    assert response.status_code == 200
    assert "Hole 1 saved: Ann 3, Bob 21, Cy 7." in text(response)
    hole = Hole.objects.get()
    entries = {e.seat.name: e for e in hole.entries.select_related("seat")}
    assert entries["Ann"].cards == GRID_3 and entries["Cy"].typed_total == 7 and hole.ender.name == "Ann"


def test_it_names_every_mistake_of_a_hole_form_at_once(client, game):
    # A bad card in a complete grid was named only once the form's other mistakes were fixed: two
    # rounds of fixing for one hole (found by a phone walk).
    bad_ann = [["Z", "7", "K"], ["Q", "7", "3"]]
    bad_bob = [["Q", "\u0663", "4"], ["A", "2", "3"]]  # an Arabic-Indic digit three
    data = {**cells(0, bad_ann), **cells(1, bad_bob), "p2-total": "1" * 20, "idempotency_key": "all"}
    response = client.post(f"/games/e/{game.edit_token}/holes/new/", data)
    assert response.status_code == 400
    # The list atop the page, which the phone shows first (the preview below names cards too).
    summary = re.search(r'<ul class="form-errors"[^>]*>(.*?)</ul>', html(response), re.S)
    assert summary is not None
    listed = re.findall(r"<li>(.*?)</li>", summary.group(1))
    assert len(listed) == 3, listed
    assert listed[0].startswith("Ann: Unknown card &quot;Z&quot; at row 1, column 1")
    assert listed[1].startswith("Bob: Unknown card &quot;\u0663&quot; at row 1, column 2")
    assert "more than 12 digits" in listed[2]
    assert not Hole.objects.exists()


def test_it_records_a_hole_once_when_the_form_is_sent_twice(client, game):
    data = {"p0-total": "1", "p1-total": "2", "p2-total": "3", "idempotency_key": "same-key"}
    client.post(f"/games/e/{game.edit_token}/holes/new/", data, follow=True)  # its message read
    again = client.post(f"/games/e/{game.edit_token}/holes/new/", data, follow=True)
    assert Hole.objects.count() == 1
    assert "That hole was already saved (the form was sent twice)." in text(again)
    # A double tap shows only the second copy's answer: it says what was saved too.
    assert "Hole 1 saved: Ann 1, Bob 2, Cy 3." in text(again)


def test_it_never_files_a_hole_under_the_next_number_when_another_phone_saved_it(client, game):
    data = {"number": "1", "p0-total": "1", "p1-total": "2", "p2-total": "3", "idempotency_key": "mine"}
    record(game, 5, 12, 3)  # another phone saves hole 1 first
    response = client.post(f"/games/e/{game.edit_token}/holes/new/", data)
    assert response.status_code == 409
    assert "Not saved: hole 1 was saved meanwhile (from another phone)." in text(response)
    assert 'name="p0-total" value="1"' in html(response) and 'name="number" value="2"' in html(response)
    assert Hole.objects.count() == 1
    # Saved deliberately as hole 2 from the page it now shows.
    client.post(f"/games/e/{game.edit_token}/holes/new/", {**data, "number": "2"})
    assert Hole.objects.count() == 2


def test_it_treats_a_resent_form_as_already_saved_even_though_the_next_hole_moved_on(client, game):
    data = {"number": "1", "p0-total": "1", "p1-total": "2", "p2-total": "3", "idempotency_key": "tap-tap"}
    client.post(f"/games/e/{game.edit_token}/holes/new/", data, follow=True)  # its message read
    again = client.post(f"/games/e/{game.edit_token}/holes/new/", data, follow=True)
    assert "That hole was already saved (the form was sent twice)." in text(again)
    assert "Hole 1 saved: Ann 1, Bob 2, Cy 3." in text(again)
    assert Hole.objects.count() == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"p0-1-1": "Q", "p1-total": "2", "p2-total": "3"},
            "Ann: the grid is missing a card at row 1, column 2, row 1, column 3, row 2, column 1",
        ),
        ({"p1-total": "2", "p2-total": "3"}, "Ann: enter the final grid or type the hole total."),
        (
            {**cells(0, GRID_3), "p0-total": "4", "p1-total": "2", "p2-total": "3"},
            "Ann: enter the cards or a total",
        ),
        (
            {"p0-total": "four", "p1-total": "2", "p2-total": "3"},
            "total must be a whole number written with the digits 0-9",
        ),
        (
            {**cells(0, [["Q", "7", "K"], ["Q", "7", "1Z"]]), "p1-total": "2", "p2-total": "3"},
            "row 2, column 3",
        ),
        (
            {**cells(0, GRID_3), **cells(1, GRID_3), **cells(2, [["Q", "Q", "A"], ["A", "A", "A"]])},
            "Queens",
        ),
    ],
    ids=["half-grid", "nothing", "grid-and-total", "not-a-number", "bad-card", "deck-check"],
)
def test_it_refuses_bad_input_with_a_message_in_the_page_and_writes_nothing(client, game, data, message):
    response = client.post(f"/games/e/{game.edit_token}/holes/new/", data)
    assert response.status_code == 400, text(response)[:500]
    assert message in text(response)
    assert 'role="alert"' in response.content.decode()
    assert Hole.objects.count() == 0 and GameChange.objects.count() == 0


def test_it_names_rank_and_count_when_the_deck_check_fails(client, game):
    data = {**cells(0, GRID_3), **cells(1, GRID_3), **cells(2, [["Q", "Q", "A"], ["A", "A", "A"]])}
    body = text(client.post(f"/games/e/{game.edit_token}/holes/new/", data))
    assert "6 Queens" in body and "1 pack holds only 4" in body


def test_it_sends_the_finished_match_back_to_the_scoreboard(client, game):
    for _hole in range(9):
        record(game, 5, 12, 3)
    response = client.get(f"/games/e/{game.edit_token}/holes/new/", follow=True)
    assert "The match is over: no more holes to score." in text(response)
    response = client.post(f"/games/e/{game.edit_token}/holes/new/", {"p0-total": "1"}, follow=True)
    assert Hole.objects.count() == 9 and "Cy wins!" in text(response)


# -- the live preview ----------------------------------------------------------------------------------


def test_it_previews_the_scores_of_what_is_entered_so_far(client, game):
    data = {**cells(0, GRID_3), "p1-total": "12"}
    response = client.post(f"/games/e/{game.edit_token}/preview/?hole=new&playoff=0", data)
    assert response.status_code == 200
    body = text(response)
    assert "<html" not in body and "Hole scores" in body
    assert "Ann 3 3" in body and "Bob 12 12" in body and "Cy not entered" in body


def test_it_shows_the_ender_penalty_in_the_preview(client):
    game = services.create_game(
        players=["Ann", "Bob"], ruleset={"preset": "basic", "ender_penalty": {"kind": "fixed", "points": 10}}
    )
    data = {"p0-total": "9", "p1-total": "4", "ender": "0"}
    body = text(client.post(f"/games/e/{game.edit_token}/preview/?hole=new&playoff=0", data))
    assert "Ann 19 +10" in body


def test_it_previews_a_deck_check_error_naming_rank_and_count(client, game):
    data = {**cells(0, GRID_3), **cells(1, GRID_3), **cells(2, [["Q", "Q", "A"], ["A", "A", "A"]])}
    body = text(client.post(f"/games/e/{game.edit_token}/preview/?hole=new&playoff=0", data))
    assert "6 Queens" in body and "1 pack holds only 4" in body


def test_it_names_a_bad_card_in_a_half_filled_grid_on_save_and_in_the_preview(client, game):
    data = {"p0-1-1": "1Z", "p0-1-2": "Q", "p1-total": "4", "p2-total": "7"}
    body = unescape(text(client.post(f"/games/e/{game.edit_token}/holes/new/", data)))
    assert 'Ann: Unknown card "1Z" at row 1, column 1' in body
    assert "missing a card at row 1, column 3" in body  # the empty cells are still named on save
    assert Hole.objects.count() == 0
    assert 'aria-invalid="true"' in html(client.post(f"/games/e/{game.edit_token}/holes/new/", data))
    preview = unescape(text(client.post(f"/games/e/{game.edit_token}/preview/?hole=new&playoff=0", data)))
    assert 'Ann: Unknown card "1Z"' in preview
    assert "missing a card" not in preview  # while typing, empty cells are not a complaint yet


def test_it_answers_404_when_previewing_a_hole_that_does_not_exist(client, game):
    assert client.post(f"/games/e/{game.edit_token}/preview/?hole=7&playoff=0", {}).status_code == 404


# -- corrections ---------------------------------------------------------------------------------------


def test_it_opens_a_hole_with_its_cards_and_totals_and_its_version(client, game):
    services.hole_record(game, entries={"Ann": GRID_3, "Bob": 12, "Cy": 4}, ender="Bob")
    body = client.get(f"/games/e/{game.edit_token}/holes/1/").content.decode()
    assert 'name="p0-1-1" value="Q"' in body and 'name="p1-total" value="12"' in body
    assert 'name="version" value="1"' in body
    assert 'name="ender" value="1" id="id_ender_2" checked' in body  # Bob ended it
    assert "Delete this hole" in body


def test_it_corrects_a_hole_and_keeps_the_change_in_the_history(client, game):
    hole = record(game, 5, 12, 3)
    data = {
        "p0-total": "6",
        "p1-total": "12",
        "p2-total": "3",
        "version": "1",
        "hole_id": hole.pk,
        "scorer": "Ann",
    }
    response = client.post(f"/games/e/{game.edit_token}/holes/1/", data, follow=True)
    assert "Hole 1 corrected." in text(response)
    assert game.seats.get(name="Ann").total == 6
    history = text(client.get(f"/games/e/{game.edit_token}/history/"))
    assert "Hole 1 edited" in history and "by Ann" in history
    assert "Ann: before 5 (typed) , after 6 (typed)" in history


def test_the_history_shows_why_a_change_was_made_when_it_was_said(client, game):
    """`GameChange.reason` (an official's correction, a paper slip typed in, an undo) shows under
    its change, escaped; a change made without one shows none."""
    record(game, 5, 12, 3)
    services.hole_update(
        game, 1, expected_version=1, entries={"Ann": 6, "Bob": 12, "Cy": 3}, ender=None,
        actor="olive (official)", reason="Typed in from the paper slip",
    )  # fmt: skip
    record(game, 1, 2, 3)
    services.undo_last_change(game, actor="dora (director)", reason="Recorded on the wrong <table>")
    body = client.get(f"/games/e/{game.edit_token}/history/").content.decode()
    items = re.findall(r"<li>\s*<div><strong>(.*?)</li>\s*(?=<li>|</ol>)", body, re.S)
    assert len(items) == 4  # newest first: the undo, hole 2, the edit, hole 1
    reasons = [re.findall(r'<div class="reason">(.*?)</div>', item, re.S) for item in items]
    assert reasons == [
        ["Reason: Recorded on the wrong &lt;table&gt;"],
        [],
        ["Reason: Typed in from the paper slip"],
        [],
    ]
    assert "Hole 1 edited" in items[2] and "by olive (official)" in items[2]
    # The game's page shows its latest changes with the same list, reasons included.
    board = text(client.get(f"/games/e/{game.edit_token}/"))
    assert "Reason: Recorded on the wrong &lt;table&gt;" in board


def test_it_refuses_a_stale_correction_and_never_overwrites(client, game):
    hole = record(game, 5, 12, 3)
    services.hole_update(game, 1, expected_version=1, entries={"Ann": 8, "Bob": 12, "Cy": 3}, ender=None)
    data = {"p0-total": "6", "p1-total": "12", "p2-total": "3", "version": "1", "hole_id": hole.pk}
    response = client.post(f"/games/e/{game.edit_token}/holes/1/", data)
    assert response.status_code == 409
    body = text(response)
    assert "Not saved: someone else changed this hole while you were editing it." in body
    assert 'name="p0-total" value="8"' in response.content.decode()  # the hole as it is now
    assert 'name="version" value="2"' in response.content.decode()
    assert game.seats.get(name="Ann").total == 8


def test_it_refuses_a_correction_without_its_version(client, game):
    record(game, 5, 12, 3)
    response = client.post(
        f"/games/e/{game.edit_token}/holes/1/", {"p0-total": "6", "p1-total": "1", "p2-total": "3"}
    )
    assert response.status_code == 400 and "The form lost the hole&#x27;s version" in text(response)


def test_it_answers_404_for_a_hole_that_does_not_exist(client, game):
    assert client.get(f"/games/e/{game.edit_token}/holes/4/").status_code == 404
    assert client.get(f"/games/e/{game.edit_token}/holes/4/delete/").status_code == 404


def test_it_asks_before_deleting_and_keeps_the_delete_button_apart(client, game):
    record(game, 5, 12, 3)
    body = client.get(f"/games/e/{game.edit_token}/holes/1/delete/").content.decode()
    assert "Delete hole 1?" in body and "No, keep it" in body
    keep, delete = body.index("No, keep it"), body.index("Yes, delete hole 1")
    assert body.index('class="danger-zone"') < delete and keep < body.index('class="danger-zone"')


def undo_change(game: Game) -> dict[str, str]:
    """The undo button's form data: the change it names."""
    return {"change": str(GameChange.objects.filter(game=game).order_by("-pk").first().pk)}


def confirm_delete(hole: Hole) -> dict[str, str]:
    """The delete confirmation's form data: the hole's id and version."""
    return {"hole_id": str(hole.pk), "version": str(hole.version)}


def test_it_deletes_a_hole_and_undo_brings_it_back(client, game):
    first = record(game, 5, 12, 3)
    record(game, 1, 2, 3)
    response = client.post(f"/games/e/{game.edit_token}/holes/1/delete/", confirm_delete(first), follow=True)
    assert "Hole 1 deleted." in text(response)
    assert list(Hole.objects.values_list("number", flat=True)) == [1]
    assert game.seats.get(name="Ann").total == 1
    response = client.post(f"/games/e/{game.edit_token}/undo/", undo_change(game), follow=True)
    assert "Undone: deleted hole 1." in text(response)
    assert game.seats.get(name="Ann").total == 6 and Hole.objects.count() == 2


def test_it_refuses_a_stale_delete(client, game):
    record(game, 5, 12, 3)
    services.hole_update(game, 1, expected_version=1, entries={"Ann": 8, "Bob": 12, "Cy": 3}, ender=None)
    stale = {"hole_id": str(Hole.objects.get().pk), "version": "1"}
    response = client.post(f"/games/e/{game.edit_token}/holes/1/delete/", stale)
    assert response.status_code == 409 and "Someone changed this hole" in text(response)
    assert Hole.objects.count() == 1


def test_it_undoes_the_last_change_in_one_tap_and_says_when_nothing_is_left(client, game):
    record(game, 5, 12, 3)
    page = text(client.get(f"/games/e/{game.edit_token}/"))
    assert "Undo: Hole 1 recorded" in page
    sent = undo_change(game)
    response = client.post(f"/games/e/{game.edit_token}/undo/", sent, follow=True)
    assert "Undone: recorded hole 1." in text(response) and Hole.objects.count() == 0
    response = client.post(f"/games/e/{game.edit_token}/undo/", sent, follow=True)
    assert "That change was already undone" in text(response)
    assert "Nothing to undo yet." in text(response)
    assert client.get(f"/games/e/{game.edit_token}/undo/").status_code == 405


# -- match end -----------------------------------------------------------------------------------------


def test_it_announces_a_countback_with_each_step(client, game):
    for ann, bob in zip([0, 9, 5, 5, 5, 5, 5, 6, 5], [4, 5, 5, 5, 5, 5, 5, 6, 5], strict=True):
        record(game, ann, bob, 9)
    body = text(client.get(f"/games/v/{game.view_token}/"))
    assert "Ann wins!" in body and "How the tie was broken" in body and "Countback — decided" in body
    assert "Final standings Ann · 45 Bob · 45 Cy · 81" in body


def test_it_offers_a_playoff_hole_to_the_tied_players_only(client, game):
    for _hole in range(9):
        record(game, 5, 5, 9)
    page = text(client.get(f"/games/e/{game.edit_token}/"))
    assert "Tie for first: Ann & Bob" in page and "Score playoff hole 1" in page
    form = html(client.get(f"/games/e/{game.edit_token}/playoff/new/"))
    assert "Playoff hole 1" in form and 'name="p0-total"' in form and 'name="p2-total"' not in form
    regular = client.get(f"/games/e/{game.edit_token}/holes/new/", follow=True)
    assert "the tie is settled by a playoff hole" in text(regular)
    response = client.post(
        f"/games/e/{game.edit_token}/playoff/new/", {"p0-total": "7", "p1-total": "3"}, follow=True
    )
    body = text(response)
    assert "Playoff hole 1 saved: Ann 7, Bob 3." in body and "Bob wins!" in body
    assert "Playoff holes (sudden death)" in body and game.seats.get(name="Bob").total == 45


def test_it_shows_a_shared_victory_as_such(client):
    game = services.create_game(players=["Ann", "Bob"], ruleset="basic")
    for _hole in range(9):
        record(game, 4, 4)
    body = text(client.get(f"/games/e/{game.edit_token}/"))
    assert "Shared victory: Ann & Bob" in body and "share the win" in body


# -- names and rules -----------------------------------------------------------------------------------


def test_it_renames_a_player_keeping_the_scores_and_history(client, game):
    record(game, 5, 12, 3)
    response = client.post(
        f"/games/e/{game.edit_token}/settings/", {"action": "rename", "seat": "1", "name": "Bobby"}
    )
    assert response.status_code == 302
    assert "Seat 2 is now Bobby." in text(client.get(response["Location"]))
    assert game.seats.get(seat=1).name == "Bobby" and game.seats.get(seat=1).total == 12
    assert "Bobby" in text(client.get(f"/games/e/{game.edit_token}/"))


def test_it_refuses_a_name_already_at_the_table(client, game):
    response = client.post(
        f"/games/e/{game.edit_token}/settings/", {"action": "rename", "seat": "1", "name": "ann"}
    )
    assert response.status_code == 400
    assert "already at the table" in text(response) and 'value="ann"' in html(response)
    assert game.seats.get(seat=1).name == "Bob"


def test_it_renames_the_game(client, game):
    client.post(f"/games/e/{game.edit_token}/settings/", {"action": "title", "title": "Friday golf"})
    game.refresh_from_db()
    assert game.title == "Friday golf"
    too_long = client.post(f"/games/e/{game.edit_token}/settings/", {"action": "title", "title": "x" * 81})
    assert too_long.status_code == 400 and "The title is too long" in text(too_long)


def test_it_changes_the_rules_only_before_the_first_hole(client, game):
    response = client.post(f"/games/e/{game.edit_token}/settings/", {"action": "ruleset", "ruleset": "basic"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.preset == "basic"
    record(game, 5, 12, 3)
    response = client.post(
        f"/games/e/{game.edit_token}/settings/", {"action": "ruleset", "ruleset": "harder"}
    )
    assert response.status_code == 409 and "rules cannot change once the cards have been dealt" in text(
        response
    )
    page = text(client.get(f"/games/e/{game.edit_token}/settings/"))
    assert "The rules are fixed" in page and "Change the rules" not in page


def test_it_refuses_an_incomplete_settings_form(client, game):
    response = client.post(f"/games/e/{game.edit_token}/settings/", {"action": "rename"})
    assert response.status_code == 400 and "Nothing to change" in text(response)
    response = client.post(
        f"/games/e/{game.edit_token}/settings/", {"action": "rename", "seat": "9", "name": "Zed"}
    )
    assert response.status_code == 404 and "There is no seat 10 at this table." in text(response)
    assert client.post(f"/games/e/{game.view_token}/settings/", {"action": "title"}).status_code == 403


# -- history, share, list ------------------------------------------------------------------------------


def test_it_lists_every_change_with_who_and_when(client, game):
    record(game, 5, 12, 3)
    client.post(f"/games/e/{game.edit_token}/undo/", undo_change(game))
    body = text(client.get(f"/games/v/{game.view_token}/history/"))
    # Each line reads as a sentence, with what became of the change ("Recorded · Hole 1 undone" did not).
    assert "Undone: recording of hole 1" in body and "Hole 1 recorded, then undone" in body
    assert "Recorded · Hole 1" not in body and "Undone · Hole 1" not in body
    assert "Scores: Ann 5 · Bob 12 · Cy 3" in body


def test_it_shares_both_links_with_qr_codes(client, game):
    body = client.get(f"/games/e/{game.edit_token}/share/").content.decode()
    assert f"http://testserver/games/v/{game.view_token}/" in body
    assert f"http://testserver/games/e/{game.edit_token}/" in body
    assert body.count('<svg role="img"') == 2
    assert client.get(f"/games/e/{game.view_token}/share/").status_code == 403


def build_game(players: int, holes: int, owner=None) -> Game:
    names = [f"P{i}" for i in range(players)]
    game = services.create_game(players=names, ruleset={"preset": "official", "holes": 18}, owner=owner)
    for hole in range(holes):
        services.hole_record(game, entries={n: (i + hole) % 7 for i, n in enumerate(names)}, ender=names[0])
    if holes:
        services.hole_update(
            game, 1, expected_version=1, entries={n: 3 for n in names}, ender=None, actor="guard"
        )
    return game


@pytest.mark.parametrize(("players", "holes"), [(2, 1), (6, 18)])
@pytest.mark.parametrize("link", ["edit", "view", "live-partial"])
def test_it_builds_the_scoreboard_page_in_a_constant_number_of_queries(
    client, players, holes, link, django_assert_max_num_queries
):
    game = build_game(players, holes)
    url = {
        "edit": f"/games/e/{game.edit_token}/",
        "view": f"/games/v/{game.view_token}/",
        "live-partial": f"/games/v/{game.view_token}/scoreboard/",
    }[link]
    client.get(url)  # the session exists from now on, as on a phone that opened the game before
    with django_assert_max_num_queries(10):
        response = client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize(("players", "holes"), [(2, 1), (6, 18)])
def test_it_builds_the_games_list_in_a_constant_number_of_queries(
    client, players, holes, django_assert_max_num_queries
):
    user = get_user_model().objects.create_user("lee", password="pw-long-enough")
    client.force_login(user)
    for _game in range(3):
        game = build_game(players, holes, owner=user)
    other = build_game(players, holes)
    client.get(f"/games/e/{game.edit_token}/")
    client.get(f"/games/v/{other.view_token}/")
    with django_assert_max_num_queries(8):
        response = client.get("/games/")
    assert response.status_code == 200
    assert html(response).count('class="game-list"') == 2 and "watch only" in text(response)


def test_people_read_true_times_and_minus_signs_while_machines_keep_ascii(client):
    from scoring import services as game_services
    from scoring.rules import PRESETS
    from scoring.web.games.start_forms import describe_preset, short_label

    described = describe_preset(PRESETS["official"])
    assert described.startswith("official: 2\u00d73 grid, 9 holes, 2 = \u22122, K = 0")
    assert "2\u00d73" in short_label(PRESETS["official"])
    game = game_services.create_game(players=["Ann", "Bob"], ruleset="official")
    game_services.hole_record(game, entries={"Ann": -3, "Bob": 4}, ender=None)
    page = text(client.get(f"/games/e/{game.edit_token}/"))
    assert "\u22123" in page and "2x3" not in page
    history = text(client.get(f"/games/e/{game.edit_token}/history/"))
    assert "Ann \u22123" in history
