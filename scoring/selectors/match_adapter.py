"""The match-state adapter: a game's stored entries become the engine's `PlayedHole`s, and the
engine's `compute_match_state` answers totals, match end and outcome (used by the services to store
totals, and by the scoreboard). Rulesets are resolved once per distinct ruleset."""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.models import Game, GameStatus, Seat
from scoring.rules import (
    MatchOutcome,
    Ruleset,
    resolve_ruleset,
)
from scoring.rules.holes import PlayedHole
from scoring.rules.match_state import compute_match_state


@dataclass(frozen=True)
class SeatState:
    """One seat's totals recomputed from the entries."""

    total: int
    holes_played: int
    playoff_total: int


@dataclass(frozen=True)
class MatchState:
    """Where a match stands, computed by the engine from the hole scores."""

    seats: Mapping[int, SeatState]  # by Seat.pk
    regular_holes: int
    playoff_holes: int
    over: bool
    reason: str
    outcome: MatchOutcome | None  # when the regular holes are over
    status: str  # a GameStatus value
    winners: tuple[str, ...]
    contenders: tuple[str, ...]  # players of the pending sudden death, else ()
    hole_scores: Mapping[str, tuple[int, ...]]
    playoff_scores: Mapping[str, tuple[int, ...]]
    # Playoff holes on record that no longer break the regular holes' tie: their first hole was not
    # played by exactly the players tied after the regular holes (a regular hole changed since).
    playoff_stale: bool = False
    ended_early: bool = False  # over because the players ended it before its set end


def game_ruleset(game: Game) -> Ruleset:
    """The game's ruleset as the engine's frozen `Ruleset` (resolved once per distinct ruleset)."""
    return _resolved_ruleset(json.dumps(game.ruleset, sort_keys=True, separators=(",", ":")))


@functools.lru_cache(maxsize=128)
def _resolved_ruleset(canonical: str) -> Ruleset:
    # A Ruleset is immutable and depends only on this JSON, so every request may share it.
    return resolve_ruleset(json.loads(canonical))


def match_state(
    ruleset: Ruleset,
    seats: Sequence[Seat],
    rows: Iterable[tuple[int, bool, int, int]],
    *,
    ended_early: bool = False,
) -> MatchState:
    """Totals, match end and outcome from entry rows (seat_id, is_playoff, hole number, score);
    `ended_early` when the players ended the game before its set end (`Game.ended_early`).

    An adapter: the rows become the engine's `PlayedHole`s and `compute_match_state` does the rest."""
    names = {seat.pk: seat.name for seat in seats}
    holes: dict[tuple[bool, int], dict[str, int]] = defaultdict(dict)
    for seat_id, is_playoff, number, score in rows:
        if seat_id in names:
            holes[(is_playoff, number)][names[seat_id]] = score
    state = compute_match_state(
        ruleset,
        list(names.values()),
        [PlayedHole(number, scores, playoff) for (playoff, number), scores in holes.items()],
        ended_early=ended_early,
    )
    return MatchState(
        seats={
            pk: SeatState(
                total=state.totals[name].total,
                holes_played=state.totals[name].holes_played,
                playoff_total=state.totals[name].playoff_total,
            )
            for pk, name in names.items()
        },
        regular_holes=state.regular_holes,
        playoff_holes=state.playoff_holes,
        over=state.over,
        reason=state.reason,
        outcome=state.outcome,
        status=GameStatus(state.status),
        winners=state.winners,
        contenders=state.contenders,
        hole_scores=state.hole_scores,
        playoff_scores=state.playoff_scores,
        playoff_stale=state.playoff_stale,
        ended_early=state.ended_early,
    )
