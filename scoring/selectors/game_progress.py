"""How far games are, for the apps that build on them (a tournament's dashboard, round clock and
printed score slips): holes played, finished or not, when the last hole was recorded, and who deals
and plays first each hole (the engine's rotation, `scoring.rules.match`).

"Holes played" has one definition: the regular (non-playoff) holes recorded in the game. Every seat
of a game plays every regular hole, so it is each seat's count too.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Q, QuerySet

from scoring.models import Game, GameStatus
from scoring.rules.match import dealer_for_hole, first_player_for_hole

_REGULAR = Q(holes__is_playoff=False)


@dataclass(frozen=True, slots=True)
class GameProgress:
    """One game's progress: its regular holes recorded, whether it is over, its last hole's time."""

    game_id: int
    finished: bool
    holes_played: int
    holes_to_play: int | None  # None: played to a target score
    last_hole_at: datetime.datetime | None


def games_progress(game_ids: Iterable[int] | QuerySet) -> dict[int, GameProgress]:
    """The progress of each of `game_ids`, by game id (one query for any number of games)."""
    ids = game_ids if isinstance(game_ids, QuerySet) else list(game_ids)
    rows = (
        Game.objects.filter(pk__in=ids)
        .order_by()
        .annotate(played=Count("holes", filter=_REGULAR), last=Max("holes__created_at", filter=_REGULAR))
        .values_list("pk", "status", "played", "last", "ruleset")
    )
    return {
        pk: GameProgress(
            game_id=pk,
            finished=status == GameStatus.FINISHED,
            holes_played=played,
            holes_to_play=holes_to_play(ruleset),
            last_hole_at=last,
        )
        for pk, status, played, last, ruleset in rows
    }


def holes_to_play(ruleset: Any) -> int | None:
    """How many regular holes a game's stored ruleset plays (None for a match to a target score)."""
    holes = ruleset.get("holes") if isinstance(ruleset, dict) else None
    return holes if isinstance(holes, int) and not isinstance(holes, bool) else None


def game_progress(game_id: int) -> GameProgress | None:
    """The progress of one game (one query), or None when there is no such game."""
    return games_progress([game_id]).get(game_id)


def deal_order(first_dealer: int, players: int, hole: int) -> tuple[int, int]:
    """The seat indexes (0-based, clockwise) of who deals hole `hole` (1-based) and who plays first
    in it, at a table of `players` whose first hole `first_dealer` dealt: the engine's rotation."""
    return (
        dealer_for_hole(first_dealer, hole, players),
        first_player_for_hole(first_dealer, hole, players),
    )
