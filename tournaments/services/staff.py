"""Staff of a tournament: make a user a co-director or official, or take them off."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.models import Staff, StaffRole, Tournament
from tournaments.services.events import bump_version, log_event
from tournaments.services.locks import lock_tournament


def add_staff(tournament: Tournament, username: str, role: str, *, actor: Any = None) -> Staff:
    """Make the user called `username` a co-director or official of `tournament` (or change their role)."""
    if role not in StaffRole.values:
        raise TournamentError(
            Problem("role", _("The role must be one of: %(r)s.") % {"r": ", ".join(StaffRole.values)})
        )
    user = (
        get_user_model().objects.filter(username=(username or "").strip()[:150]).first()
        if isinstance(username, str)
        else None
    )
    if user is None:
        raise TournamentError(
            Problem("username", _("No user is called %(name)s.") % {"name": str(username)[:150]})
        )
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if user.pk == locked.director_id:
            raise WrongState(
                Problem("username", _("%(name)s directs this tournament already.") % {"name": user.username})
            )
        staff, _created = Staff.objects.update_or_create(
            tournament=locked, user=user, defaults={"role": role}
        )
        log_event(locked, "staff_added", actor=actor, username=user.username, role=role)
        bump_version(locked.pk)  # the user's role in the tournament's answer (its ETag moves)
    return staff


def remove_staff(tournament: Tournament, staff_id: int, *, actor: Any = None) -> None:
    """Take a co-director or official off `tournament`."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        staff = Staff.objects.filter(tournament=locked, pk=staff_id).select_related("user").first()
        if staff is None:
            raise NotFoundInTournament(Problem("staff", _("No such staff member in this tournament.")))
        log_event(locked, "staff_removed", actor=actor, username=staff.user.username, role=staff.role)
        staff.delete()
        bump_version(locked.pk)
