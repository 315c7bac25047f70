"""A tournament's club and its players' links to the club's members.

A tournament may belong to a club (`Tournament.club`): only a club its director owns (the access
policy of `clubs.access`: a private club of someone else does not exist, 404; a club they may only
read, 403). Its players (`Entrant.member`) are then linked to the club's members, by the director:
the name matches are offered (at CSV import and on the links page) and only linked once confirmed.
A member plays at most one player of a tournament. Changing or clearing the club clears the links.

Every write locks the tournament first, logs the change and moves the tournament's version.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import NotAnOwner, NotFoundInClub
from clubs.models import Member
from scoring.rules.errors import Problem
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Tournament
from tournaments.services.club_choice import apply_club, club_of_director
from tournaments.services.club_results import recount_tournament
from tournaments.services.events import bump_version, log_event
from tournaments.services.locks import lock_tournament

__all__ = [
    "EntrantLink",
    "confirmed_suggestions",
    "entrant_links",
    "link_entrants",
    "linkable_members",
    "set_tournament_club",
]


@dataclass(frozen=True, slots=True)
class EntrantLink:
    """A player of the tournament, their confirmed member (or None) and the member their name
    matches (a suggestion, or None when no current member has that name or it is already linked)."""

    entrant: Entrant
    member: Member | None
    suggestion: Member | None


def set_tournament_club(tournament: Tournament, club_id: Any, *, actor: Any = None) -> Tournament:
    """Make the tournament belong to the club `club_id` (None: to no club). The director must own
    it. A different club than before clears every player's member link."""
    club = club_of_director(tournament, club_id)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if not apply_club(locked, club):
            return locked
        locked.save(update_fields=["club"])
        log_event(locked, "club", actor=actor, club=club.name if club else "")
        bump_version(locked.pk)
    tournament.club = club
    return tournament


def linkable_members(tournament: Tournament) -> list[Member]:
    """The current members of the tournament's club, by name, while its director owns the club
    (none after they were removed from its owners: its members are no longer theirs to read)."""
    if tournament.club_id is None:
        return []
    try:
        club = club_of_director(tournament, tournament.club_id)
    except (NotFoundInClub, NotAnOwner):
        return []
    return list(Member.objects.filter(club=club, retired_at__isnull=True).order_by("name_key"))


def entrant_links(tournament: Tournament) -> list[EntrantLink]:
    """Every player with their member link and the name match offered (a few queries)."""
    entrants = list(
        Entrant.objects.filter(tournament=tournament).select_related("member").order_by("name_key")
    )
    if tournament.club_id is None:
        return [EntrantLink(entrant, None, None) for entrant in entrants]
    members = {member.name_key: member for member in linkable_members(tournament)}
    linked = {entrant.member_id for entrant in entrants if entrant.member_id is not None}
    links = []
    for entrant in entrants:
        match = members.get(entrant.name_key)
        offered = (
            match if entrant.member_id is None and match is not None and match.pk not in linked else None
        )
        links.append(EntrantLink(entrant, entrant.member, offered))
    return links


def link_entrants(tournament: Tournament, links: Mapping[int, int | None], *, actor: Any = None) -> int:
    """Set the member of each player `links` names (entrant id -> member id, None to clear): the
    members must be of the tournament's club and each link one player. Answers the links changed.
    `TournamentError` names each bad player ("players[<id>]"); nothing changes then."""
    if tournament.club_id is None:
        raise TournamentError(Problem("club", _("The tournament belongs to no club: choose its club first.")))
    with transaction.atomic():
        locked = lock_tournament(tournament)
        # Its director must still own the club: links change the club's ratings (404 or 403).
        club_of_director(locked, locked.club_id)
        entrants = {e.pk: e for e in Entrant.objects.filter(tournament=locked, pk__in=list(links))}
        wanted = {member_id for member_id in links.values() if member_id is not None}
        members = {m.pk: m for m in Member.objects.filter(club_id=locked.club_id, pk__in=wanted)}
        problems = _link_problems(locked, links, entrants, members)
        if problems:
            raise TournamentError(problems)
        changed = [e for pk, e in entrants.items() if e.member_id != links[pk]]
        for entrant in changed:
            entrant.member_id = links[entrant.pk]
        # Clear first, then set: a member moving from one player to another never counts twice.
        Entrant.objects.filter(pk__in=[e.pk for e in changed]).update(member=None)
        Entrant.objects.bulk_update([e for e in changed if e.member_id is not None], ["member"])
        if changed:
            log_event(locked, "member_links", actor=actor, players=len(changed))
            bump_version(locked.pk)
            # Rounds already finalized count for the members as now linked.
            recount_tournament(locked.pk, locked.club_id)
    return len(changed)


def _link_problems(
    tournament: Tournament,
    links: Mapping[int, int | None],
    entrants: Mapping[int, Entrant],
    members: Mapping[int, Member],
) -> list[Problem]:
    """What is wrong with `links`: unknown players or members, a member given to two players."""
    problems: list[Problem] = []
    taken = dict(
        Entrant.objects.filter(tournament=tournament, member__isnull=False)
        .exclude(pk__in=list(links))
        .values_list("member_id", "name")
    )
    given: dict[int, int] = {}
    for entrant_id, member_id in links.items():
        where = f"players[{entrant_id}]"
        if entrant_id not in entrants:
            problems.append(Problem(where, _("No such player in this tournament.")))
        elif member_id is not None and member_id not in members:
            problems.append(Problem(where, _("No such member in the tournament's club.")))
        elif member_id is not None and (member_id in taken or member_id in given):
            name = members[member_id].name
            problems.append(
                Problem(where, _("%(name)s is already linked to another player.") % {"name": name})
            )
        if member_id is not None:
            given[member_id] = entrant_id
    return problems


def confirmed_suggestions(
    tournament: Tournament, entrant_ids: Iterable[int] | None = None, *, actor: Any = None
) -> int:
    """Link every player (or those of `entrant_ids`) to the member their name matches, as offered."""
    if tournament.club_id is not None:
        club_of_director(tournament, tournament.club_id)  # 404 or 403 once the director is not an owner
    chosen = set(entrant_ids) if entrant_ids is not None else None
    links = {
        link.entrant.pk: link.suggestion.pk
        for link in entrant_links(tournament)
        if link.suggestion is not None and (chosen is None or link.entrant.pk in chosen)
    }
    return link_entrants(tournament, links, actor=actor) if links else 0
