"""The standings page (public as released, live for the staff, private events hidden), a player's
record hole by hole, the event log; the standings' queries bounded at two sizes."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import event, play_round
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.models import EventLogEntry

pytestmark = pytest.mark.django_db


def test_the_standings_show_rounds_penalties_totals_and_tiebreak_columns() -> None:
    tournament = event(8, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    page = as_user(None).get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "R1" in page and "Pen." in page and "Total" in page and "Why above" in page
    assert page.index("P01") < page.index("P08")


def test_dropped_players_come_after_the_complete_records() -> None:
    tournament = event(8, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    services.drop_entrant(tournament, tournament.entrants.get(name="P01").pk)
    play_round(tournament)
    services.finalize_round(tournament, 2)
    page = as_user(None).get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "Incomplete records" in page
    assert page.index("Incomplete records") < page.index(">P01<")


def test_after_round_release_hides_the_round_in_play_from_the_public_not_from_the_staff() -> None:
    tournament = event(8, rounds=2, holes=2, standings_release="after_round")
    play_round(tournament)
    url = f"/tournaments/{tournament.pk}/standings/"
    assert (
        "Totals: the finalized rounds only, plus penalty points; round 1, in play"
        in as_user(None).get(url).content.decode()
    )
    # The round's column heading; a bare "R1" also turns up inside the page's random tokens.
    assert '<th scope="col">R1</th>' not in as_user(None).get(url).content.decode()
    staff = as_user("dora").get(url).content.decode()
    assert "Live: totals include round 1&#x27;s first 2 holes" in staff
    assert '<th scope="col">R1 (holes 1\u20132)</th>' in staff


def test_a_private_event_is_a_404_to_strangers() -> None:
    tournament = event(4, public=False)
    for who in (None, "sam"):
        assert as_user(who).get(f"/tournaments/{tournament.pk}/standings/").status_code == 404
        assert as_user(who).get(f"/tournaments/{tournament.pk}/").status_code == 404
    assert as_user("dora").get(f"/tournaments/{tournament.pk}/standings/").status_code == 200


def test_a_players_page_shows_each_round_hole_by_hole_with_holes_won() -> None:
    tournament = event(8, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    p01 = tournament.entrants.get(name="P01")
    page = as_user(None).get(f"/tournaments/{tournament.pk}/players/{p01.pk}/").content.decode()
    assert "Round 1, table" in page and 'class="best"' in page and "points" in page


def test_the_event_log_lists_what_the_staff_did_with_reasons() -> None:
    tournament = event(8, rounds=2, holes=2)
    services.drop_entrant(tournament, tournament.entrants.get(name="P08").pk, reason="Left early")
    page = as_user("dora").get(f"/tournaments/{tournament.pk}/log/").content.decode()
    assert "Player dropped" in page and "Left early" in page
    assert EventLogEntry.objects.filter(tournament=tournament).exists()
    assert as_user("sam").get(f"/tournaments/{tournament.pk}/log/").status_code == 403


@pytest.mark.parametrize("players", [8, 48])
def test_the_standings_page_takes_a_fixed_number_of_queries(
    players: int, django_assert_max_num_queries
) -> None:
    tournament = event(players, rounds=2, holes=2)
    play_round(tournament)
    services.finalize_round(tournament, 1)
    client = as_user("dora")
    # The first read computes and caches (the database cache's own read, cull count and write);
    # the next, at the same version, is answered by the shared cache.
    with django_assert_max_num_queries(15):
        first = client.get(f"/tournaments/{tournament.pk}/standings/")
    with django_assert_max_num_queries(9):
        again = client.get(f"/tournaments/{tournament.pk}/standings/")
    assert first.status_code == again.status_code == 200
    assert first.content.count(b"<tr") == again.content.count(b"<tr") >= players
