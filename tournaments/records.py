"""A player's record in a tournament: round by round, hole by hole (a read, in three queries)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring.selectors import regular_hole_scores
from tournaments.models import Entrant, TableSeat


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round a player was seated in: where, the round's status, and each regular hole's score."""

    round: int
    status: str
    table: int
    seat: int
    holes: tuple[tuple[int, int], ...]  # (hole number, score), in hole order

    @property
    def total(self) -> int:
        """The round's score so far (holes only; penalties are the standings')."""
        return sum(score for _number, score in self.holes)


def player_record(entrant: Entrant) -> list[RoundRecord]:
    """Every round `entrant` was seated in, in round order, with their regular holes' scores."""
    seats = list(
        TableSeat.objects.filter(entrant=entrant)
        .order_by("round__number")
        .values_list("round__number", "round__status", "table__number", "table__game_id", "seat")
    )
    scores: dict[int, list[tuple[int, int]]] = defaultdict(list)
    wanted = {(game_id, seat) for _n, _s, _t, game_id, seat in seats}
    for game_id, seat, _hole, number, score in sorted(
        regular_hole_scores({game_id for game_id, _seat in wanted}), key=lambda row: row[3]
    ):
        if (game_id, seat) in wanted:
            scores[game_id].append((number, score))
    return [
        RoundRecord(round=n, status=status, table=t, seat=seat, holes=tuple(scores[game_id]))
        for n, status, t, game_id, seat in seats
    ]
