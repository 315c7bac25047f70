"""Player names and the roster, shared by game creation and seat changes.

Every name that enters the database is cleaned and checked here (`golfclub.core.names` rules); a
logged-in owner's roster entries are found (or created) by name key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.limits import MIN_PLAYERS
from golfclub.core.names import check_player_names, name_key
from scoring.game_errors import (
    ConcurrentWrite,
    GameError,
    SeatNotFound,
)
from scoring.models import (
    Player,
    Seat,
)
from scoring.rules.errors import Problem

_ROSTER_ATTEMPTS = 3  # a roster row deleted between our insert and our read: insert again


def clean_player_names(
    names: Iterable[str], *, where: str = "players", minimum: int = MIN_PLAYERS
) -> list[str]:
    """Clean and check player names with the one name check (`golfclub.core.names.check_player_names`).

    Something visible, not too long, all different as people read names (case, full-width letters
    and accents typed precomposed or not do not make two players), a table's worth. Every name
    that enters the database comes through here; `where` is "players" (each problem then points at
    `players[N]`) or the one field checked.
    """
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise GameError(Problem(where, _("Give the players as a list of names in seat order.")))
    checked = check_player_names(list(names), minimum=minimum)
    if checked.problems:
        raise GameError(
            [
                Problem(f"{where}[{p.position}]" if where == "players" and p.position else where, p.message())
                for p in checked.problems
            ]
        )
    return checked.names


def already_on_roster(name: str) -> GameError:
    """The error for a name already on the owner's roster."""
    return GameError(Problem("name", _("%(name)s is already on your list.") % {"name": name}))


def roster_players(owner: AbstractBaseUser | None, names: Sequence[str]) -> dict[str, Player]:
    """The Player for each (clean) name: the owner's roster entry, created when new, or a table-only one.

    Roster entries match by name key. Two games started at once by one owner with the same new
    name both insert it with ON CONFLICT DO NOTHING (PostgreSQL waits for the other insert to
    commit or roll back), then read it back: both games share one roster Player, and neither the
    caller's transaction nor its savepoints see an IntegrityError.
    """
    now = timezone.now()
    if owner is None:
        created = Player.objects.bulk_create(
            Player(name=name, name_key=name_key(name), last_played_at=now) for name in names
        )
        return dict(zip(names, created, strict=True))
    keys = {name: name_key(name) for name in names}
    for attempt in range(_ROSTER_ATTEMPTS):
        found = {p.name_key: p for p in Player.objects.filter(owner=owner, name_key__in=keys.values())}
        missing = [name for name in names if keys[name] not in found]
        if not missing:
            break
        if attempt == _ROSTER_ATTEMPTS - 1:  # deleted again each time we read: give up cleanly
            raise ConcurrentWrite(Problem("players", _("Your list of players changed meanwhile: try again.")))
        Player.objects.bulk_create(
            (Player(owner=owner, name=name, name_key=keys[name], last_played_at=now) for name in missing),
            ignore_conflicts=True,
        )
    result = {name: found[keys[name]] for name in names}
    Player.objects.filter(pk__in=[p.pk for p in result.values()]).update(last_played_at=now)
    return result


def refuse_taken_name(seats: Sequence[Seat], name: str, where: str) -> None:
    """Refuse `name` when a player at the table is already called that (as names are compared)."""
    if any(s.name_key == name_key(name) for s in seats):
        raise GameError(
            Problem(where, _("%(name)s is already at the table: names must differ.") % {"name": name})
        )


def seat_at(seats: Sequence[Seat], index: int) -> Seat:
    """The seat numbered `index` (0-based) among `seats`; `SeatNotFound` if none."""
    for seat in seats:
        if seat.seat == index:
            return seat
    raise SeatNotFound(Problem("seat", _("There is no seat %(n)s at this table.") % {"n": index + 1}))
