"""The clubs' write API as SPEC "Clubs API contract" says: statuses, shapes, idempotent replays,
If-Match (428 without, 412 stale), 400 naming the field, 403/404 for other people's clubs."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, ClubOwner, Member, OwnerInvitation, Season
from tests.clubs.factories import make_club, make_members, make_owner

pytestmark = pytest.mark.django_db


def client_of(username: str | None) -> APIClient:
    client = APIClient()
    if username:
        client.force_authenticate(make_owner(username))
    return client


@pytest.fixture
def ann() -> APIClient:
    return client_of("ann")


def wheres(response) -> list[str]:
    return [e["where"] for e in response.json()["errors"]]


def test_creating_a_club_answers_it_and_makes_the_caller_its_owner(ann):
    answer = ann.post("/api/v1/clubs/", {"name": "Friday Golf"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert answer.status_code == 201
    body = answer.json()
    assert {"id", "name"} <= set(body) and body["name"] == "Friday Golf"
    assert body["owners"] == ["ann"] and body["is_public"] is False and body["public_url"] is None
    assert answer["ETag"] == f'"club-{body["id"]}-v1"' and answer["Location"].endswith(
        f"/clubs/{body['id']}/"
    )
    again = ann.post("/api/v1/clubs/", {"name": "Friday Golf"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (
        again.status_code == 201
        and again["Idempotent-Replayed"] == "true"
        and again.json()["id"] == body["id"]
    )
    other = ann.post("/api/v1/clubs/", {"name": "Other"}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert other.status_code == 422
    assert Club.objects.count() == 1
    listed = ann.get("/api/v1/clubs/")
    assert [c["name"] for c in listed.json()["clubs"]] == ["Friday Golf"]


@pytest.mark.parametrize(
    ("body", "where"),
    [({}, "name"), ({"name": ""}, "name"), ({"name": 3}, "name"), ({"name": "A", "x": 1}, "x"),
     ({"name": "A", "is_public": "yes"}, "is_public"), ({"name": "\u200b"}, "name")],
)  # fmt: skip
def test_a_bad_club_is_a_400_naming_the_field(ann, body, where):
    answer = ann.post("/api/v1/clubs/", body, format="json")
    assert answer.status_code == 400 and where in wheres(answer)


def test_anonymous_writes_and_lists_are_401():
    anonymous = client_of(None)
    assert anonymous.post("/api/v1/clubs/", {"name": "A"}, format="json").status_code == 401
    assert anonymous.get("/api/v1/clubs/").status_code == 401


def test_other_peoples_clubs_are_403_when_public_and_404_when_private(ann):
    private, public = make_club("Private"), make_club("Public", public=True)
    for club, code in ((private, 404), (public, 403)):
        base = f"/api/v1/clubs/{club.pk}/"
        assert ann.post(base + "members/", {"name": "Zed"}, format="json").status_code == code
        assert ann.patch(base, {"name": "Mine"}, format="json", HTTP_IF_MATCH="*").status_code == code
        assert (
            ann.post(
                base + "seasons/", {"name": "S", "start": "2027-01-01", "end": "2027-02-01"}, format="json"
            ).status_code
            == code
        )
        assert ann.post(base + "invitations/", format="json").status_code == code
    assert ann.get(f"/api/v1/clubs/{private.pk}/").status_code == 404
    assert ann.get(f"/api/v1/clubs/{public.pk}/members/").status_code == 200
    assert not Member.objects.exists()


def test_patch_needs_if_match_and_refuses_a_stale_one(ann):
    club = make_club(owner=make_owner("ann"))
    url = f"/api/v1/clubs/{club.pk}/"
    assert ann.patch(url, {"name": "New"}, format="json").status_code == 428
    etag = ann.get(url)["ETag"]
    changed = ann.patch(url, {"name": "New", "is_public": True}, format="json", HTTP_IF_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["version"] == 2
    assert changed.json()["public_url"].endswith(f"/clubs/p/{club.public_token}/")
    assert ann.patch(url, {"name": "Newer"}, format="json", HTTP_IF_MATCH=etag).status_code == 412
    assert ann.patch(url, {"name": ""}, format="json", HTTP_IF_MATCH=changed["ETag"]).status_code == 400
    assert Club.objects.get().name == "New"


def test_members_one_or_a_pasted_list(ann):
    club = make_club(owner=make_owner("ann"))
    url = f"/api/v1/clubs/{club.pk}/members/"
    one = ann.post(url, {"name": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY="m1")
    assert one.status_code == 201 and set(one.json()) == {"id", "name"} and one.json()["name"] == "Ann"
    replay = ann.post(url, {"name": "Ann"}, format="json", HTTP_IDEMPOTENCY_KEY="m1")
    assert replay.status_code == 201 and replay.json() == one.json()
    taken = ann.post(url, {"name": "ANN"}, format="json")
    assert taken.status_code == 400 and wheres(taken) == ["name"]
    pasted = ann.post(url, {"names": ["Bob", "Cy"]}, format="json")
    assert pasted.status_code == 201 and [m["name"] for m in pasted.json()["members"]] == ["Bob", "Cy"]
    bad = ann.post(url, {"names": ["Dee", "bob", "", "Dee"]}, format="json")
    assert bad.status_code == 400 and wheres(bad) == ["names[2]", "names[3]", "names[4]"]
    both = ann.post(url, {"name": "Eve", "names": ["Fay"]}, format="json")
    assert both.status_code == 400 and wheres(both) == ["name"]
    listed = ann.get(url).json()["members"]
    assert [m["name"] for m in listed] == ["Ann", "Bob", "Cy"] and listed[0]["retired"] is False


def test_merge_answers_409_for_two_who_played_together_and_404_for_a_stranger(ann):
    from tests.clubs.factories import club_game

    club = make_club(owner=make_owner("ann"))
    a, b = make_members(club, "Ann", "Bob")
    club_game(club, [a, b])
    (stranger,) = make_members(make_club("Other"), "Zed")
    url = f"/api/v1/clubs/{club.pk}/members/merge/"
    assert ann.post(url, {"keep": a.pk, "duplicate": b.pk}, format="json").status_code == 409
    assert ann.post(url, {"keep": a.pk, "duplicate": stranger.pk}, format="json").status_code == 404
    missing = ann.post(url, {"keep": a.pk}, format="json")
    assert missing.status_code == 400 and wheres(missing) == ["duplicate"]


def test_an_invitation_link_is_answered_to_owners(ann):
    club = make_club(owner=make_owner("ann"))
    answer = ann.post(f"/api/v1/clubs/{club.pk}/invitations/", format="json", HTTP_IDEMPOTENCY_KEY="i1")
    assert answer.status_code == 201
    invitation = OwnerInvitation.objects.get()
    assert answer.json()["url"].endswith(f"/clubs/invitations/{invitation.token}/")


def test_seasons_create_read_change_delete(ann):
    club = make_club(owner=make_owner("ann"))
    url = f"/api/v1/clubs/{club.pk}/seasons/"
    made = ann.post(url, {"name": "2027", "start": "2027-01-01", "end": "2027-12-31"}, format="json")
    assert made.status_code == 201 and made.json()["name"] == "2027" and "id" in made.json()
    bad = ann.post(url, {"name": "2027", "start": "2027-13-01", "end": "2027-12-31"}, format="json")
    assert bad.status_code == 400 and set(wheres(bad)) == {"start", "name"}
    detail = f"{url}{made.json()['id']}/"
    assert ann.get(url).json()["seasons"][0]["start"] == "2027-01-01"
    assert ann.patch(detail, {"name": "Year"}, format="json").status_code == 428
    etag = ann.get(detail)["ETag"]
    changed = ann.patch(detail, {"name": "Year"}, format="json", HTTP_IF_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert ann.delete(detail, HTTP_IF_MATCH=etag).status_code == 412
    assert ann.delete(detail, HTTP_IF_MATCH=changed["ETag"]).status_code == 204
    assert not Season.objects.exists()


def test_lists_take_a_bounded_number_of_queries(ann, django_assert_max_num_queries):
    owner = make_owner("ann")
    for n in range(5):
        club = make_club(f"Club {n}", owner=owner)
        make_members(club, *[f"M{i}" for i in range(20)])
        ClubOwner.objects.create(club=club, user=make_owner(f"co{n}"))
    with django_assert_max_num_queries(6):
        assert len(ann.get("/api/v1/clubs/").json()["clubs"]) == 5
    with django_assert_max_num_queries(6):
        assert len(ann.get(f"/api/v1/clubs/{club.pk}/members/").json()["members"]) == 20


def test_a_co_owner_by_invitation_runs_the_club_through_the_api(ann):
    from clubs.services.clubs import accept_invitation, invite_owner

    club = make_club("Friday", owner=make_owner("ann"))
    bob = client_of("bob")
    assert bob.post(f"/api/v1/clubs/{club.pk}/members/", {"name": "Cy"}, format="json").status_code == 404
    accept_invitation(invite_owner(club, by=make_owner("ann")).token, make_owner("bob"))
    assert [c["name"] for c in bob.get("/api/v1/clubs/").json()["clubs"]] == ["Friday"]
    assert bob.post(f"/api/v1/clubs/{club.pk}/members/", {"name": "Cy"}, format="json").status_code == 201
    assert ann.get(f"/api/v1/clubs/{club.pk}/").json()["owners"] == ["ann", "bob"]
