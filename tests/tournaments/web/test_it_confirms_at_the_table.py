"""A table's confirmation page through the table link: the scorecard, "I confirm" or "I disagree";
the table link opens nothing else of the event; the game's board links to the page once the game is
over (through `GameManager.board_links`, the one interface `scoring` offers its games' managers)."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services as scoring_services
from scoring.access import TokenKind, grant_for, managed_game_links
from scoring.game_managers import GameManager, register_game_manager, unregister_game_manager
from scoring.models import Game
from tests.tournaments.web.conftest import Event, staffed_event
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def finish(table: Table) -> list[str]:
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(2):
        scoring_services.hole_record(
            table.game, entries={n: hole + i for i, n in enumerate(names)}, ender=None
        )
    return names


@pytest.fixture
def ev(db) -> Event:
    return staffed_event()


def test_a_player_confirms_the_finished_scorecard(client: Client, ev: Event) -> None:
    names = finish(ev.table)
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    page = client.get(url).content.decode()
    assert "Spring Open" in page and "Round 1 · Table 1" in page and names[0] in page
    assert "I confirm the scorecard" in page
    assert client.post(url, {"action": "confirm", "by": names[1]}).status_code == 302
    table = Table.objects.get(pk=ev.table.pk)
    assert table.confirmed_by.name == names[1]
    assert f"Confirmed by {names[1]}" in client.get(url).content.decode()


def test_a_player_disagrees_with_a_note_and_a_name_from_another_table_is_refused(
    client: Client, ev: Event
) -> None:
    names = finish(ev.table)
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    stranger = ev.other_table.game.seats.first().name
    refused = client.post(url, {"action": "confirm", "by": stranger}, follow=True)
    assert refused.redirect_chain == [(url, 302)] and not Table.objects.get(pk=ev.table.pk).is_confirmed
    assert "Select a valid choice" in refused.content.decode()
    assert (
        client.post(url, {"action": "disagree", "by": names[2], "note": "Hole 1 was wrong"}).status_code
        == 302
    )
    table = Table.objects.get(pk=ev.table.pk)
    assert table.is_disputed and table.dispute_note == "Hole 1 was wrong"


def test_confirming_before_the_end_says_the_game_is_not_over(client: Client, ev: Event) -> None:
    names = list(ev.table.game.seats.values_list("name", flat=True))
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    assert "not over yet" in client.get(url).content.decode()
    answer = client.post(url, {"action": "confirm", "by": names[0]}, follow=True)
    assert answer.redirect_chain == [(url, 302)] and "not over yet" in answer.content.decode()


def test_the_table_link_opens_nothing_else_of_the_event(client: Client, ev: Event) -> None:
    table_token, view_token = ev.table.game.edit_token, ev.table.game.view_token
    assert client.get(f"/tournaments/table/{view_token}/").status_code == 404
    page = client.get(f"/tournaments/table/{table_token}/").content.decode()
    assert f"/tournaments/{ev.tournament.pk}/" not in page
    assert ev.other_table.game.edit_token not in page
    plain = scoring_services.create_game(players=["Ann", "Bob"], ruleset="official")
    assert client.get(f"/tournaments/table/{plain.edit_token}/").status_code == 404


def test_the_board_links_to_the_confirmation_once_the_game_is_over(client: Client, ev: Event) -> None:
    board = f"/games/e/{ev.table.game.edit_token}/"
    confirm = f"/tournaments/table/{ev.table.game.edit_token}/"
    page = client.get(board).content.decode()
    # While playing: the table's page for calling an official (and its clock), not the confirmation.
    assert "Spring Open, round 1, table 1" in page and "Confirm the scorecard" not in page
    assert f"{confirm}#call-title" in page and "Call an official" in page
    finish(ev.table)
    finished = client.get(board).content.decode()
    assert f'href="{confirm}"' in finished and "Confirm the scorecard" in finished
    assert confirm not in client.get(f"/games/v/{ev.table.game.view_token}/").content.decode()


class _OtherLinks(GameManager):
    def board_links(self, game, grant):
        return [("Other", "/x/")]


def test_the_managed_links_seam_calls_the_registered_function_for_its_games_only(ev: Event) -> None:
    game = Game.objects.get(pk=ev.table.game.pk)
    plain = scoring_services.create_game(players=["Ann", "Bob"], ruleset="official")
    register_game_manager("tests.other", _OtherLinks())
    try:
        assert managed_game_links(plain, grant_for(plain, TokenKind.EDIT)) == []
        playing = managed_game_links(game, grant_for(game, TokenKind.EDIT))  # not over yet
        assert [label for label, _url in playing] == ["Call an official · round clock"]
        assert managed_game_links(game, grant_for(game, TokenKind.VIEW)) == []  # a view link: nothing
        game.managed_by = "tests.other"
        assert managed_game_links(game, grant_for(game, TokenKind.EDIT)) == [("Other", "/x/")]
    finally:
        unregister_game_manager("tests.other")


@pytest.mark.parametrize("who", [None, "dora"])
def test_the_table_page_reads_in_a_fixed_number_of_queries(
    ev: Event, who: str | None, django_assert_max_num_queries
) -> None:
    from tests.tournaments.web.conftest import as_user

    client = as_user(who)
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    client.get(url)  # warm the session and the caches
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200
    finish(ev.table)
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200


def test_every_answer_to_the_form_is_a_redirect_to_a_page_never_cached(client: Client, ev: Event) -> None:
    """Post/redirect/get, refusals included: the browser's history holds no POST to send again, and
    Back fetches the page as it is now."""
    names = finish(ev.table)
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    assert "no-store" in client.get(url)["Cache-Control"]
    empty = client.post(url, {"action": "confirm", "by": ""})
    assert empty.status_code == 302 and empty["Location"] == url
    shown = client.get(url).content.decode()
    assert "Choose your name: the player who checked the scores." in shown
    assert "Choose your name" not in client.get(url).content.decode()  # shown once, not kept
    assert client.post(url, {"action": "confirm", "by": names[1]}).status_code == 302
    assert Table.objects.get(pk=ev.table.pk).confirmed_by.name == names[1]


def test_a_stale_copy_of_the_form_sent_to_a_confirmed_table_says_it_is_already_confirmed(
    client: Client, ev: Event
) -> None:
    """The page of an earlier attempt (no name chosen), sent again after the confirmation: the
    answer is "already confirmed", not "This field is required."; the confirmation is unchanged."""
    names = finish(ev.table)
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    assert client.post(url, {"action": "confirm", "by": names[1], "idempotency_key": "k1"}).status_code == 302
    confirmed_at = Table.objects.get(pk=ev.table.pk).confirmed_at
    for stale in ({"action": "confirm", "by": ""}, {"action": "confirm", "by": names[2]}, {}):
        answer = client.post(url, {**stale, "idempotency_key": "k0"}, follow=True)
        page = answer.content.decode()
        assert answer.redirect_chain == [(url, 302)]
        assert f"The scorecard is already confirmed by {names[1]}: nothing more to do." in page
        assert "This field is required." not in page and "Choose your name" not in page
        assert "I confirm the scorecard" not in page and f"Confirmed by {names[1]}" in page
    table = Table.objects.get(pk=ev.table.pk)
    assert table.confirmed_by.name == names[1] and table.confirmed_at == confirmed_at
