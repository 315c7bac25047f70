"""The scoreboard and hole lines: every player's totals and rank, every hole with its entries, the
outcome and the next hole, in a fixed number of queries however many players and holes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import Game, GameStatus, Hole, HoleEntry, Seat
from scoring.rules import (
    MatchOutcome,
    Ruleset,
    dealer_for_hole,
    first_player_for_hole,
)
from scoring.rules.holes import low_scorers

from .match_adapter import MatchState, game_ruleset, match_state


@dataclass(frozen=True)
class SeatLine:
    """A player's line on the scoreboard, in seat order."""

    name: str
    seat: int  # 0-based
    total: int
    holes_played: int
    playoff_total: int
    rank: int  # 1 = leading (ties share a rank)
    is_leader: bool
    is_winner: bool


@dataclass(frozen=True)
class EntryLine:
    """One player's result in one hole."""

    name: str
    seat: int
    score: int
    grid_score: int
    typed: bool
    typed_total: int | None
    cards: list[list[str]] | None
    adjustments: list[dict[str, Any]]
    blocks_marked: int
    is_low: bool  # lowest score of the hole (shared lows count for each)


@dataclass(frozen=True)
class HoleLine:
    """A recorded hole: who dealt, who ended it, every player's entry in seat order."""

    number: int
    is_playoff: bool
    dealer_seat: int
    dealer: str
    ender: str | None
    version: int
    entries: tuple[EntryLine, ...]
    created_by: str
    id: int = 0  # the hole's primary key: kept when renumbered, so its ETag names this hole only

    def entry_for(self, name: str) -> EntryLine | None:
        """The entry of player `name`, if they played this hole."""
        return next((e for e in self.entries if e.name == name), None)


@dataclass(frozen=True)
class NextHole:
    """The hole to record next: its number, dealer and first player (dealer's left)."""

    number: int
    is_playoff: bool
    dealer_seat: int
    dealer: str
    first_player_seat: int
    first_player: str
    players: tuple[str, ...]  # who plays it (everyone, or the sudden-death contenders)


@dataclass(frozen=True)
class Scoreboard:
    """Everything a scoreboard shows, computed with a fixed number of queries."""

    game: Game
    version: int
    ruleset: Ruleset
    frozen: bool
    players: tuple[SeatLine, ...]
    holes: tuple[HoleLine, ...]
    playoff_holes: tuple[HoleLine, ...]
    totals: Mapping[str, int]
    leaders: tuple[str, ...]
    outcome: MatchOutcome | None
    match_over: bool
    reason: str
    status: str
    winners: tuple[str, ...]
    shared_victory: bool
    next_hole: NextHole | None
    contenders: tuple[str, ...]
    cumulative: Mapping[str, tuple[int, ...]]  # running total after each regular hole
    holes_left: int | None = field(default=None)  # by the `holes` limit, if any
    # "Ended early after hole 5 of 9" when the family ended the game before its last hole, else "".
    ended_early: str = ""


# What a hole line reads of an entry (a HoleEntry, or a row of these columns).
_ENTRY_COLUMNS = (
    "hole_id", "seat_id", "score", "grid_score", "cards", "typed_total", "adjustments", "blocks_marked",
)  # fmt: skip


def _hole_lines(holes: Sequence[Hole], entries: Sequence[Any], seats: Mapping[int, Seat]) -> list[HoleLine]:
    by_hole: dict[int, list[HoleEntry]] = defaultdict(list)
    for entry in entries:
        by_hole[entry.hole_id].append(entry)
    by_index = {seat.seat: seat for seat in seats.values()}
    lines = []
    for hole in holes:
        rows = sorted(by_hole[hole.pk], key=lambda e: seats[e.seat_id].seat)
        lows = low_scorers({e.seat_id: e.score for e in rows})
        dealer = by_index.get(hole.dealer_seat)
        lines.append(
            HoleLine(
                number=hole.number,
                is_playoff=hole.is_playoff,
                dealer_seat=hole.dealer_seat,
                dealer=dealer.name if dealer else "",
                ender=seats[hole.ender_id].name if hole.ender_id in seats else None,
                version=hole.version,
                created_by=hole.created_by,
                id=hole.pk,
                entries=tuple(
                    EntryLine(
                        name=seats[e.seat_id].name,
                        seat=seats[e.seat_id].seat,
                        score=e.score,
                        grid_score=e.grid_score,
                        typed=e.cards is None,
                        typed_total=e.typed_total,
                        cards=e.cards,
                        adjustments=list(e.adjustments or []),
                        blocks_marked=e.blocks_marked,
                        is_low=e.seat_id in lows,
                    )
                    for e in rows
                ),
            )
        )
    return lines


def hole_line(hole: Hole, entries: Sequence[HoleEntry], seats: Sequence[Seat]) -> HoleLine:
    """`hole` as a scoreboard line from entries and seats already in memory (no query)."""
    return _hole_lines([hole], entries, {seat.pk: seat for seat in seats})[0]


