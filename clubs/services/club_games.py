"""A club's live games: linking a new game's seats to the club's members, from the games API
(`club` and `members` of `POST /api/v1/games/`, through `ClubGameManager.link_new_game` and
scoring's `game_links`) and from the club's own start page (`start_club_game`).

Everything is checked before anything is written; the links (`ClubGame`, one `SeatMember` per
linked seat) are written by the game's creating transaction (`create_game(after_create=...)`), so a
game is never saved without its links nor links without their game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from clubs.access import ClubCapability, club_for_user
from clubs.errors import ClubConflict, ClubError
from clubs.models import CLUB_GAME, Club, ClubGame, Member, SeatMember
from scoring import game_links, services
from scoring.rules.errors import Problem

__all__ = ["link_club_game", "start_club_game"]


def _checked_members(club: Club, ids: Sequence[int | None], where: str) -> list[Member | None]:
    """Per seat, the club's member of that id or None (a guest); `ClubError` naming each bad seat
    as `where[n]` (1-based): not a member of this club, retired, or already seated."""
    wanted = {member_id for member_id in ids if member_id is not None}
    found = {member.pk: member for member in Member.objects.filter(club=club, pk__in=wanted)}
    problems: list[Problem] = []
    seated: set[int] = set()
    members: list[Member | None] = []
    for index, member_id in enumerate(ids, start=1):
        member = found.get(member_id) if member_id is not None else None
        seat = f"{where}[{index}]"
        if member_id is not None and member is None:
            problems.append(Problem(seat, _("No member %(id)s in this club.") % {"id": member_id}))
        elif member is not None and member.retired_at is not None:
            problems.append(Problem(seat, _("%(name)s is retired from the club.") % {"name": member.name}))
        elif member is not None and member.pk in seated:
            problems.append(Problem(seat, _("%(name)s already has a seat.") % {"name": member.name}))
        if member is not None:
            seated.add(member.pk)
        members.append(member)
    if problems:
        raise ClubError(problems)
    return members


def _link_writer(club: Club, members: Sequence[Member | None]) -> Callable[[Any], None]:
    """The writer of a new game's club links, run in the game's creating transaction."""
    seats = {index: member for index, member in enumerate(members) if member is not None}

    def write(game: Any) -> None:
        """Save the game's `ClubGame` and its seats' members (refused if a member changed meanwhile)."""
        # The members were checked before the game was written; lock them now so that a merge or a
        # retirement committed meanwhile is seen (and the game refused) rather than half-linked.
        current = Member.objects.select_for_update().filter(
            club=club, pk__in=[member.pk for member in seats.values()], retired_at__isnull=True
        )
        if current.count() != len(seats):
            raise ClubConflict(
                Problem("members", _("A member changed while the game was starting: try again."))
            )
        ClubGame.objects.create(game=game, club=club)
        SeatMember.objects.bulk_create(
            SeatMember(game=game, seat=seat, member=member) for seat, member in seats.items()
        )

    return write


def link_club_game(request: game_links.LinkRequest) -> game_links.GameLink:
    """The games API's `club` and `members`: the caller must own the club (404 for a private club of
    someone else, 403 for one they may only read); `members` has one entry per player, each a
    current member of the club or null, no member twice. `club` alone links the game, no seat."""
    fields = request.fields
    if "club" not in fields:
        raise ClubError(Problem("club", _("Say which club the members belong to.")))
    club = club_for_user(request.user, fields["club"], ClubCapability.MANAGE).club
    ids = fields.get("members")
    if ids is None:
        ids = [None] * len(request.players)
    elif len(ids) != len(request.players):
        raise ClubError(
            Problem(
                "members",
                _("Give one entry per player (%(count)s), a member's id or null for a guest.")
                % {"count": len(request.players)},
            )
        )
    members = _checked_members(club, ids, "members")
    return game_links.GameLink(followed_by=CLUB_GAME, write=_link_writer(club, members))


def start_club_game(
    club: Club,
    *,
    seats: Sequence[Member | str],
    ruleset: Any = "official",
    first_dealer: int = 0,
    title: str = "",
    owner: Any = None,
    start_key: str | None = None,
) -> Any:
    """Start a live game of `club` with `seats` in order: a Member sits there linked, a str is a
    guest's name. The members must be current members of the club, each once (`ClubError`
    naming `seats[n]`); the rest is checked as any new game (`GameError`). A `start_key` used
    before answers the game it started (a double submit starts one game)."""
    ids = [seat.pk if isinstance(seat, Member) else None for seat in seats]
    members = _checked_members(club, ids, "seats")
    names = [seat.name if isinstance(seat, Member) else seat for seat in seats]
    return services.create_game(
        players=names,
        ruleset=ruleset,
        first_dealer=first_dealer,
        owner=owner,
        title=title,
        start_key=start_key,
        followed_by=CLUB_GAME,
        after_create=[_link_writer(club, members)],
    )
