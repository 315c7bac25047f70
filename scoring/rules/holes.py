"""Played holes, totals and holes won: the one place where scores are summed and low holes found.

A `PlayedHole` is one hole of one game (a table): its number, whether it is a playoff hole, and the
score of every player who played it. Matches (one table) and events (holes of many tables) use the
same functions, so a hole is always won against the players of its own table.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PlayedHole:
    """One recorded hole of one game: `table` names the game it was played at (any hashable id)."""

    number: int
    scores: Mapping[str, int]  # by player, only the players of this hole's table
    playoff: bool = False  # playoff (sudden-death) holes never count in totals
    table: Hashable = ""

    def __post_init__(self) -> None:
        # A plain dict copy: the hole stays frozen even if the caller changes its mapping later.
        object.__setattr__(self, "scores", dict(self.scores))


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One player's sums: `total` is the regular holes plus `penalty_points` (never playoff holes)."""

    total: int
    holes_played: int
    playoff_total: int = 0
    penalty_points: int = 0
    hole_points: int = 0  # the regular holes alone, without penalty points


def low_scorers[Key: Hashable](scores: Mapping[Key, int]) -> frozenset[Key]:
    """Who had the lowest score of one hole (a shared lowest counts for each); empty for no scores.

    The single definition of a hole's "low score" / "hole won": the scoreboard's highlighted cell,
    the calculator's lowest grid, the results' `low_hole_score` and `most_holes_won` all use it."""
    if not scores:
        return frozenset()
    lowest = min(scores.values())
    return frozenset(key for key, score in scores.items() if score == lowest)


def holes_won(holes: Iterable[PlayedHole], players: Iterable[str] = ()) -> dict[str, int]:
    """Regular holes each player won: lowest score among that hole's own players, shared lows for each.

    Every name of `players` appears (0 when they won none), plus anyone who won a hole."""
    won = dict.fromkeys(players, 0)
    for hole in holes:
        if hole.playoff:
            continue
        for name in low_scorers(hole.scores):
            won[name] = won.get(name, 0) + 1
    return won


def sum_totals(
    players: Iterable[str],
    holes: Iterable[PlayedHole],
    penalties: Mapping[str, int] | None = None,
) -> dict[str, PlayerTotals]:
    """Every player's totals: regular hole scores plus penalty points; playoff holes apart.

    The one function that sums scores: the match state, `rank_players`, event standings and the
    stored-totals invariant test all use it. Penalty points are added to the total only; no hole's
    score changes. Names in `holes` or `penalties` that are not in `players` are added too."""
    points: dict[str, int] = dict.fromkeys(players, 0)
    played: dict[str, int] = dict.fromkeys(points, 0)
    playoff: dict[str, int] = dict.fromkeys(points, 0)
    for hole in holes:
        for name, score in hole.scores.items():
            if hole.playoff:
                playoff[name] = playoff.get(name, 0) + score
                points.setdefault(name, 0)
                played.setdefault(name, 0)
            else:
                points[name] = points.get(name, 0) + score
                played[name] = played.get(name, 0) + 1
                playoff.setdefault(name, 0)
    penalty = dict(penalties or {})
    for name in penalty:
        points.setdefault(name, 0)
        played.setdefault(name, 0)
        playoff.setdefault(name, 0)
    return {
        name: PlayerTotals(
            total=points[name] + penalty.get(name, 0),
            holes_played=played[name],
            playoff_total=playoff[name],
            penalty_points=penalty.get(name, 0),
            hole_points=points[name],
        )
        for name in points
    }


def holes_from_sequences(
    hole_scores: Mapping[str, Sequence[int]],
    playoff_scores: Mapping[str, Sequence[int]] | None = None,
    table: Hashable = "",
) -> list[PlayedHole]:
    """One table's holes from per-player score lists (hole i is everyone's i-th score, if they have one)."""
    holes: list[PlayedHole] = []
    for playoff, by_player in ((False, hole_scores), (True, playoff_scores or {})):
        count = max((len(scores) for scores in by_player.values()), default=0)
        for index in range(count):
            scores = {name: seq[index] for name, seq in by_player.items() if index < len(seq)}
            holes.append(PlayedHole(number=index + 1, scores=scores, playoff=playoff, table=table))
    return holes
