"""Seats at a game's table (add, rename, remove) and a logged-in user's roster of players."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_PLAYERS, MIN_PLAYERS
from golfclub.core.names import name_key
from scoring.game_errors import (
    GameError,
    RulesFrozen,
    StaleVersion,
)
from scoring.models import (
    Game,
    Player,
    Seat,
)
from scoring.rules.errors import Problem
from scoring.services._guards import Capabilities, refuse_unless_manager
from scoring.services._hole_writing import copy_game_state, lock_game, refresh_totals_and_status
from scoring.services._players import (
    already_on_roster,
    clean_player_names,
    refuse_taken_name,
    roster_players,
    seat_at,
)


def seat_add(game: Game, name: str, *, actor: str = "", capabilities: Capabilities = None) -> Seat:
    """Add a player in the next seat (clockwise after the last) before the first hole is recorded.

    On a managed game, `capabilities` (what the person asking was granted) must hold "manage"
    (`GameManaged` otherwise); None is the code itself, trusted.
    """
    with transaction.atomic():
        locked = lock_game(game)
        refuse_unless_manager(locked, capabilities, "name")
        _refuse_once_dealt(locked, "players", _("Players cannot join once the cards have been dealt."))
        seats = list(locked.seats.order_by("seat"))
        if len(seats) >= MAX_PLAYERS:
            raise GameError(Problem("name", _("A table holds %(n)s players at most.") % {"n": MAX_PLAYERS}))
        (clean,) = clean_player_names([name], where="name", minimum=1)
        refuse_taken_name(seats, clean, "name")
        player = roster_players(locked.owner, [clean])[clean]  # Seat.save() sets the name key
        seat = Seat.objects.create(game=locked, player=player, seat=len(seats), name=clean)
        refresh_totals_and_status(locked)
    copy_game_state(locked, game)
    return seat


def seat_rename(game: Game, seat_index: int, name: str, *, capabilities: Capabilities = None) -> Seat:
    """Rename the player in seat `seat_index` (0-based); allowed at any time (`GameManaged` as above)."""
    with transaction.atomic():
        locked = lock_game(game)
        refuse_unless_manager(locked, capabilities, "name")
        seats = list(locked.seats.order_by("seat"))
        seat = seat_at(seats, seat_index)
        (clean,) = clean_player_names([name], where="name", minimum=1)
        refuse_taken_name([s for s in seats if s.pk != seat.pk], clean, "name")
        seat.name = clean
        seat.save(update_fields=["name"])  # and its name key (NamedModel.save)
        refresh_totals_and_status(locked)
    copy_game_state(locked, game)
    return seat


def seat_remove(
    game: Game, seat_index: int, *, expected_id: int | None = None, capabilities: Capabilities = None
) -> None:
    """Remove the player in seat `seat_index` before the first hole; later seats move up one.

    With `expected_id` (the seat the client read), a repeat once that player is gone raises
    `StaleVersion` instead of removing whoever moved up into the seat. `GameManaged` as above.
    """
    with transaction.atomic():
        locked = lock_game(game)
        refuse_unless_manager(locked, capabilities, "seat")
        _refuse_once_dealt(locked, "seat", _("Players cannot leave once the cards have been dealt."))
        seats = list(locked.seats.order_by("seat"))
        seat = seat_at(seats, seat_index)
        if expected_id is not None and seat.pk != expected_id:
            raise StaleVersion(
                Problem(
                    "If-Match",
                    _(
                        "Seat %(n)s is not the player you loaded (%(name)s sits there now): that player "
                        "was already removed or the seats moved. Nothing was changed."
                    )
                    % {"n": seat_index, "name": seat.name},
                )
            )
        if len(seats) <= MIN_PLAYERS:
            raise GameError(Problem("seat", _("A game needs at least %(n)s players.") % {"n": MIN_PLAYERS}))
        seat.delete()
        later = [s for s in seats if s.seat > seat_index]
        for moved in later:  # ascending, so each target seat is already free
            moved.seat -= 1
            moved.save(update_fields=["seat"])
        # The same person keeps the first deal; if they left, the next seat clockwise takes it.
        dealer = locked.first_dealer - 1 if locked.first_dealer > seat_index else locked.first_dealer
        dealer = dealer if dealer < len(seats) - 1 else 0
        if dealer != locked.first_dealer:
            locked.first_dealer = dealer
            locked.save(update_fields=["first_dealer", "updated_at"])
        refresh_totals_and_status(locked)
    copy_game_state(locked, game)


def _refuse_once_dealt(game: Game, where: str, message: str) -> None:
    """Refuse a change of players (`RulesFrozen`) once the game has a hole."""
    if game.holes.exists():
        raise RulesFrozen(Problem(where, message))


def player_create(owner: AbstractBaseUser, name: str) -> Player:
    """Add a player to `owner`'s roster (one per name as `golfclub.core.names` compares them).

    Two requests adding the same name at once: the database's unique (owner, name key) lets one
    in; the other gets the same `GameError` as a name already there, never an IntegrityError.
    """
    (clean,) = clean_player_names([name], where="name", minimum=1)
    key = name_key(clean)
    if Player.objects.filter(owner=owner, name_key=key).exists():
        raise already_on_roster(clean)
    try:
        with transaction.atomic():  # a savepoint when called inside a transaction
            return Player.objects.create(owner=owner, name=clean)
    except IntegrityError:
        if Player.objects.filter(owner=owner, name_key=key).exists():
            raise already_on_roster(clean) from None
        raise


def player_rename(player: Player, name: str) -> Player:
    """Rename a roster player (games already played keep the name used at their table)."""
    (clean,) = clean_player_names([name], where="name", minimum=1)
    key = name_key(clean)
    taken = Player.objects.filter(owner=player.owner, name_key=key).exclude(pk=player.pk)
    if taken.exists():
        raise already_on_roster(clean)
    player.name = clean
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:
        if taken.exists():  # renamed or added to that name at the same moment
            raise already_on_roster(clean) from None
        raise
    return player


def player_delete(player: Player) -> None:
    """Remove a player from the roster; their seats in past games keep the name."""
    with transaction.atomic():
        player.delete()