def scoreboard(game: Game) -> Scoreboard:
    """The scoreboard of `game`: players in seat order, holes, playoff holes, outcome, next hole.

    Three queries (seats, holes, entries), however many players and holes.
    """
    ruleset = game_ruleset(game)
    seat_list = list(game.seats.order_by("seat"))
    seats = {seat.pk: seat for seat in seat_list}
    holes = list(game.holes.order_by("is_playoff", "number"))
    # Plain rows, unordered (the lines sort them): a scoreboard reads every entry of the game, and
    # model instances and the default ordering's join would cost as much as the rest of it.
    entries = list(
        HoleEntry.objects.filter(hole__game=game).order_by().values_list(*_ENTRY_COLUMNS, named=True)
    )
    lines = _hole_lines(holes, entries, seats)
    regular = tuple(line for line in lines if not line.is_playoff)
    playoff = tuple(line for line in lines if line.is_playoff)
    hole_by_pk = {hole.pk: hole for hole in holes}
    rows = [
        (e.seat_id, hole_by_pk[e.hole_id].is_playoff, hole_by_pk[e.hole_id].number, e.score)
        for e in entries
        if e.hole_id in hole_by_pk
    ]
    state = match_state(ruleset, seat_list, rows, ended_early=game.ended_early)
    totals = {seat.name: state.seats[seat.pk].total for seat in seat_list}
    leaders = _leaders(totals, state)
    players = _seat_lines(seat_list, state, totals, leaders)
    cumulative = {seat.name: tuple(accumulate(state.hole_scores.get(seat.name, ()))) for seat in seat_list}
    next_hole = _next_hole(game, seat_list, state)
    shared = state.status == GameStatus.FINISHED and len(state.winners) > 1
    holes_left = max(ruleset.holes - state.regular_holes, 0) if ruleset.holes else None
    return Scoreboard(
        game=game,
        version=game.version,
        ruleset=ruleset,
        frozen=game.is_frozen,
        players=players,
        holes=regular,
        playoff_holes=playoff,
        totals=totals,
        leaders=leaders,
        outcome=state.outcome,
        match_over=state.over,
        reason=state.reason,
        status=state.status,
        winners=state.winners,
        shared_victory=shared,
        next_hole=next_hole,
        contenders=state.contenders,
        cumulative=cumulative,
        holes_left=holes_left,
        ended_early=ended_early_text(ruleset.holes, state.regular_holes) if state.ended_early else "",
    )


def _leaders(totals: Mapping[str, int], state: MatchState) -> tuple[str, ...]:
    """The players with the lowest total, once a regular hole was played (none before)."""
    if not totals or state.regular_holes == 0:
        return ()
    best = min(totals.values())
    return tuple(name for name, total in totals.items() if total == best)


def _seat_lines(
    seats: Sequence[Seat], state: MatchState, totals: Mapping[str, int], leaders: tuple[str, ...]
) -> tuple[SeatLine, ...]:
    """Every player's line, in seat order: totals, rank (everyone 1st before a hole), leader, winner."""
    played = state.regular_holes > 0
    ranks = _ranks(totals, state.outcome)
    return tuple(
        SeatLine(
            name=seat.name,
            seat=seat.seat,
            total=state.seats[seat.pk].total,
            holes_played=state.seats[seat.pk].holes_played,
            playoff_total=state.seats[seat.pk].playoff_total,
            rank=ranks[seat.name] if played else 1,
            is_leader=seat.name in leaders,
            is_winner=seat.name in state.winners,
        )
        for seat in seats
    )


def ended_early_text(holes: int | None, played: int) -> str:
    """ "Ended early after hole 5 of 9" (or "after hole 5" for a match of no set length)."""
    if holes is None:
        return _("Ended early after hole %(n)s") % {"n": played}
    return _("Ended early after hole %(n)s of %(m)s") % {"n": played, "m": holes}


def _ranks(totals: Mapping[str, int], outcome: MatchOutcome | None) -> dict[str, int]:
    """Places, 1 = best: by the engine's final order (tiebreaks applied) once over, else by total."""
    if outcome is not None:
        ranks: dict[str, int] = {}
        place = 1
        for group in outcome.order:
            for name in group:
                ranks[name] = place
            place += len(group)
        return ranks
    return {name: 1 + sum(1 for other in totals.values() if other < total) for name, total in totals.items()}


def _next_hole(game: Game, seats: Sequence[Seat], state: MatchState) -> NextHole | None:
    if not seats:
        return None
    count = len(seats)
    by_index = {seat.seat: seat for seat in seats}
    if state.contenders:
        number = state.playoff_holes + 1
        deal_number = state.regular_holes + number
        players = tuple(seat.name for seat in seats if seat.name in state.contenders)
        playoff = True
    elif not state.over:
        number = deal_number = state.regular_holes + 1
        players = tuple(seat.name for seat in seats)
        playoff = False
    else:
        return None
    dealer = dealer_for_hole(game.first_dealer, deal_number, count)
    first = first_player_for_hole(game.first_dealer, deal_number, count)
    return NextHole(
        number=number,
        is_playoff=playoff,
        dealer_seat=dealer,
        dealer=by_index[dealer].name,
        first_player_seat=first,
        first_player=by_index[first].name,
        players=players,
    )


def hole_detail_by_id(game: Game, hole_id: int) -> HoleLine | None:
    """The hole of `game` with this id (whatever its number now), or None (two queries)."""
    hole = game.holes.filter(pk=hole_id).first()
    if hole is None:
        return None
    seats = {seat.pk: seat for seat in game.seats.all()}
    return _hole_lines([hole], list(hole.entries.all()), seats)[0]


def hole_detail(game: Game, number: int, *, playoff: bool = False) -> HoleLine | None:
    """One hole of `game` with its entries (two queries), or None when there is no such hole."""
    hole = game.holes.filter(number=number, is_playoff=playoff).first()
    if hole is None:
        return None
    seats = {seat.pk: seat for seat in game.seats.all()}
    return _hole_lines([hole], list(hole.entries.all()), seats)[0]
