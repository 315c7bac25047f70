"""Event day: the public page (schedule, the round's seating, find my table, the leaderboard that
answers 304 while nothing moved and follows every change), the projector's panels, private
events hidden, and the reads bounded in queries whatever the size."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event, event_in_play, play_round
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments import services
from tournaments.models import Entrant, Table
from tournaments.web.event_day import find_seats, folded, seating_of, shown_round

pytestmark = pytest.mark.django_db


def test_it_folds_accents_and_case_as_people_read_names() -> None:
    assert folded("José") == folded("JOSE") == folded("jose\u0301") == "jose"
    assert folded("\uff2d\u00fcller") == "muller"  # a full-width M, a precomposed u-umlaut


def test_the_public_page_shows_the_schedule_the_seating_and_the_leaderboard() -> None:
    live = staffed_event()
    t = live.tournament
    page = as_user(None).get(f"/tournaments/{t.pk}/public/").content.decode()
    assert "Round 1</strong>:\n        in play" in page or "in play" in page
    assert "Round 2</strong>:" in page and "to come" in page
    assert "Seating of round 1" in page and f"Table {live.table.number}" in page
    assert 'id="leaderboard"' in page and "visible-tick from:body" in page
    for entrant in Entrant.objects.filter(tournament=t):
        assert entrant.name in page


def test_a_seated_round_is_not_shown_before_it_is_published() -> None:
    live = staffed_event(publish=False)
    page = as_user(None).get(f"/tournaments/{live.tournament.pk}/public/").content.decode()
    assert "seating being prepared" in page and "Seating of round 1" not in page


def test_find_my_table_ignores_accents_and_case() -> None:
    tournament = event(4, rounds=1)
    Entrant.objects.filter(tournament=tournament, name="P01").update(name="José Núñez", name_key="josé núñez")
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    lines = seating_of(shown_round(tournament))
    assert [line.name for line in find_seats(lines, "nunez")] == ["José Núñez"]
    assert [line.name for line in find_seats(lines, "JOSE")] == ["José Núñez"]
    assert find_seats(lines, "   ") == []
    page = as_user(None).get(f"/tournaments/{tournament.pk}/public/", {"q": "núnez"}).content.decode()
    assert "José Núñez</strong>:" in page and "table 1, seat" in page
    assert "/games/e/" not in page  # the director has not given the table links to the public
    none = as_user(None).get(f"/tournaments/{tournament.pk}/public/", {"q": "zzz"}).content.decode()
    assert "Nobody in round 1 has “zzz” in their name" in none
    long = as_user(None).get(f"/tournaments/{tournament.pk}/public/", {"q": "x" * 500})
    assert long.status_code == 400 and "at most 60 characters" in long.content.decode()
    nul = as_user(None).get(f"/tournaments/{tournament.pk}/public/", {"q": "a\x00b"})
    assert nul.status_code == 400


def test_find_my_table_gives_the_table_link_only_when_the_director_lets_it() -> None:
    tournament = event_in_play(4, rounds=1, public_table_links=True)
    table = Table.objects.get(round__tournament=tournament)
    page = as_user(None).get(f"/tournaments/{tournament.pk}/public/", {"q": "P0"}).content.decode()
    assert f"/games/e/{table.game.edit_token}/" in page and "<svg" in page
    partial = (
        as_user(None)
        .get(
            f"/tournaments/{tournament.pk}/public/", {"q": "p02", "find": "1"}, headers={"HX-Request": "true"}
        )
        .content.decode()
    )
    assert partial.startswith('<div id="found"') or partial.lstrip().startswith('<div id="found"')
    assert "P02</strong>" in partial and "P01</strong>" not in partial


def test_the_leaderboard_answers_304_until_the_tournament_moves(django_capture_on_commit_callbacks) -> None:
    live = staffed_event()
    t = live.tournament
    url = f"/tournaments/{t.pk}/public/leaderboard/"
    client = as_user(None)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and "private" in first["Cache-Control"]
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304
    # A hole at a table moves the version (scoring's signal, after commit): the poll gets the news.
    names = list(live.table.game.seats.order_by("seat").values_list("name", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.hole_record(
            live.table.game, entries={n: 3 for n in names}, ender=None, capabilities={"view", "score"}
        )
    moved = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    # Their round-in-play cell: thru 1, and 0 counted until the other table has played a hole too
    # (the live board ranks, and totals, the holes all have played).
    assert moved.content.count(
        b'<td class="num round" data-label="R1 (no hole yet)">0 <span class="thru">thru 1</span></td>'
    ) == len(names)


def test_seating_and_swaps_move_the_etag_too() -> None:
    tournament = event(8, rounds=2)
    url = f"/tournaments/{tournament.pk}/public/leaderboard/"
    before = as_user(None).get(url)["ETag"]
    services.seat_next_round(tournament)
    seated = as_user(None).get(url, headers={"If-None-Match": before})
    assert seated.status_code == 200
    tables = Table.objects.filter(round__tournament=tournament).order_by("number")
    first, second = (t.seats.order_by("seat").first().entrant_id for t in tables[:2])
    services.swap_players(tournament, 1, first, second, reason="same club")
    assert as_user(None).get(url, headers={"If-None-Match": seated["ETag"]}).status_code == 200


def test_after_round_release_keeps_the_round_in_play_off_the_public_leaderboard() -> None:
    tournament = event(8, rounds=2, standings_release="after_round")
    play_round(tournament)
    board = as_user(None).get(f"/tournaments/{tournament.pk}/public/leaderboard/").content.decode()
    assert "Totals: the finalized rounds only" in board and "R1" not in board
    staff = as_user("dora").get(f"/tournaments/{tournament.pk}/public/leaderboard/")
    assert "R1" in staff.content.decode()
    # Staff and public see different tables: their ETags differ, so no cache mixes them up.
    public = as_user(None).get(f"/tournaments/{tournament.pk}/public/leaderboard/")
    assert staff["ETag"] != public["ETag"]


def test_the_projector_shows_the_clock_the_seating_and_the_standings_in_panels() -> None:
    live = staffed_event(time_limit_minutes=45)
    t = live.tournament
    page = as_user(None).get(f"/tournaments/{t.pk}/projector/").content.decode()
    assert page.count("data-panel") >= 2 and "Seating, round 1" in page and "Standings" in page
    assert "data-seconds-left" in page and "projector.js" in page
    panels = as_user(None).get(f"/tournaments/{t.pk}/projector/panels/")
    assert panels.status_code == 200 and b"<html" not in panels.content
    again = as_user(None).get(
        f"/tournaments/{t.pk}/projector/panels/", headers={"If-None-Match": panels["ETag"]}
    )
    assert again.status_code == 304


def test_private_events_are_a_404_to_strangers_on_every_event_day_page() -> None:
    live = staffed_event(public=False)
    for path in ("public/", "public/leaderboard/", "projector/", "projector/panels/"):
        url = f"/tournaments/{live.tournament.pk}/{path}"
        assert as_user(None).get(url).status_code == 404
        assert as_user("sam").get(url).status_code == 404
        assert as_user("olive").get(url).status_code == 200


def test_strangers_reaching_the_event_land_on_its_public_page() -> None:
    live = staffed_event()
    answer = as_user(None).get(f"/tournaments/{live.tournament.pk}/")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{live.tournament.pk}/public/"


@pytest.mark.parametrize("players", [8, 40])
def test_the_event_day_pages_read_a_fixed_number_of_queries(
    players: int, django_assert_max_num_queries
) -> None:
    tournament = event(players, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    services.seat_next_round(tournament)
    services.publish_round(tournament, 2)
    client = as_user(None)
    client.get(f"/tournaments/{tournament.pk}/public/")  # warm the session and the standings cache
    for path in ("public/?q=P0", "public/leaderboard/", "projector/", "projector/panels/"):
        with django_assert_max_num_queries(12):
            assert client.get(f"/tournaments/{tournament.pk}/{path}").status_code == 200
