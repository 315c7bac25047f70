"""Ending a live game before its last hole ("End the game now"), and resuming it.

A family stops after hole 5 of 9 (dinner is ready): the game is over, decided by the holes played
with the ruleset's tiebreakers, exactly as the rules engine ranks a full match
(`scoring.rules.compute_match_state(..., ended_early=True)`). Resuming clears the ending: the game
is in progress again and the next hole is the one after those played. Both are kept in the change
history. Undo and redo move holes only (`scoring.services.undo`); resume is how an ending is taken
back. A managed game (a tournament's table) never ends this way: its director runs the rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_ACTOR_LENGTH
from scoring.game_errors import GameError, GameManaged, IdempotencyConflict, StaleVersion
from scoring.models import ChangeAction, Game, GameChange, GameStatus
from scoring.rules.errors import Problem
from scoring.services._hole_writing import copy_game_state, lock_game, refresh_totals_and_status
from scoring.services.idempotency import game_key, store_ending_key


class GameNotEndable(GameError):
    """The game cannot be ended (or resumed) as it stands: no hole played yet, already over, not ended."""

    http_status = 409


@dataclass(frozen=True)
class EndRequest:
    """Who asks (`actor`), the game version they read (`expected_version`, the API's If-Match; None:
    any) and the request's Idempotency-Key with its body's hash (a replay then writes nothing)."""

    actor: str = ""
    expected_version: int | None = None
    idempotency_key: str | None = None
    request_hash: str = ""


def end_game_early(game: Game, request: EndRequest | None = None) -> bool:
    """End `game` after the holes played; True when this call ended it, False for a replay.

    Refused (`GameNotEndable`, 409) before any hole is played, once the match is over (its last
    hole, a target score or an earlier ending decided it) and while a sudden death is pending;
    refused on a managed game (`GameManaged`). The version bump and the "finished" change told to
    the game's manager (ratings of a club's game) are those of any hole that ends a match.
    """
    return _set_ending(game, request or EndRequest(), end=True)


def resume_game(game: Game, request: EndRequest | None = None) -> bool:
    """Take back an early ending: `game` is in progress again; True when this call resumed it.

    Refused (`GameNotEndable`) when the game was not ended early; a managed game as for ending.
    """
    return _set_ending(game, request or EndRequest(), end=False)


def _set_ending(game: Game, request: EndRequest, *, end: bool) -> bool:
    """One transaction under the game lock: check, set or clear the ending, log it, recompute."""
    with transaction.atomic():
        locked = lock_game(game)
        if request.idempotency_key and _replayed(locked, request):
            copy_game_state(locked, game)
            return False
        _refuse(locked, request, end=end)
        holes_played = max((seat.holes_played for seat in locked.seats.all()), default=0)
        before = {"status": locked.status, "winners": list(locked.winners)}
        Game.objects.filter(pk=locked.pk).update(ended_early=end)
        locked.ended_early = end
        refresh_totals_and_status(locked)
        GameChange.objects.create(
            game=locked,
            action=ChangeAction.END if end else ChangeAction.RESUME,
            hole_number=holes_played,
            actor=request.actor[:MAX_ACTOR_LENGTH],
            before=before,
            after={"status": locked.status, "winners": list(locked.winners)},
        )
        if request.idempotency_key:
            store_ending_key(locked, request.idempotency_key, request.request_hash)
    copy_game_state(locked, game)
    return True


def _replayed(game: Game, request: EndRequest) -> bool:
    """True when this Idempotency-Key was used for this very request (answer, write nothing);
    `IdempotencyConflict` (422) when it was used for another one."""
    seen = game_key(game.pk, request.idempotency_key)
    if seen is None:
        return False
    if seen.request_hash != request.request_hash:
        raise IdempotencyConflict(
            Problem("Idempotency-Key", _("This Idempotency-Key was used for another request of this game."))
        )
    return True


def _refuse(game: Game, request: EndRequest, *, end: bool) -> None:
    """Raise what stops this ending (or resuming) now, if anything."""
    if game.is_managed:
        raise GameManaged(
            Problem(
                "status",
                _(
                    "A tournament table's game cannot be ended early: it ends when its holes are "
                    "played, and the director runs the rounds."
                ),
            )
        )
    if request.expected_version is not None and request.expected_version != game.version:
        raise StaleVersion(
            Problem("If-Match", _("The game changed since you read it: read it again, then decide."))
        )
    if not end:
        if not game.ended_early:
            raise GameNotEndable(
                Problem("status", _("This game was not ended early: there is nothing to resume."))
            )
        return
    if game.ended_early:
        raise GameNotEndable(Problem("status", _("This game was already ended early.")))
    if not game.seats.filter(holes_played__gt=0).exists():
        raise GameNotEndable(
            Problem("status", _("No hole is played yet: score a hole first, or delete the game."))
        )
    if game.status == GameStatus.SUDDEN_DEATH:
        raise GameNotEndable(
            Problem(
                "status", _("The match is over and a sudden-death playoff is pending: play it to decide.")
            )
        )
    if game.status == GameStatus.FINISHED:
        raise GameNotEndable(Problem("status", _("The match is already over: there is nothing to end.")))
