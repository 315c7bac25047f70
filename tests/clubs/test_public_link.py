"""A public club's link can be replaced: a link shared too widely stops working at once."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club
from tests.clubs.factories import make_club, make_owner

pytestmark = pytest.mark.django_db


def test_an_owner_replaces_the_public_link_on_the_settings_page_and_the_old_one_is_gone():
    owner = make_owner("link-owner")
    club = make_club("Open Club", owner, public=True)
    old = club.public_token
    reader = Client()
    assert reader.get(f"/clubs/p/{old}/").status_code == 200
    page = Client()
    page.force_login(owner)
    answer = page.post(f"/clubs/{club.pk}/settings/public-link/", follow=True)
    assert answer.status_code == 200
    assert "The public page has a new link" in answer.content.decode()
    club.refresh_from_db()
    assert club.public_token != old and club.version == 2
    assert reader.get(f"/clubs/p/{old}/").status_code == 404
    assert reader.get(f"/clubs/p/{club.public_token}/").status_code == 200
    assert f"/clubs/p/{club.public_token}/" in answer.content.decode()


def test_only_an_owner_replaces_the_link() -> None:
    owner, stranger = make_owner("link-owner-2"), make_owner("link-stranger")
    club = make_club("Open Club", owner, public=True)
    page = Client()
    page.force_login(stranger)
    assert page.post(f"/clubs/{club.pk}/settings/public-link/").status_code == 403
    private = make_club("Closed Club", owner)
    assert page.post(f"/clubs/{private.pk}/settings/public-link/").status_code == 404
    assert Club.objects.get(pk=club.pk).version == 1


def test_the_api_replaces_the_link_with_if_match() -> None:
    owner = make_owner("link-owner-3")
    club = make_club("Open Club", owner, public=True)
    api = APIClient()
    api.force_login(owner)
    read = api.get(f"/api/v1/clubs/{club.pk}/")
    old_url = read.json()["public_url"]
    stale = api.patch(
        f"/api/v1/clubs/{club.pk}/",
        json.dumps({"new_public_link": True}),
        content_type="application/json",
        headers={"If-Match": f'"club-{club.pk}-v9"'},
    )
    assert stale.status_code == 412
    changed = api.patch(
        f"/api/v1/clubs/{club.pk}/",
        json.dumps({"new_public_link": True}),
        content_type="application/json",
        headers={"If-Match": read["ETag"]},
    )
    assert changed.status_code == 200, changed.content
    assert changed.json()["public_url"] != old_url
    bad = api.patch(
        f"/api/v1/clubs/{club.pk}/",
        json.dumps({"new_public_link": "yes"}),
        content_type="application/json",
        headers={"If-Match": changed["ETag"]},
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["where"] == "new_public_link"
