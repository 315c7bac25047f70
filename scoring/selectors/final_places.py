"""Each seat's final place and record in some games, for the apps that keep results across games (a
club's members' results and ratings).

A place is the game's final standing as the engine ranks it (`compute_match_state`: totals, then
the ruleset's tiebreakers, sudden death included); players still level after them share the place
(1, 2, 2, 4). Read in three queries whatever the number of games, from the entries themselves (not
the seats' stored totals), so that a caller inside a hole change's transaction, told of the change
before the totals are refreshed, reads the holes as the change leaves them (`without_hole`: the
hole being deleted).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from scoring.models import Game, GameStatus, HoleEntry, Seat
from scoring.rules.holes import PlayedHole
from scoring.rules.match import rank_players
from scoring.rules.match_state import compute_match_state
from scoring.selectors.match_adapter import game_ruleset


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """What one seat's player made of a game."""

    place: int  # 1 = won; players still tied share it
    total_points: int  # regular holes
    holes_played: int
    low_hole_score: int  # regular holes where their score was the table's lowest (shared counts)
    best_hole_score: int | None  # their lowest regular hole; None with no hole played


@dataclass(frozen=True, slots=True)
class FinalPlaces:
    """A game's seats' records (by seat index) and whether the engine finds it over."""

    finished: bool
    updated_at: datetime
    seats: dict[int, SeatRecord]


def final_places(game_ids: Iterable[int], *, without_hole: int | None = None) -> dict[int, FinalPlaces]:
    """The final places and records of the seats of `game_ids`, by game id (three queries)."""
    ids = list(game_ids)
    games = list(
        Game.objects.filter(pk__in=ids).order_by().only("pk", "ruleset", "ended_early", "updated_at")
    )
    seats: dict[int, dict[int, str]] = defaultdict(dict)  # game -> seat pk -> name
    index_of: dict[int, int] = {}
    for game_id, pk, seat, name in (
        Seat.objects.filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "pk", "seat", "name")
    ):
        seats[game_id][pk] = name
        index_of[pk] = seat
    holes: dict[int, dict[tuple[bool, int], dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for game_id, playoff, number, seat_id, score, hole_id in (
        HoleEntry.objects.filter(hole__game_id__in=ids)
        .order_by()
        .values_list("hole__game_id", "hole__is_playoff", "hole__number", "seat_id", "score", "hole_id")
    ):
        if hole_id == without_hole or seat_id not in index_of:
            continue
        holes[game_id][(playoff, number)][seats[game_id][seat_id]] = score
    answer = {}
    for game in games:
        names = seats[game.pk]
        played = [PlayedHole(number, scores, playoff) for (playoff, number), scores in holes[game.pk].items()]
        by_name = _records(game, list(names.values()), played)
        answer[game.pk] = FinalPlaces(
            finished=by_name[1],
            updated_at=game.updated_at,
            seats={index_of[pk]: by_name[0][name] for pk, name in names.items()},
        )
    return answer


def _records(game: Game, names: list[str], played: list[PlayedHole]) -> tuple[dict[str, SeatRecord], bool]:
    ruleset = game_ruleset(game)
    state = compute_match_state(ruleset, names, played, ended_early=game.ended_early)
    outcome = state.outcome
    if outcome is None:  # not over: ranked as it stands, by the same chain
        outcome = rank_players(
            dict(state.hole_scores), ruleset.tiebreakers, dict(state.playoff_scores) or None
        )
    places = {name: place for place, name in outcome.places()}
    regular = [hole for hole in played if not hole.playoff]
    low: dict[str, int] = dict.fromkeys(names, 0)
    for hole in regular:
        lowest = min(hole.scores.values())
        for name, score in hole.scores.items():
            if score == lowest:
                low[name] += 1
    records = {}
    for name in names:
        own = state.hole_scores.get(name, ())
        records[name] = SeatRecord(
            place=places[name],
            total_points=state.totals[name].total,
            holes_played=state.totals[name].holes_played,
            low_hole_score=low[name],
            best_hole_score=min(own) if own else None,
        )
    return records, state.status == GameStatus.FINISHED
