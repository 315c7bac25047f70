"""Hostile checks of who may become an owner: an invitation outlives nothing of a removed owner."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.errors import NotFoundInClub
from clubs.models import ClubOwner, Member, OwnerInvitation
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


def test_a_director_removed_from_the_club_no_longer_links_or_reads_its_members():
    """A tournament set to a club while its director co-owned it: once they are removed, its links
    page neither changes the club's ratings (linking players to members) nor lists the members."""
    from tests.tournaments.helpers import event, user
    from tournaments.services import club_links

    owner, dora = make_owner("own"), user("dora")
    club = make_club("Private Golf", owner)
    secret = Member.objects.create(club=club, name="P01")
    services.accept_invitation(services.invite_owner(club, by=owner).token, dora)
    tournament = event(4)
    club_links.set_tournament_club(tournament, club.pk)
    services.remove_owner(club, ClubOwner.objects.get(club=club, user=dora))

    with pytest.raises(NotFoundInClub):
        club_links.confirmed_suggestions(tournament)
    page = Client()
    page.force_login(dora)
    answer = page.post(f"/tournaments/{tournament.pk}/club/", {"action": "confirm_all"})
    assert answer.status_code == 404
    entrant = tournament.entrants.get(name="P01")
    answer = page.post(
        f"/tournaments/{tournament.pk}/club/", {"action": "link", "player": entrant.pk, "member": secret.pk}
    )
    assert answer.status_code == 404
    assert not tournament.entrants.filter(member__isnull=False).exists()
    shown = page.get(f"/tournaments/{tournament.pk}/club/")
    assert shown.status_code == 200 and f'value="{secret.pk}"' not in shown.content.decode()
    assert all(link.suggestion is None for link in club_links.entrant_links(tournament))


def test_two_seasons_cannot_differ_only_by_case_or_width():
    from clubs.errors import ClubError
    from clubs.services.seasons import create_season, update_season

    club = make_club("Friday Golf", make_owner("own"))
    spring = create_season(club, name="Spring", start="2027-03-01", end="2027-05-31")
    autumn = create_season(club, name="Autumn", start="2027-09-01", end="2027-11-30")
    for twin in ("spring", "SPRING", "\uff33pring"):  # the last: a full-width S
        with pytest.raises(ClubError) as refused:
            create_season(club, name=twin, start="2028-03-01", end="2028-05-31")
        assert [p.where for p in refused.value.problems] == ["name"]
    with pytest.raises(ClubError):
        update_season(club, autumn, name="SPRING")
    assert update_season(club, spring, name="SPRING").name == "SPRING"  # its own name, recased


def test_a_retire_button_with_a_bad_value_is_a_400_and_changes_nothing():
    from django.utils import timezone

    owner = make_owner("own")
    club = make_club("Friday Golf", owner)
    ann = Member.objects.create(club=club, name="Ann", retired_at=timezone.now())
    page = Client()
    page.force_login(owner)
    for bad in ({"retired": "maybe"}, {}, {"retired": ""}):
        answer = page.post(f"/clubs/{club.pk}/members/{ann.pk}/retire/", bad)
        assert answer.status_code == 400 and "say whether the member is retired" in answer.content.decode()
    ann.refresh_from_db()
    assert ann.retired_at is not None


def test_a_public_clubs_readers_do_not_see_its_owners_login_names():
    from rest_framework.test import APIClient

    club = make_club("Open Golf", make_owner("ann.smith@example.com"), public=True)
    stranger = APIClient()
    stranger.force_authenticate(make_owner("eve"))
    for reader in (APIClient(), stranger):
        answer = reader.get(f"/api/v1/clubs/{club.pk}/")
        assert answer.status_code == 200 and answer.json()["owners"] == []
        assert "ann.smith" not in answer.content.decode()
    owner = APIClient()
    owner.force_authenticate(make_owner("ann.smith@example.com"))
    assert owner.get(f"/api/v1/clubs/{club.pk}/").json()["owners"] == ["ann.smith@example.com"]
