"""Which club a tournament belongs to: the one check and change both the settings (`events`) and
the links page (`club_links`) make, inside their transaction, under the tournament's lock."""

from __future__ import annotations

from typing import Any

from clubs.access import ClubCapability, club_for_user
from clubs.models import Club
from tournaments.models import Entrant, Tournament

__all__ = ["NO_CHANGE", "apply_club", "club_of_director"]

#: The settings change names no club (the tournament's stays as it is).
NO_CHANGE: Any = object()


def club_of_director(tournament: Tournament, club_id: Any) -> Club | None:
    """The club `club_id` (None: no club) when the tournament's director owns it; else the clubs
    access policy's 404 (a private club of someone else) or 403 (one they may only read)."""
    if club_id is None:
        return None
    return club_for_user(tournament.director, club_id, ClubCapability.MANAGE).club


def apply_club(locked: Tournament, club: Club | None) -> bool:
    """Set the locked tournament's club (saved with it by the caller); a different club clears every
    player's member link. Answers whether it changed."""
    if (club.pk if club else None) == locked.club_id:
        return False
    locked.club = club
    Entrant.objects.filter(tournament=locked).exclude(member=None).update(member=None)
    return True
