"""The club's read-only pages by persona: the owner, a stranger (a private club is a 404), anyone on
a public club (by id and by its public link); their content and bounded queries."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client

from clubs.models import Season
from tests.clubs.factories import make_club, make_members, make_owner
from tests.clubs.stats_rows import Line, counted_game

pytestmark = pytest.mark.django_db

DAY = datetime(2027, 6, 4, 19, 0, tzinfo=UTC)


@pytest.fixture
def club_played():
    owner = make_owner("page-owner")
    club = make_club("Friday Golf", owner=owner)
    ann, bob, cy, eve = make_members(club, "Ann", "Bob", "Cy", "Eve")
    for day in range(5):
        counted_game(
            club,
            DAY + timedelta(days=day),
            [Line(bob, 1, 10, low=3, best=-2), Line(ann, 2, 20), Line(cy, 3, 30)],
        )
    season = Season.objects.create(club=club, name="June", start=date(2027, 6, 1), end=date(2027, 6, 30))
    client = Client()
    client.force_login(owner)
    return club, (ann, bob, cy, eve), season, client


def _urls(club, members, season, *, token: str | None = None) -> list[str]:
    base = f"/clubs/p/{token}/" if token else f"/clubs/{club.pk}/"
    return [base, f"{base}seasons/{season.pk}/", f"{base}members/{members[0].pk}/"]


def test_the_owner_sees_the_leaderboard_and_the_ways_to_play(
    club_played, django_assert_max_num_queries
) -> None:
    club, _members, season, client = club_played
    with django_assert_max_num_queries(8):
        page = client.get(f"/clubs/{club.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.index(">Bob<") < html.index(">Ann<") < html.index(">Cy<") < html.index(">Eve<")
    assert "not rated" in html
    for link in (
        f"/clubs/{club.pk}/games/new/",
        f"/clubs/{club.pk}/members/",
        f"/clubs/{club.pk}/seasons/{season.pk}/",
    ):
        assert f'href="{link}"' in html


def test_the_season_page_sorts_by_the_column_chosen(club_played, django_assert_max_num_queries) -> None:
    club, _members, season, client = club_played
    with django_assert_max_num_queries(10):
        page = client.get(f"/clubs/{club.pk}/seasons/{season.pk}/", {"order": "total_points"})
    html = page.content.decode()
    assert page.status_code == 200
    assert 'href="?order=rating_change"' in html and 'aria-current="true"' in html
    assert html.index("1. Bob</a>") < html.index("2. Ann</a>")
    assert html.count("/games/v/") == 5  # the games it counts, each linking to its board
    assert client.get(f"/clubs/{club.pk}/seasons/{season.pk}/", {"order": "x"}).status_code == 400


def test_the_member_page_shows_the_record_chart_and_head_to_head(
    club_played, django_assert_max_num_queries
) -> None:
    club, (ann, _bob, _cy, eve), _season, client = club_played
    with django_assert_max_num_queries(12):  # ten, and the turn timer's seats and readings
        page = client.get(f"/clubs/{club.pk}/members/{ann.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert '<svg class="chart rating-chart"' in html and "<desc" in html
    assert "Head-to-head" in html and "Rival" in html  # Bob: ahead of Ann in 5 of 5
    assert "Nemesis" in html
    assert html.count("/games/v/") == 5
    newcomer = client.get(f"/clubs/{club.pk}/members/{eve.pk}/").content.decode()
    assert "rating-chart" not in newcomer and "Rival" not in newcomer and "Head-to-head" not in newcomer


def test_rival_and_nemesis_stay_hidden_below_three_shared_games(club_played) -> None:
    club, _members, _season, client = club_played
    dan, fay = make_members(club, "Dan", "Fay")
    for day in range(2):
        counted_game(club, DAY + timedelta(days=10 + day), [Line(fay, 1, 10), Line(dan, 2, 20)])
    html = client.get(f"/clubs/{club.pk}/members/{dan.pk}/").content.decode()
    assert "Head-to-head" in html and "Rival" not in html and "Nemesis" not in html


def test_a_private_club_is_a_404_to_strangers(club_played) -> None:
    club, members, season, _client = club_played
    stranger = Client()
    stranger.force_login(make_owner("nosy"))
    for client in (Client(), stranger):
        assert {client.get(url).status_code for url in _urls(club, members, season)} == {404}
    assert {
        Client().get(url).status_code for url in _urls(club, members, season, token=club.public_token)
    } == {404}


def test_a_public_club_is_read_by_anyone_by_id_and_by_its_link(club_played) -> None:
    club, members, season, _client = club_played
    club.is_public = True
    club.save()
    for url in _urls(club, members, season) + _urls(club, members, season, token=club.public_token):
        page = Client().get(url)
        assert page.status_code == 200, url
        assert "/games/new/" not in page.content.decode()  # nothing to change
    public_home = Client().get(f"/clubs/p/{club.public_token}/").content.decode()
    assert f"/clubs/p/{club.public_token}/members/{members[0].pk}/" in public_home


def test_another_clubs_member_or_season_is_a_404(club_played) -> None:
    club, _members, _season, client = club_played
    other = make_club("Other", owner=make_owner("page-owner"))
    (zed,) = make_members(other, "Zed")
    other_season = Season.objects.create(club=other, name="S", start=date(2027, 1, 1), end=date(2027, 1, 2))
    assert client.get(f"/clubs/{club.pk}/members/{zed.pk}/").status_code == 404
    assert client.get(f"/clubs/{club.pk}/seasons/{other_season.pk}/").status_code == 404


def test_names_are_escaped_in_every_table(club_played) -> None:
    club, (ann, *_rest), season, client = club_played
    (odd,) = make_members(club, '<b>"Odd" & Co</b>')
    counted_game(club, DAY + timedelta(days=20), [Line(odd, 1, 5), Line(ann, 2, 9)])
    for url in [*_urls(club, [ann], season), f"/clubs/{club.pk}/members/{odd.pk}/"]:
        html = client.get(url).content.decode()
        assert "<b>" not in html, url
    assert "&lt;b&gt;&quot;Odd&quot; &amp; Co&lt;/b&gt;" in client.get(f"/clubs/{club.pk}/").content.decode()
