"""The regular hole scores of many games at once, for the apps that build on games: a tournament's
standings, a player's record, the exports and the tables' scorecards.

A 1,000-player event has 9,000 scores a round: they are read as plain rows, the seat of each entry
mapped from a separate read of the games' seats (no join beyond the hole), in a fixed number of
queries whatever the number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import QuerySet

from scoring.models import Hole, HoleEntry, Seat

#: One regular hole's score: (game id, seat index (0-based), hole id, hole number, score).
ScoreRow = tuple[int, int, int, int, int]


def regular_hole_scores(game_ids: Iterable[int] | QuerySet) -> list[ScoreRow]:
    """Every score of the regular (non-playoff) holes of `game_ids` (ids, or a query of ids), in no
    particular order (two queries)."""
    ids = game_ids if isinstance(game_ids, QuerySet) else list(game_ids)
    # The entries first: every seat they name existed before them, so the seats read next include
    # it (a seat removed in between takes its entries with it: those rows are skipped).
    entries = list(
        HoleEntry.objects.filter(hole__game_id__in=ids, hole__is_playoff=False)
        .order_by()
        .values_list("hole__game_id", "hole_id", "hole__number", "seat_id", "score")
    )
    seat_of = dict(Seat.objects.filter(game_id__in=ids).order_by().values_list("pk", "seat"))
    return [
        (game_id, seat_of[seat_id], hole_id, number, score)
        for game_id, hole_id, number, seat_id, score in entries
        if seat_id in seat_of
    ]


@dataclass
class HoleRow:
    """One hole of a game: each player's score and who won it (the lowest, shared counts)."""

    number: int
    scores: list[int | None]
    winners: set[str] = field(default_factory=set)


@dataclass
class Scorecard:
    """A game's regular holes, hole by hole, and each seat's total."""

    players: list[str]
    holes: list[HoleRow]
    totals: list[int]

    @property
    def rows(self) -> list[tuple[str, list[tuple[int | None, bool]], int | None]]:
        """Each player's line: name, (score, won the hole) per hole, total."""
        return [
            (
                name,
                [(hole.scores[i], name in hole.winners) for hole in self.holes],
                self.totals[i] if i < len(self.totals) else None,
            )
            for i, name in enumerate(self.players)
        ]

    @property
    def by_hole(self) -> list[tuple[int, list[tuple[int | None, bool]]]]:
        """The card turned a quarter (a line per hole, a column per player, for a phone's narrow
        screen): hole number, (score, won the hole) per player in seat order."""
        return [
            (hole.number, [(hole.scores[i], name in hole.winners) for i, name in enumerate(self.players)])
            for hole in self.holes
        ]

    @property
    def player_totals(self) -> list[tuple[str, int | None]]:
        """Each player's name and total, in seat order."""
        return [
            (name, self.totals[i] if i < len(self.totals) else None) for i, name in enumerate(self.players)
        ]


def scorecards(game_ids: list[int]) -> dict[int, Scorecard]:
    """The regular holes of each game, by game id (two queries for any number of games)."""
    seats: dict[int, list[str]] = defaultdict(list)
    totals: dict[int, list[int]] = defaultdict(list)
    for game_id, name, total in (
        Seat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "name", "total")
    ):
        seats[game_id].append(name)
        totals[game_id].append(total)
    holes: dict[int, dict[int, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for game_id, number, name, score in HoleEntry.objects.filter(
        hole__game_id__in=game_ids, hole__is_playoff=False
    ).values_list("hole__game_id", "hole__number", "seat__name", "score"):
        holes[game_id][number][name] = score
    cards = {}
    for game_id in game_ids:
        names = seats.get(game_id, [])
        rows = []
        for number in sorted(holes.get(game_id, {})):
            scores = holes[game_id][number]
            low = min(scores.values()) if scores else None
            rows.append(
                HoleRow(
                    number=number,
                    scores=[scores.get(name) for name in names],
                    winners={name for name, score in scores.items() if score == low},
                )
            )
        cards[game_id] = Scorecard(players=names, holes=rows, totals=totals.get(game_id, []))
    return cards


def seat_names(game_id: int) -> list[str]:
    """The names at a game's table, in seat order (one query)."""
    return list(Seat.objects.filter(game_id=game_id).order_by("seat").values_list("name", flat=True))


def score_table_names() -> dict[str, str]:
    """The database tables of seats, holes and hole entries (`{"seat": ..., "hole": ...,
    "hole_entry": ...}`), for another app's one-statement read that joins its own tables to them
    (the tournaments' standings after a hole: `tournaments.round_records.seats_and_scores`)."""
    return {"seat": Seat._meta.db_table, "hole": Hole._meta.db_table, "hole_entry": HoleEntry._meta.db_table}
