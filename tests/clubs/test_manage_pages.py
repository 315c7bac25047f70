"""The club owners' pages: forms that re-show what was typed with the problem on its field, a double
submit that writes once, and who may see what (owner, co-owner by invitation, stranger, anonymous)."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, ClubOwner, Member, OwnerInvitation, Season
from tests.clubs.factories import make_club, make_members, make_owner

pytestmark = pytest.mark.django_db


def as_user(username: str | None) -> Client:
    client = Client()
    if username:
        client.force_login(make_owner(username))
    return client


@pytest.fixture
def owner() -> Client:
    return as_user("owner")


@pytest.fixture
def club() -> Club:
    return make_club(owner=make_owner("owner"))


def test_a_new_owner_creates_a_club_once_even_sent_twice():
    ann = as_user("ann")
    assert "Create a club" in ann.get("/clubs/").content.decode()
    form = {"name": "Friday Golf", "idempotency_key": "k-1"}
    first = ann.post("/clubs/", form)
    club = Club.objects.get()
    assert first.status_code == 302 and first["Location"] == f"/clubs/{club.pk}/members/"
    second = ann.post("/clubs/", form)
    assert second.status_code == 302 and second["Location"] == first["Location"]
    assert Club.objects.count() == 1 and ClubOwner.objects.get().user.username == "ann"
    assert "Friday Golf" in ann.get("/clubs/").content.decode()


def test_a_bad_club_name_is_shown_again_with_its_problem():
    answer = as_user("ann").post("/clubs/", {"name": "  \u200b ", "idempotency_key": "k-2"})
    page = answer.content.decode()
    assert answer.status_code == 400 and "needs visible characters" in page
    assert not Club.objects.exists()


def test_pasting_members_names_each_bad_line_and_keeps_the_text(owner, club):
    make_members(club, "Cy")
    text = "Ann\nBob\n\nann\ncy\n"
    answer = owner.post(f"/clubs/{club.pk}/members/paste/", {"names": text})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "Line 4" in page and "Line 5" in page and "Ann\nBob\n\nann\ncy" in page
    assert Member.objects.count() == 1
    done = owner.post(f"/clubs/{club.pk}/members/paste/", {"names": "Ann\n\nBob\n"})
    assert done.status_code == 302
    assert sorted(Member.objects.values_list("name", flat=True)) == ["Ann", "Bob", "Cy"]


def test_adding_renaming_and_retiring_a_member(owner, club):
    assert owner.post(f"/clubs/{club.pk}/members/add/", {"name": "Ann"}).status_code == 302
    taken = owner.post(f"/clubs/{club.pk}/members/add/", {"name": "ANN"})
    assert taken.status_code == 400 and "already a member" in taken.content.decode()
    ann = Member.objects.get()
    renamed = owner.post(
        f"/clubs/{club.pk}/members/{ann.pk}/rename/", {f"m{ann.pk}-name": "Annie", f"m{ann.pk}-version": "1"}
    )
    assert renamed.status_code == 302
    stale = owner.post(
        f"/clubs/{club.pk}/members/{ann.pk}/rename/", {f"m{ann.pk}-name": "Anne", f"m{ann.pk}-version": "1"}
    )
    assert stale.status_code == 412 and "changed by someone else" in stale.content.decode()
    assert owner.post(f"/clubs/{club.pk}/members/{ann.pk}/retire/", {"retired": "1"}).status_code == 302
    ann.refresh_from_db()
    assert ann.name == "Annie" and ann.retired_at is not None
    assert "retired" in owner.get(f"/clubs/{club.pk}/members/").content.decode()


def test_merging_two_who_played_together_is_refused_on_the_page(owner, club):
    from tests.clubs.factories import club_game

    ann, bob = make_members(club, "Ann", "Bob")
    club_game(club, [ann, bob])
    answer = owner.post(f"/clubs/{club.pk}/members/merge/", {"keep": ann.pk, "duplicate": bob.pk})
    assert answer.status_code == 409 and "two people, not one" in answer.content.decode()


def test_seasons_page_creates_edits_and_deletes(owner, club):
    url = f"/clubs/{club.pk}/seasons/"
    bad = owner.post(url + "add/", {"name": "2027", "start": "2027-12-31", "end": "2027-01-01"})
    assert bad.status_code == 400 and "comes before" in bad.content.decode()
    assert (
        owner.post(url + "add/", {"name": "2027", "start": "2027-01-01", "end": "2027-12-31"}).status_code
        == 302
    )
    season = Season.objects.get()
    page = owner.get(url).content.decode()
    assert "2027-01-01" in page
    from clubs.services.seasons import season_version

    edit = {
        f"s{season.pk}-{k}": v
        for k, v in {
            "name": "Year 2027",
            "start": "2027-01-01",
            "end": "2027-06-30",
            "version": season_version(season),
        }.items()
    }
    assert owner.post(url + f"{season.pk}/edit/", edit).status_code == 302
    assert owner.post(url + f"{season.pk}/edit/", edit).status_code == 412  # the version read is stale now
    assert owner.post(url + f"{season.pk}/delete/").status_code == 302
    assert not Season.objects.exists()


def test_settings_invite_a_co_owner_who_accepts_once(owner, club):
    owner.post(f"/clubs/{club.pk}/settings/invite/")
    invitation = OwnerInvitation.objects.get()
    settings_page = owner.get(f"/clubs/{club.pk}/settings/").content.decode()
    assert f"/clubs/invitations/{invitation.token}/" in settings_page
    bob = as_user("bob")
    assert "Become a co-owner" in bob.get(f"/clubs/invitations/{invitation.token}/").content.decode()
    assert bob.post(f"/clubs/invitations/{invitation.token}/").status_code == 302
    assert bob.get(f"/clubs/{club.pk}/members/").status_code == 200
    late = as_user("eve").post(f"/clubs/invitations/{invitation.token}/")
    assert late.status_code == 409
    anonymous = Client().get(f"/clubs/invitations/{invitation.token}/")
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    bob_owner = ClubOwner.objects.get(club=club, user__username="bob")
    assert owner.post(f"/clubs/{club.pk}/settings/owners/{bob_owner.pk}/remove/").status_code == 302
    assert bob.get(f"/clubs/{club.pk}/members/").status_code == 404


def test_settings_make_the_club_public_and_show_its_link(owner, club):
    answer = owner.post(f"/clubs/{club.pk}/settings/", {"name": "Friday", "is_public": "on", "version": "1"})
    assert answer.status_code == 302
    page = owner.get(f"/clubs/{club.pk}/settings/").content.decode()
    assert f"/clubs/p/{Club.objects.get().public_token}/" in page
    stale = owner.post(f"/clubs/{club.pk}/settings/", {"name": "Other", "version": "1"})
    assert stale.status_code == 412 and 'value="Other"' in stale.content.decode()


@pytest.mark.parametrize("path", ["members/", "seasons/", "settings/"])
def test_who_may_open_the_owners_pages(path):
    private, public = make_club("Private"), make_club("Public", public=True)
    stranger = as_user("stranger")
    assert stranger.get(f"/clubs/{private.pk}/{path}").status_code == 404
    assert stranger.get(f"/clubs/{public.pk}/{path}").status_code == 403
    anonymous = Client().get(f"/clubs/{public.pk}/{path}")
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert as_user("owner").get(f"/clubs/{public.pk}/{path}").status_code == 200


def test_the_clubs_link_is_in_the_site_nav():
    assert 'href="/clubs/"' in Client().get("/").content.decode()


def test_the_members_page_takes_a_bounded_number_of_queries(owner, club, django_assert_max_num_queries):
    make_members(club, *[f"Member {n}" for n in range(60)])
    with django_assert_max_num_queries(12):
        assert owner.get(f"/clubs/{club.pk}/members/").status_code == 200


def test_the_clubs_page_takes_a_bounded_number_of_queries(owner, django_assert_max_num_queries):
    for n in range(10):
        make_members(make_club(f"Club {n}", owner=make_owner("owner")), "Ann", "Bob")
    with django_assert_max_num_queries(10):
        assert owner.get("/clubs/").status_code == 200


def test_a_refused_rename_shows_the_name_typed_on_its_member(owner, club):
    ann, _bob = make_members(club, "Ann", "Bob")
    answer = owner.post(
        f"/clubs/{club.pk}/members/{ann.pk}/rename/", {f"m{ann.pk}-name": "bob", f"m{ann.pk}-version": "1"}
    )
    page = answer.content.decode()
    assert answer.status_code == 400 and 'value="bob"' in page and "Bob is already a member" in page


def test_the_seasons_and_settings_pages_take_a_bounded_number_of_queries(
    owner, club, django_assert_max_num_queries
):
    from clubs.services.seasons import create_season

    for year in range(2000, 2030):
        create_season(club, name=str(year), start=f"{year}-01-01", end=f"{year}-12-31")
    for n in range(5):
        ClubOwner.objects.create(club=club, user=make_owner(f"co{n}"))
    with django_assert_max_num_queries(12):
        assert owner.get(f"/clubs/{club.pk}/seasons/").status_code == 200
    with django_assert_max_num_queries(12):
        assert owner.get(f"/clubs/{club.pk}/settings/").status_code == 200


def test_retiring_with_htmx_answers_the_members_row_and_writes_once(owner, club):
    (ann,) = make_members(club, "Ann")
    form = {"retired": "1", "idempotency_key": "r-1"}
    url = f"/clubs/{club.pk}/members/{ann.pk}/retire/"
    first = owner.post(url, form, HTTP_HX_REQUEST="true")
    row = first.content.decode()
    assert first.status_code == 200 and f'id="member-{ann.pk}"' in row and "Bring back" in row
    again = owner.post(url, form, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and "Bring back" in again.content.decode()
    ann.refresh_from_db()
    assert ann.retired_at is not None and ann.version == 2


def test_creating_clubs_is_rate_limited_per_address_on_the_page(settings):
    from django.core.cache import cache

    cache.clear()
    settings.RATELIMIT_CLUB_CREATE = "1/h"
    ann = as_user("ann")
    assert ann.post("/clubs/", {"name": "One"}).status_code == 302
    refused = ann.post("/clubs/", {"name": "Two"})
    cache.clear()
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert ann.get("/clubs/").status_code == 200  # reading the list is not counted
    assert list(Club.objects.values_list("name", flat=True)) == ["One"]


def test_an_invitation_is_accepted_once_per_form_key_and_a_logged_out_copy_is_sent_to_log_in(owner, club):
    owner.post(f"/clubs/{club.pk}/settings/invite/")
    url = f"/clubs/invitations/{OwnerInvitation.objects.get().token}/"
    key = {"idempotency_key": "invitation-form-key-01"}
    for _ in range(2):  # the log-in check first: a copy is sent to log in again, never "carried out"
        logged_out = Client().post(url, key)
        assert logged_out.status_code == 302 and "login" in logged_out["Location"]
    bob = as_user("bob")
    assert bob.post(url, key).status_code == 302
    again = bob.post(url, key, follow=True)
    assert "sent twice" in again.content.decode()
    assert ClubOwner.objects.filter(club=club, user__username="bob").count() == 1
