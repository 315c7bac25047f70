"""The players page: add one, import a CSV (uploaded or pasted; every bad line named by its number,
nothing imported), check in (htmx and plain form), drop / withdraw / reinstate after a confirm step."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user
from tournaments.models import Entrant, EntrantStatus, EventLogEntry

pytestmark = pytest.mark.django_db


def test_it_adds_a_player_and_names_a_duplicate() -> None:
    tournament = event(3)
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/add/"
    assert client.post(url, {"name": "Ann", "club": "North", "rating": "1500"}).status_code == 302
    assert Entrant.objects.get(tournament=tournament, name="Ann").rating == 1500
    again = client.post(url, {"name": "ANN", "club": "", "rating": ""})
    assert again.status_code == 400 and "ANN is already in the tournament" in again.content.decode()
    bad = client.post(url, {"name": "Bob", "rating": "lots"})
    assert bad.status_code == 400 and "Rating" in bad.content.decode()
    assert tournament.entrants.count() == 4


def test_a_csv_upload_with_bad_lines_names_each_by_number_and_imports_nothing() -> None:
    tournament = event(3)
    text = "name,club,rating\nAnn,North,1500\n,South,\nBob,,high\nP01\n"
    upload = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    answer = as_user("dora").post(f"/tournaments/{tournament.pk}/players/import/", {"file": upload})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "Line 3" in page and "Line 4" in page and "Line 5" in page and "Line 2" not in page
    assert tournament.entrants.count() == 3


def test_each_bad_line_is_shown_with_its_text_escaped_and_a_long_one_cut_for_display() -> None:
    """The director sees which line is meant without opening the file: its number and its text,
    HTML escaped, invisible characters as symbols, a long line cut with an ellipsis on the page only."""
    tournament = event(3)
    long_name = "Bartholomew " * 12
    text = f"name,rating\nAnn,1\n<b>Bob</b>,high\n{long_name},2\nCid\t,x\nann\n"
    answer = as_user("dora").post(f"/tournaments/{tournament.pk}/players/import/", {"text": text})
    page = answer.content.decode()
    assert answer.status_code == 400 and tournament.entrants.count() == 3
    assert '<strong>Line 3</strong> <q class="csv-line">&lt;b&gt;Bob&lt;/b&gt;,high</q>: The rating' in page
    assert "<b>Bob</b>" not in page
    cut = long_name[:59].rstrip() + "\u2026"
    assert (
        f'<strong>Line 4</strong> <q class="csv-line">{cut}</q>: '
        f"The name is too long: at most 40 characters; this one has {len(long_name.strip())}." in page
    )
    assert '<strong>Line 5</strong> <q class="csv-line">Cid\u2409,x</q>: The rating' in page
    assert '<strong>Line 6</strong> <q class="csv-line">ann</q>: ann is already on line 2' in page


def test_a_pasted_list_imports_every_player() -> None:
    tournament = event(3)
    client = as_user("dora")
    answer = client.post(
        f"/tournaments/{tournament.pk}/players/import/", {"text": "name,club\nAnn,North\nBob,South\n"}
    )
    assert answer.status_code == 302
    assert "2 players imported" in client.get(answer["Location"]).content.decode()
    assert set(tournament.entrants.values_list("name", flat=True)) >= {"Ann", "Bob"}
    empty = client.post(f"/tournaments/{tournament.pk}/players/import/", {"text": ""})
    assert empty.status_code == 400 and "Choose a CSV file or paste the list" in empty.content.decode()


def test_check_in_toggles_by_htmx_and_by_a_plain_form() -> None:
    tournament = event(3)
    ann = tournament.entrants.get(name="P01")
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/{ann.pk}/check-in/"
    answer = client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'id="player-{ann.pk}"' in html and "1 checked in" in html and 'hx-swap-oob="true"' in html
    assert Entrant.objects.get(pk=ann.pk).checked_in
    assert client.post(url, {"checked_in": "0"}).status_code == 302
    assert not Entrant.objects.get(pk=ann.pk).checked_in


def test_drop_asks_first_then_drops_with_the_reason_logged_and_reinstate_brings_back() -> None:
    tournament = event(4)
    ann = tournament.entrants.get(name="P01")
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/{ann.pk}/status/"
    ask = client.get(url, {"action": "drop"})
    assert ask.status_code == 200 and "Drop P01 from the later rounds?" in ask.content.decode()
    assert Entrant.objects.get(pk=ann.pk).status == EntrantStatus.ACTIVE
    assert client.post(url, {"action": "drop", "reason": "Went home ill"}).status_code == 302
    assert Entrant.objects.get(pk=ann.pk).status == EntrantStatus.DROPPED
    assert EventLogEntry.objects.get(tournament=tournament, action="player_dropped").reason == "Went home ill"
    assert client.post(url, {"action": "reinstate"}).status_code == 302
    assert Entrant.objects.get(pk=ann.pk).status == EntrantStatus.ACTIVE
    assert client.post(url, {"action": "withdraw"}).status_code == 302
    assert Entrant.objects.get(pk=ann.pk).status == EntrantStatus.WITHDRAWN
    assert client.get(url, {"action": "explode"}).status_code == 302


def test_each_status_change_says_what_was_done_to_whom_not_done() -> None:
    """The flash after a drop said "P01: done."; it says what happened and what it means."""
    tournament = event(4)
    ann = tournament.entrants.get(name="P01")
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/{ann.pk}/status/"
    said = {
        "drop": "P01 was dropped from the event: they keep their scores so far and are not seated in the "
        "rounds to come.",
        "reinstate": "P01 is back in the event: seated again from the next round seated.",
        "withdraw": "P01 has withdrawn from the event: the rounds they played stay in the record, and they "
        "are not seated again.",
    }
    for action, sentence in said.items():
        page = client.post(url, {"action": action}, follow=True).content.decode()
        assert sentence in page and "done." not in page, action


def test_the_counters_say_one_player_one_hole_in_the_singular() -> None:
    """The dashboard said "1 active players": every count there and on the players' pages agrees
    with its number."""
    tournament = event(1, rounds=1)
    client = as_user("dora")
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "1 active player, 0 checked in." in dashboard and "1 active players" not in dashboard
    assert (
        "1 player imported."
        in client.get(
            client.post(f"/tournaments/{tournament.pk}/players/import/", {"text": "name\nZed\n"})["Location"]
        ).content.decode()
    )


def test_the_public_sees_the_players_but_no_form_and_cannot_post() -> None:
    tournament = event(4)
    page = as_user(None).get(f"/tournaments/{tournament.pk}/players/").content.decode()
    assert "P01" in page and "Add the player" not in page and "Check in" not in page
    assert (
        as_user("sam").post(f"/tournaments/{tournament.pk}/players/add/", {"name": "Zed"}).status_code == 403
    )
    assert not tournament.entrants.filter(name="Zed").exists()


@pytest.mark.parametrize("players", [8, 40])
def test_the_players_page_takes_a_fixed_number_of_queries(
    players: int, django_assert_max_num_queries
) -> None:
    tournament = event(players)
    client = as_user("dora")
    with django_assert_max_num_queries(8):
        assert client.get(f"/tournaments/{tournament.pk}/players/").status_code == 200
