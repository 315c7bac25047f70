"""Clubs, members and club games for the clubs' tests, built through the real services and models.

`club_game` starts a live game linked to a club (each seat a member or a guest) through scoring's
`create_game` with the link written in its transaction, exactly as the clubs' own start page does,
then records its holes by typed totals: the game finishes when the ruleset's holes are all played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model

from clubs.models import Club, ClubGame, ClubOwner, Member, SeatMember
from scoring import services
from scoring.models import Game

CLUB_GAME = "clubs.game"


def make_owner(username: str = "owner") -> Any:
    """A user account (created, or the existing one of that name)."""
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


def make_club(name: str = "Friday Golf", owner: Any = None, *, public: bool = False) -> Club:
    """A club owned by `owner` (default: the user "owner")."""
    club = Club.objects.create(name=name, is_public=public)
    ClubOwner.objects.create(club=club, user=owner if owner is not None else make_owner())
    return club


def make_members(club: Club, *names: str) -> list[Member]:
    """Members of `club`, one per name, in the order given."""
    return [Member.objects.create(club=club, name=name) for name in names]


def club_game(
    club: Club,
    seats: Sequence[Member | str],
    holes: Sequence[Mapping[str, int]] = (),
    *,
    ruleset: Any = None,
) -> Game:
    """A live game of `club` with `seats` in order (a Member is linked, a str is a guest), its holes
    recorded as typed totals by player name. With `ruleset` None: the official rules, 9 holes."""
    names = [seat.name if isinstance(seat, Member) else seat for seat in seats]

    def link(game: Game) -> None:
        ClubGame.objects.create(game=game, club=club)
        SeatMember.objects.bulk_create(
            SeatMember(game=game, seat=index, member=seat)
            for index, seat in enumerate(seats)
            if isinstance(seat, Member)
        )

    game = services.create_game(
        players=names,
        ruleset=ruleset if ruleset is not None else "official",
        followed_by=CLUB_GAME,
        after_create=[link],
    )
    for entries in holes:
        services.hole_record(game, entries=dict(entries), ender=None)
    game.refresh_from_db()
    return game
