"""Hostile checks of who may become an owner: an invitation outlives nothing of a removed owner."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import ClubOwner, OwnerInvitation
from clubs.services import clubs as services
from tests.clubs.factories import make_club, make_owner

pytestmark = pytest.mark.django_db


def test_a_removed_co_owner_cannot_come_back_through_an_invitation_they_made():
    owner, co, accomplice = make_owner("own"), make_owner("co"), make_owner("co-second-account")
    club = make_club("Friday Golf", owner)
    services.accept_invitation(services.invite_owner(club, by=owner).token, co)
    kept_for_later = services.invite_owner(club, by=co)
    still_good = services.invite_owner(club, by=owner)

    services.remove_owner(club, ClubOwner.objects.get(club=club, user=co))

    page = Client()
    page.force_login(accomplice)
    assert page.get(f"/clubs/invitations/{kept_for_later.token}/").status_code == 404
    assert page.post(f"/clubs/invitations/{kept_for_later.token}/").status_code == 404
    assert not ClubOwner.objects.filter(club=club, user=accomplice).exists()
    # The remaining owner's own unused link still works.
    assert OwnerInvitation.objects.filter(pk=still_good.pk, used_at=None).exists()
    assert services.accept_invitation(still_good.token, accomplice) == club
