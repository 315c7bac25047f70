"""How each club page answers a refusal of its one access call (`clubs.access.club_for_user`): the
refusal is raised by the call and answered in one place (Django's 404 and 403 handlers,
`golfclub.core.errors`), as the call decided: the owners' pages send an anonymous visitor to log in
and tell anyone else who may change the club; the other pages answer the site's plain 403. Access
comes first: a refused visitor is told so, not about the method or the form's key."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Member
from tests.clubs.factories import make_club, make_members, make_owner

pytestmark = pytest.mark.django_db


def _client(username: str | None = None) -> Client:
    client = Client()
    if username:
        client.force_login(make_owner(username))
    return client


def _templates(answer) -> list[str]:
    return [template.name for template in answer.templates if template.name]


@pytest.fixture
def public() -> Club:
    return make_club("Public", owner=make_owner("owner"), public=True)


def test_an_owners_page_tells_a_stranger_who_may_change_the_club_and_asks_an_anonymous_to_log_in(public):
    stranger = _client("stranger").get(f"/clubs/{public.pk}/members/")
    assert stranger.status_code == 403
    assert "clubs/manage_forbidden.html" in _templates(stranger)
    assert "Only the club&#x27;s owners may change it." in stranger.content.decode()
    members_page = f"/clubs/{public.pk}/members/"
    anonymous = Client().post(
        f"{members_page}add/", {"name": "Eve"}, headers={"Referer": f"http://testserver{members_page}"}
    )
    assert anonymous.status_code == 302  # to log in, then back to the form's page (not its POST address)
    assert anonymous["Location"] == f"/accounts/login/?next={members_page}"
    assert not Member.objects.exists()


@pytest.mark.parametrize("username", ["stranger", None])
def test_the_new_game_page_answers_the_sites_plain_403(public, username):
    answer = _client(username).get(f"/clubs/{public.pk}/games/new/")
    assert answer.status_code == 403
    assert "error.html" in _templates(answer) and "clubs/manage_forbidden.html" not in _templates(answer)
    assert "You are not allowed to do that here." in answer.content.decode()


def test_a_private_club_is_the_sites_404_on_every_page_and_its_api():
    private = make_club("Private", owner=make_owner("owner"))
    member = make_members(private, "Ann")[0]
    stranger = _client("stranger")
    for path in ("", "settings/", "members/", f"members/{member.pk}/", "games/new/", "export/games.csv"):
        answer = stranger.get(f"/clubs/{private.pk}/{path}")
        assert answer.status_code == 404 and "404.html" in _templates(answer), path
    api = stranger.get(f"/api/v1/clubs/{private.pk}/members/")
    assert api.status_code == 404 and api.json()["errors"] == [{"where": "club", "message": "No such club."}]


def test_access_comes_before_the_method_and_the_forms_key(public):
    private = make_club("Private", owner=make_owner("owner"))
    stranger = _client("stranger")
    assert stranger.get(f"/clubs/{private.pk}/members/add/").status_code == 404  # not 405
    assert stranger.get(f"/clubs/{public.pk}/members/add/").status_code == 403
    assert Client().put(f"/clubs/{public.pk}/settings/").status_code == 302  # to log in
    form = {"name": "Eve", "idempotency_key": "k-1"}
    assert stranger.post(f"/clubs/{public.pk}/members/add/", form).status_code == 403
    owner = _client("owner")
    assert owner.get(f"/clubs/{public.pk}/members/add/").status_code == 405
    assert owner.post(f"/clubs/{public.pk}/members/add/", form).status_code == 302
    assert stranger.post(f"/clubs/{public.pk}/members/add/", form).status_code == 403  # the key is not theirs
    assert Member.objects.filter(club=public).count() == 1


def test_a_member_of_another_club_in_the_address_is_the_sites_404(public):
    other = make_club("Other", owner=make_owner("owner"))
    theirs = make_members(other, "Bob")[0]
    owner = _client("owner")
    answer = owner.post(f"/clubs/{public.pk}/members/{theirs.pk}/rename/", {"name": "X", "version": "1"})
    assert answer.status_code == 404 and "404.html" in _templates(answer)
    assert owner.get(f"/clubs/{public.pk}/members/{theirs.pk}/").status_code == 404
    assert owner.get(f"/clubs/p/{public.public_token}/members/{theirs.pk}/").status_code == 404
