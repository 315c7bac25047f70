"""Reads of the turn timer's times: per game and seat, for a game's summary and a club's stats."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Sum

from scoring.models import TurnTime


def turn_times(game_ids: Iterable[int]) -> dict[tuple[int, int], tuple[int, int]]:
    """Every timed seat of `game_ids`: (game_id, seat) -> (milliseconds, turns), summed over the
    game's holes (playoff holes included). Seats never timed are absent. One query."""
    rows = (
        TurnTime.objects.filter(game_id__in=list(game_ids))
        .values("game_id", "seat")
        .annotate(ms=Sum("milliseconds"), n=Sum("turns"))
        .order_by()
    )
    return {(row["game_id"], row["seat"]): (row["ms"], row["n"]) for row in rows}


@dataclass(frozen=True)
class PlayerTime:
    """One player's time in a game's summary: the total and the average per turn (milliseconds)."""

    seat: int
    name: str
    milliseconds: int
    turns: int

    @property
    def average_ms(self) -> int | None:
        """Average milliseconds per turn, or None with no turn timed."""
        return round(self.milliseconds / self.turns) if self.turns else None


def game_turn_times(game_id: int, names: list[str]) -> list[PlayerTime]:
    """The game's players in seat order with their timed totals; empty when nothing was timed."""
    found = turn_times([game_id])
    if not found:
        return []
    return [PlayerTime(seat, name, *found.get((game_id, seat), (0, 0))) for seat, name in enumerate(names)]
