"""A club itself: creating it, its name and visibility, and its owners (invitations by a one-use link).

Every write locks the club's row and bumps `Club.version` (the ETag an edit names with If-Match),
so two owners editing at once never overwrite each other unseen.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import ClubConflict, ClubError, NotFoundInClub
from clubs.models import Club, ClubOwner, OwnerInvitation, new_club_token
from clubs.services._common import check_version, clean_label, lock_club
from golfclub.core.inputs import is_token
from golfclub.core.limits import MAX_CLUB_NAME_LENGTH
from scoring.rules.errors import Problem


def clean_club_name(raw: Any) -> str:
    """A club's name as stored, or `ClubError` naming "name"."""
    return clean_label(raw, "name", max_length=MAX_CLUB_NAME_LENGTH, what=_("The club's name"))


def create_club(*, user: Any, name: Any, is_public: bool = False) -> Club:
    """A new club named `name`, owned by `user` (a logged-in account)."""
    if user is None or not user.is_authenticated:
        raise ClubError(Problem("user", _("Log in to create a club.")))
    clean = clean_club_name(name)
    with transaction.atomic():
        club = Club.objects.create(name=clean, is_public=bool(is_public))
        ClubOwner.objects.create(club=club, user=user)
    return club


def update_club(
    club: Club,
    *,
    name: Any = None,
    is_public: bool | None = None,
    new_public_link: bool = False,
    version: int | None = None,
) -> Club:
    """Change the club's name and/or visibility (None leaves a value as it is); `new_public_link`
    replaces the public page's link, so a link shared too widely stops working at once; `version`
    is the one the client read (`StaleVersion` when another change came first)."""
    clean = clean_club_name(name) if name is not None else None
    with transaction.atomic():
        locked = lock_club(club)
        check_version(locked.name, locked.version, version)
        changed = []
        if clean is not None and clean != locked.name:
            locked.name = clean
            changed.append("name")
        if is_public is not None and bool(is_public) != locked.is_public:
            locked.is_public = bool(is_public)
            changed.append("is_public")
        if new_public_link:
            locked.public_token = new_club_token()
            changed.append("public_token")
        if changed:
            locked.version = F("version") + 1
            locked.save(update_fields=[*changed, "version"])
            locked.refresh_from_db()
    return locked


def _bump(club: Club) -> None:
    Club.objects.filter(pk=club.pk).update(version=F("version") + 1)


def invite_owner(club: Club, *, by: Any) -> OwnerInvitation:
    """A one-use invitation: whoever opens its link logged in becomes a co-owner of `club`."""
    return OwnerInvitation.objects.create(club=club, created_by=by)


def invitation_by_token(token: Any) -> OwnerInvitation:
    """The invitation of `token` with its club, or `NotFoundInClub` (unknown token)."""
    invitation = (
        OwnerInvitation.objects.select_related("club").filter(token=token).first()
        if is_token(token)
        else None
    )
    if invitation is None:
        raise NotFoundInClub(Problem("invitation", _("No such invitation.")))
    return invitation


def accept_invitation(token: Any, user: Any) -> Club:
    """Make `user` a co-owner through the invitation `token`; an invitation is used once.

    An owner following a link of their own club is simply sent there (the link stays unused);
    a link already used by someone else is a `ClubConflict`.
    """
    if user is None or not user.is_authenticated:
        raise ClubError(Problem("user", _("Log in to accept the invitation.")))
    invitation = invitation_by_token(token)
    with transaction.atomic():
        club = lock_club(invitation.club)
        invitation = OwnerInvitation.objects.select_for_update().get(pk=invitation.pk)
        if ClubOwner.objects.filter(club=club, user=user).exists():
            return club
        if invitation.used_at is not None:
            raise ClubConflict(
                Problem("invitation", _("This invitation was already used: ask an owner for a new link."))
            )
        ClubOwner.objects.create(club=club, user=user)
        invitation.used_by, invitation.used_at = user, timezone.now()
        invitation.save(update_fields=["used_by", "used_at"])
        _bump(club)
    club.refresh_from_db()
    return club


def remove_owner(club: Club, owner: ClubOwner) -> None:
    """Remove a co-owner from `club`; the last owner stays (a club always has someone to run it).

    The links they made and nobody used yet go with them: a removed owner must not come back (or
    bring someone in) through an invitation of their own."""
    with transaction.atomic():
        locked = lock_club(club)
        owners = list(ClubOwner.objects.filter(club=locked).select_for_update())
        if not any(o.pk == owner.pk for o in owners):
            raise NotFoundInClub(Problem("owner", _("No such owner of this club.")))
        if len(owners) == 1:
            raise ClubConflict(Problem("owner", _("A club needs at least one owner: this is the last one.")))
        removed = next(o for o in owners if o.pk == owner.pk)
        OwnerInvitation.objects.filter(club=locked, created_by_id=removed.user_id, used_at=None).delete()
        ClubOwner.objects.filter(pk=owner.pk).delete()
        _bump(locked)


def owners_of(club: Club) -> list[ClubOwner]:
    """The club's owners with their accounts, first added first."""
    return list(ClubOwner.objects.filter(club=club).select_related("user").order_by("added_at", "pk"))
