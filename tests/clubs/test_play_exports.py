"""A club's exports: games and members as CSV and JSON, a member's games BG Stats-style; pages and
API; a private club's for its owners only; bounded queries."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs import exports
from clubs.models import MemberResult
from tests.clubs.factories import club_game, make_club, make_members, make_owner

pytestmark = pytest.mark.django_db

NINE = 9


@pytest.fixture
def club_with_games():
    owner = make_owner("olga")
    club = make_club("Friday Golf", owner)
    ann, bob, cy = make_members(club, "Ann", "Bob", "=Cy")
    won = club_game(club, [ann, "Guest", bob], [{"Ann": 1, "Guest": 5, "Bob": 3}] * NINE)
    live = club_game(club, [bob, cy], [{"Bob": 2, "=Cy": 4}])
    return owner, club, (ann, bob, cy), won, live


def test_club_games_give_players_members_totals_places_and_winners(club_with_games):
    _owner, _club, (ann, bob, cy), won, live = club_with_games
    games = exports.club_games(_club)
    assert [game["game"] for game in games] == [won.pk, live.pk]
    first = games[0]
    assert first["status"] == "finished" and first["winners"] == ["Ann"]
    assert [(p["name"], p["member"], p["total"], p["place"], p["winner"]) for p in first["players"]] == [
        ("Ann", ann.pk, NINE, 1, True),
        ("Guest", None, 5 * NINE, 3, False),
        ("Bob", bob.pk, 3 * NINE, 2, False),
    ]
    assert games[1]["status"] != "finished" and games[1]["winners"] == []
    assert [p["member"] for p in games[1]["players"]] == [bob.pk, cy.pk]


def test_a_counted_games_place_is_the_one_the_ratings_used(club_with_games):
    _owner, club, (ann, bob, _cy), won, _live = club_with_games
    for member, place in ((ann, 1), (bob, 1)):  # e.g. a tie the ruleset left shared
        MemberResult.objects.create(
            club=club, member=member, game=won, finished_at=won.updated_at, players=3, place=place,
            total_points=0, holes_played=NINE, low_hole_score=0, best_hole_score=0,
            mu_before=25, sigma_before=8, mu_after=25, sigma_after=8,
        )  # fmt: skip
    places = [p["place"] for p in exports.club_games(club)[0]["players"]]
    assert places == [1, 3, 1]


def test_csv_is_one_line_per_player_and_safe_for_spreadsheets(club_with_games):
    _owner, club, _members, won, _live = club_with_games
    rows = list(csv.DictReader(io.StringIO(exports.club_games_csv(club))))
    assert len(rows) == 5
    assert rows[0]["game"] == str(won.pk) and rows[0]["winner"] == "yes" and rows[0]["seat"] == "1"
    assert rows[1]["member"] == "" and rows[1]["player"] == "Guest"
    assert rows[4]["player"] == "'=Cy"
    members = list(csv.DictReader(io.StringIO(exports.club_members_csv(club))))
    assert [row["name"] for row in members] == ["'=Cy", "Ann", "Bob"]


def test_bgstats_has_the_members_finished_plays(club_with_games):
    _owner, _club, (_ann, bob, cy), _won, _live = club_with_games
    data = exports.member_bgstats(bob)
    assert data["games"][0]["highestWins"] is False
    assert len(data["plays"]) == 1  # the live game is not a play yet
    play = data["plays"][0]
    names = {player["id"]: player["name"] for player in data["players"]}
    scores = {names[s["playerRefId"]]: (s["score"], s["winner"], s["rank"]) for s in play["playerScores"]}
    assert scores == {
        "Ann": (str(NINE), True, 1),
        "Guest": (str(5 * NINE), False, 3),
        "Bob": (str(27), False, 2),
    }
    assert [s["startPlayer"] for s in play["playerScores"]] == [False, True, False]  # left of dealer 0
    assert len(play["playDate"]) == 19
    assert exports.member_bgstats(cy)["plays"] == []


def test_pages_and_api_answer_owners_of_a_private_club_only(club_with_games):
    owner, club, (ann, _bob, _cy), _won, _live = club_with_games
    mine, stranger = Client(), Client()
    mine.force_login(owner)
    stranger.force_login(make_owner("mallory"))
    paths = [
        f"/clubs/{club.pk}/export/games.csv",
        f"/clubs/{club.pk}/export/games.json",
        f"/clubs/{club.pk}/export/members.csv",
        f"/clubs/{club.pk}/export/members.json",
        f"/clubs/{club.pk}/export/members/{ann.pk}/bgstats.json",
        f"/api/v1/clubs/{club.pk}/export/games/",
        f"/api/v1/clubs/{club.pk}/export/members/",
        f"/api/v1/clubs/{club.pk}/export/members/{ann.pk}/bgstats/",
    ]
    for path in paths:
        assert mine.get(path).status_code == 200, path
        assert stranger.get(path).status_code == 404, path
        assert Client().get(path).status_code == 404, path
    assert "attachment" in mine.get(paths[0])["Content-Disposition"]
    assert json.loads(mine.get(paths[1]).content)["games"][0]["winners"] == ["Ann"]
    assert mine.get(f"/clubs/{club.pk}/export/games.xls").status_code == 404
    other = make_club("Other", make_owner("other"))
    (stranger_member,) = make_members(other, "Zed")
    assert mine.get(f"/clubs/{club.pk}/export/members/{stranger_member.pk}/bgstats.json").status_code == 404
    assert (
        mine.get(f"/api/v1/clubs/{club.pk}/export/members/{stranger_member.pk}/bgstats/").status_code == 404
    )
    club.is_public = True
    club.save()
    for path in paths:
        assert Client().get(path).status_code == 200, path


def test_the_api_answers_the_documented_shape(club_with_games):
    owner, club, _members, won, _live = club_with_games
    api = APIClient()
    api.force_login(owner)
    body = api.get(f"/api/v1/clubs/{club.pk}/export/games/").json()
    assert body["games"][0]["game"] == won.pk
    assert set(body["games"][0]["players"][0]) == {"seat", "name", "member", "total", "place", "winner"}
    members = api.get(f"/api/v1/clubs/{club.pk}/export/members/").json()["members"]
    assert {row["name"] for row in members} == {"Ann", "Bob", "=Cy"}


def test_exports_take_a_bounded_number_of_queries(club_with_games, django_assert_max_num_queries):
    _owner, club, members, _won, _live = club_with_games
    for _ in range(5):
        club_game(club, [members[0], members[1]], [{"Ann": 1, "Bob": 2}] * NINE)
    with django_assert_max_num_queries(6):
        assert len(exports.club_games(club)) == 7
    with django_assert_max_num_queries(6):
        assert len(exports.member_bgstats(members[0])["plays"]) == 6


def test_the_download_links_partial_points_at_the_exports(club_with_games):
    from django.template.loader import render_to_string

    _owner, club, (ann, _bob, _cy), _won, _live = club_with_games
    html = render_to_string("clubs/_export_links.html", {"club": club, "member": ann})
    assert f"/clubs/{club.pk}/export/games.csv" in html
    assert f"/clubs/{club.pk}/export/members/{ann.pk}/bgstats.json" in html
