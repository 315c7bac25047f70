"""The figures a member's results add up to (their whole record, or one season's), as SQL aggregates.

Every figure follows SPEC "Clubs, ratings and seasons": a first place, shared or not, is a win;
`low_hole_score` is the count of holes where the member had the table's lowest score (summed over
games); `best_hole_score` is their lowest single hole; `average_per_hole` is total points over holes
played (lower is better, as the points are), rounded to two decimals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Min, Q, QuerySet, Sum


@dataclass(frozen=True, slots=True)
class Record:
    """What a set of a member's results adds up to."""

    games: int
    wins: int
    holes_played: int
    total_points: int
    low_hole_score: int
    best_hole_score: int | None

    @property
    def average_per_hole(self) -> float | None:
        """Points per hole played, two decimals; None before any hole."""
        return average_per_hole(self.total_points, self.holes_played)


def average_per_hole(total_points: int, holes_played: int) -> float | None:
    """`total_points / holes_played` to two decimals (None for no hole)."""
    return round(total_points / holes_played, 2) if holes_played else None


# The aggregates of `Record`, for `.aggregate()` or `.values(...).annotate()`.
RECORD_AGGREGATES: dict[str, Any] = {
    "games": Count("pk"),
    "wins": Count("pk", filter=Q(place=1)),
    "holes_played": Sum("holes_played"),
    "total_points": Sum("total_points"),
    "low_hole_score": Sum("low_hole_score"),
    "best_hole_score": Min("best_hole_score"),
}


def record_of(values: dict[str, Any]) -> Record:
    """A `Record` from one row of `RECORD_AGGREGATES` (sums are None over no row)."""
    return Record(
        games=values["games"] or 0,
        wins=values["wins"] or 0,
        holes_played=values["holes_played"] or 0,
        total_points=values["total_points"] or 0,
        low_hole_score=values["low_hole_score"] or 0,
        best_hole_score=values["best_hole_score"],
    )


def record(results: QuerySet) -> Record:
    """The record of `results` (MemberResult rows), in one query."""
    return record_of(results.aggregate(**RECORD_AGGREGATES))
