"""The clubs' read API: the SPEC's shapes, who may read what, and bounded queries."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from clubs.models import Member, Season
from tests.clubs.factories import make_club, make_members, make_owner
from tests.clubs.stats_rows import Line, counted_game

pytestmark = pytest.mark.django_db

DAY = datetime(2027, 5, 1, 19, 0, tzinfo=UTC)
MEMBER_KEYS = {
    "id", "name", "games", "wins", "holes_played", "total_points", "average_per_hole", "low_hole_score",
    "best_hole_score", "rating", "rating_history", "head_to_head",
}  # fmt: skip
SEASON_KEYS = {
    "member", "games", "wins", "total_points", "holes_played", "average_per_hole", "low_hole_score",
    "best_hole_score", "rating_change",
}  # fmt: skip


@pytest.fixture
def played():
    """A private club of five with a few games, and its owner logged in on `client`."""
    owner = make_owner("stats-owner")
    club = make_club(owner=owner)
    members = make_members(club, "Ann", "Bob", "Cy", "Dee", "Eve")
    ann, bob, cy, dee, _eve = members
    for day in range(4):
        lines = [Line(ann, 1 + day % 2, 20), Line(bob, 2 - day % 2, 25), Line(cy, 3, 40), Line(dee, 4, 50)]
        counted_game(club, DAY + timedelta(days=day), lines)
    season = Season.objects.create(club=club, name="May", start=date(2027, 5, 1), end=date(2027, 5, 2))
    client = APIClient()
    client.force_authenticate(owner)
    return club, members, season, client


def test_ratings_list_the_rated_members_by_ordinal(played, django_assert_max_num_queries) -> None:
    club, members, _season, client = played
    with django_assert_max_num_queries(4):
        answer = client.get(f"/api/v1/clubs/{club.pk}/ratings/")
    assert answer.status_code == 200
    ratings = answer.json()["ratings"]
    assert [line["member"]["name"] for line in ratings][-2:] == ["Cy", "Dee"]
    assert all(set(line) == {"member", "mu", "sigma", "ordinal", "games"} for line in ratings)
    ordinals = [line["ordinal"] for line in ratings]
    assert ordinals == sorted(ordinals, reverse=True)
    assert {line["games"] for line in ratings} == {4}
    assert "Eve" not in {line["member"]["name"] for line in ratings}  # never rated
    ann = Member.objects.get(pk=members[0].pk)
    line = next(line for line in ratings if line["member"]["id"] == ann.pk)
    assert (line["mu"], line["sigma"], line["ordinal"]) == (ann.mu, ann.sigma, ann.ordinal)


def test_a_members_stats_have_the_spec_shape(played, django_assert_max_num_queries) -> None:
    club, (ann, bob, *_rest), _season, client = played
    with django_assert_max_num_queries(10):  # eight, and the turn timer's seats and readings
        answer = client.get(f"/api/v1/clubs/{club.pk}/members/{ann.pk}/")
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) >= MEMBER_KEYS
    assert (body["games"], body["wins"], body["holes_played"], body["total_points"]) == (4, 2, 36, 80)
    assert body["average_per_hole"] == round(80 / 36, 2)
    assert set(body["rating"]) == {"mu", "sigma", "ordinal"}
    assert [set(point) for point in body["rating_history"]] == [{"game", "mu", "sigma", "ordinal"}] * 4
    bob_line = body["head_to_head"][0]
    assert bob_line["member"] == {"id": bob.pk, "name": "Bob"}
    assert (bob_line["games"], bob_line["ahead"], bob_line["behind"], bob_line["tied"]) == (4, 2, 2, 0)
    assert body["rival"]["member"]["name"] == "Bob"
    assert body["nemesis"] is None


def test_an_unrated_member_shows_the_models_default_rating(played) -> None:
    club, members, _season, client = played
    body = client.get(f"/api/v1/clubs/{club.pk}/members/{members[4].pk}/").json()
    assert body["games"] == 0 and body["average_per_hole"] is None and body["best_hole_score"] is None
    assert body["rating"]["mu"] == 25.0 and body["rating"]["ordinal"] == pytest.approx(0.0)
    assert body["rating_history"] == [] and body["head_to_head"] == [] and body["rival"] is None


def test_a_season_leaderboard_sorts_by_the_order_asked(played, django_assert_max_num_queries) -> None:
    club, _members, season, client = played
    url = f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/leaderboard/"
    with django_assert_max_num_queries(6):
        rows = client.get(url).json()["rows"]
    assert all(set(row) == SEASON_KEYS for row in rows)
    assert [row["games"] for row in rows] == [2, 2, 2, 2]  # the 1st and 2nd of May only
    assert [row["member"]["name"] for row in rows][:2] == ["Ann", "Bob"]
    by_points = client.get(url, {"order": "total_points"}).json()["rows"]
    assert next(row["member"]["name"] for row in by_points) == "Ann"
    by_change = client.get(url, {"order": "rating_change"}).json()["rows"]
    changes = [row["rating_change"] for row in by_change]
    assert changes == sorted(changes, reverse=True)
    refused = client.get(url, {"order": "height"})
    assert refused.status_code == 400
    assert "order" in str(refused.json())


def test_a_private_club_is_a_404_to_strangers_and_a_public_one_is_read_by_anyone(played) -> None:
    club, members, season, _client = played
    urls = [
        f"/api/v1/clubs/{club.pk}/ratings/",
        f"/api/v1/clubs/{club.pk}/members/{members[0].pk}/",
        f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/leaderboard/",
    ]
    stranger = APIClient()
    stranger.force_authenticate(make_owner("stranger"))
    for client in (APIClient(), stranger):
        assert {client.get(url).status_code for url in urls} == {404}
    club.is_public = True
    club.save()
    assert {APIClient().get(url).status_code for url in urls} == {200}


def test_a_member_or_season_of_another_club_is_a_404(played) -> None:
    club, _members, _season, client = played
    other = make_club("Other", owner=make_owner("stats-owner"))
    (stranger,) = make_members(other, "Zed")
    other_season = Season.objects.create(club=other, name="X", start=date(2027, 1, 1), end=date(2027, 2, 1))
    assert client.get(f"/api/v1/clubs/{club.pk}/members/{stranger.pk}/").status_code == 404
    assert client.get(f"/api/v1/clubs/{club.pk}/seasons/{other_season.pk}/leaderboard/").status_code == 404
    assert client.get("/api/v1/clubs/999999/ratings/").status_code == 404


def test_queries_stay_bounded_as_the_history_grows(played, django_assert_max_num_queries) -> None:
    club, (ann, _bob, _cy, _dee, eve), season, client = played
    for day in range(30):
        counted_game(club, DAY + timedelta(days=day % 2, hours=day), [Line(eve, 1, 10), Line(ann, 2, 30)])
    with django_assert_max_num_queries(10):
        assert client.get(f"/api/v1/clubs/{club.pk}/members/{ann.pk}/").status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/leaderboard/").status_code == 200


def test_a_member_is_renamed_and_retired_with_if_match(played) -> None:
    club, (ann, *_rest), _season, client = played
    url = f"/api/v1/clubs/{club.pk}/members/{ann.pk}/"
    tag = client.get(url)["ETag"]
    assert tag == f'"member-{ann.pk}-v1"'
    assert client.patch(url, {"name": "Annie"}, format="json").status_code == 428
    changed = client.patch(url, {"name": "Annie", "retired": True}, format="json", HTTP_IF_MATCH=tag)
    assert changed.status_code == 200
    assert changed.json()["name"] == "Annie" and changed.json()["retired"] is True
    assert changed["ETag"] != tag
    stale = client.patch(url, {"retired": False}, format="json", HTTP_IF_MATCH=tag)
    assert stale.status_code == 412
    assert Member.objects.get(pk=ann.pk).retired_at is not None
    back = client.patch(url, {"retired": False}, format="json", HTTP_IF_MATCH=changed["ETag"])
    assert back.status_code == 200 and back.json()["retired"] is False


def test_a_member_patch_names_the_bad_field_and_refuses_non_owners(played) -> None:
    club, (ann, _bob, *_rest), _season, client = played
    url = f"/api/v1/clubs/{club.pk}/members/{ann.pk}/"
    tag = client.get(url)["ETag"]
    taken = client.patch(url, {"name": "Bob"}, format="json", HTTP_IF_MATCH=tag)
    assert taken.status_code == 400 and "name" in str(taken.json())
    assert client.patch(url, {"retired": "yes"}, format="json", HTTP_IF_MATCH=tag).status_code == 400
    assert client.patch(url, {}, format="json", HTTP_IF_MATCH=tag).status_code == 400
    stranger = APIClient()
    stranger.force_authenticate(make_owner("patch-stranger"))
    assert stranger.patch(url, {"name": "X"}, format="json", HTTP_IF_MATCH=tag).status_code == 404
    assert APIClient().patch(url, {"name": "X"}, format="json", HTTP_IF_MATCH=tag).status_code == 401
    club.is_public = True
    club.save()
    assert stranger.patch(url, {"name": "X"}, format="json", HTTP_IF_MATCH=tag).status_code == 403


def test_each_answer_is_exactly_its_serializers_rendering(played) -> None:
    """The bodies are built as plain dicts for speed: they must equal what their schema's
    serializer makes of them (same keys, same types)."""
    from clubs.api.serializers_stats import (
        MemberStatsSerializer,
        RatingsSerializer,
        SeasonLeaderboardSerializer,
    )

    club, (ann, *_rest), season, client = played
    pairs = [
        (f"/api/v1/clubs/{club.pk}/ratings/", RatingsSerializer),
        (f"/api/v1/clubs/{club.pk}/members/{ann.pk}/", MemberStatsSerializer),
        (f"/api/v1/clubs/{club.pk}/members/{_rest[-1].pk}/", MemberStatsSerializer),
        (f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/leaderboard/", SeasonLeaderboardSerializer),
    ]
    for url, serializer in pairs:
        body = client.get(url).json()
        assert serializer(body).data == body, url
        assert set(body) == set(serializer().fields), url
