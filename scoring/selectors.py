"""Reads of live games shared by the pages, the API and the exports.

Each selector runs a fixed number of queries whatever the number of players and holes. Standings,
match end and tiebreaks come from the rules engine (`compute_match_state`, `dealer_for_hole`).
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from scoring.inputs import is_token
from scoring.models import ChangeAction, Game, GameChange, GameStatus, Hole, HoleEntry, Player, Seat
from scoring.rules import (
    MatchOutcome,
    Ruleset,
    dealer_for_hole,
    first_player_for_hole,
    resolve_ruleset,
)
from scoring.rules.holes import PlayedHole, low_scorers
from scoring.rules.match_state import compute_match_state

__all__ = [
    "EntryLine",
    "GameAccess",
    "HistoryLine",
    "HoleLine",
    "MatchState",
    "NextHole",
    "Scoreboard",
    "SeatLine",
    "SeatState",
    "change_origin",
    "game_for_token",
    "game_history",
    "game_ruleset",
    "games_for_tokens",
    "games_for_user",
    "history_line",
    "hole_detail",
    "hole_detail_by_id",
    "hole_line",
    "match_state",
    "recent_player_names",
    "redo_target",
    "redo_target_change",
    "scoreboard",
    "undo_target",
    "undo_target_change",
]


# --------------------------------------------------------------------------------------------
# Match state (used by the services to store totals, and by the scoreboard)


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


def game_ruleset(game: Game) -> Ruleset:
    """The game's ruleset as the engine's frozen `Ruleset` (resolved once per distinct ruleset)."""
    return _resolved_ruleset(json.dumps(game.ruleset, sort_keys=True, separators=(",", ":")))


@functools.lru_cache(maxsize=128)
def _resolved_ruleset(canonical: str) -> Ruleset:
    # A Ruleset is immutable and depends only on this JSON, so every request may share it.
    return resolve_ruleset(json.loads(canonical))


def match_state(
    ruleset: Ruleset, seats: Sequence[Seat], rows: Iterable[tuple[int, bool, int, int]]
) -> MatchState:
    """Totals, match end and outcome from entry rows (seat_id, is_playoff, hole number, score).

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
    )


# --------------------------------------------------------------------------------------------
# Access by token


@dataclass(frozen=True)
class GameAccess:
    """A game reached through a link, and whether that link may change it (edit vs view token)."""

    game: Game
    can_edit: bool


def game_for_token(token: str) -> GameAccess | None:
    """The game whose edit or view token is `token` (one indexed query), or None.

    A value outside the token alphabet (a NUL, a space, more than 64 characters) is None at once,
    without a query: it names no game, and PostgreSQL would refuse a NUL.
    """
    if not is_token(token):
        return None
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if game is None:
        return None
    return GameAccess(game=game, can_edit=game.edit_token == token)


# --------------------------------------------------------------------------------------------
# The scoreboard


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
    state = match_state(ruleset, seat_list, rows)
    totals = {seat.name: state.seats[seat.pk].total for seat in seat_list}
    played = state.regular_holes > 0
    best = min(totals.values()) if totals and played else None
    leaders = tuple(name for name, total in totals.items() if best is not None and total == best)
    ranks = _ranks(totals, state.outcome)
    players = tuple(
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
        for seat in seat_list
    )
    cumulative: dict[str, tuple[int, ...]] = {}
    for seat in seat_list:
        running, series = 0, []
        for score in state.hole_scores.get(seat.name, ()):
            running += score
            series.append(running)
        cumulative[seat.name] = tuple(series)
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
    )


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


def history_line(game: Game, change_id: int) -> HistoryLine | None:
    """One change of `game` as the history shows it, or None (one query)."""
    change = game.changes.filter(pk=change_id).select_related("undone_by").first()
    if change is None:
        return None
    try:
        undone = change.undone_by is not None
    except GameChange.DoesNotExist:
        undone = False
    return _history_line(change, undone=undone)


def hole_detail(game: Game, number: int, *, playoff: bool = False) -> HoleLine | None:
    """One hole of `game` with its entries (two queries), or None when there is no such hole."""
    hole = game.holes.filter(number=number, is_playoff=playoff).first()
    if hole is None:
        return None
    seats = {seat.pk: seat for seat in game.seats.all()}
    return _hole_lines([hole], list(hole.entries.all()), seats)[0]


# --------------------------------------------------------------------------------------------
# History, lists


@dataclass(frozen=True)
class HistoryLine:
    """One change to a game, newest first: what, which hole, who, when, before and after."""

    id: int
    action: str
    action_label: str
    hole_number: int | None
    is_playoff: bool
    actor: str
    created_at: Any
    before: Any
    after: Any
    undone: bool
    undoes_id: int | None


def game_history(game: Game, *, limit: int | None = None) -> list[HistoryLine]:
    """Every change to `game`, newest first (one query)."""
    changes: QuerySet[GameChange] = game.changes.order_by("-pk").select_related("undone_by")
    if limit:
        changes = changes[:limit]
    lines = []
    for change in changes:
        try:
            undone = change.undone_by is not None
        except GameChange.DoesNotExist:
            undone = False
        lines.append(_history_line(change, undone=undone))
    return lines


def _history_line(change: GameChange, *, undone: bool) -> HistoryLine:
    return HistoryLine(
        id=change.pk,
        action=change.action,
        action_label=str(change.get_action_display()),
        hole_number=change.hole_number,
        is_playoff=change.is_playoff,
        actor=change.actor,
        created_at=change.created_at,
        before=change.before,
        after=change.after,
        undone=undone,
        undoes_id=change.undoes_id,
    )


_HOLE_CHANGES = (ChangeAction.CREATE, ChangeAction.UPDATE, ChangeAction.DELETE)


def undo_target_change(game: Game) -> GameChange | None:
    """The change `undo_last_change` reverts: the latest hole change or redo not yet undone (one query)."""
    return (
        game.changes.filter(undone_by__isnull=True, action__in=[*_HOLE_CHANGES, ChangeAction.REDO])
        .order_by("-pk")
        .first()
    )


def undo_target(game: Game) -> HistoryLine | None:
    """What the undo button would revert now, as a history line (one query), or None."""
    change = undo_target_change(game)
    return _history_line(change, undone=False) if change else None


def redo_target_change(game: Game) -> GameChange | None:
    """The undo that `redo_change` reverts: the latest undo not yet redone, as long as no hole was
    recorded, edited or deleted after it (a new change ends what can be redone). One query."""
    latest_hole_change = game.changes.filter(action__in=_HOLE_CHANGES).order_by("-pk").values("pk")[:1]
    return (
        game.changes.filter(action=ChangeAction.UNDO, undone_by__isnull=True)
        .filter(pk__gt=Coalesce(Subquery(latest_hole_change), 0))
        .order_by("-pk")
        .first()
    )


def change_origin(change: GameChange) -> GameChange:
    """The hole change (recorded, edited, deleted) an undo or redo finally reverts, following the
    chain of undos and redos (one query a step)."""
    steps = 0
    while change.action in (ChangeAction.UNDO, ChangeAction.REDO) and change.undoes_id and steps < 1000:
        change = GameChange.objects.get(pk=change.undoes_id)
        steps += 1
    return change


def redo_target(game: Game) -> HistoryLine | None:
    """What the redo button would apply again now: the undo it reverts, as a history line, or None."""
    change = redo_target_change(game)
    if change is None:
        return None
    return _history_line(change, undone=False)


def games_for_user(user: AbstractBaseUser | None) -> QuerySet[Game]:
    """The games a logged-in user created, most recently changed first, seats prefetched."""
    if user is None or not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(owner=user).prefetch_related("seats").order_by("-updated_at", "-pk")


def games_for_tokens(tokens: Iterable[str]) -> QuerySet[Game]:
    """The games whose edit tokens are among `tokens` (e.g. those kept in a browser session)."""
    return (
        Game.objects.filter(edit_token__in=list(tokens)[:200])
        .prefetch_related("seats")
        .order_by("-updated_at")
    )


def games_for_view_tokens(tokens: Iterable[str]) -> QuerySet[Game]:
    """The games whose view (watch-only) tokens are among `tokens`: games this browser watched."""
    return Game.objects.filter(view_token__in=list(tokens)[:200]).prefetch_related("seats")


def idempotency_key_used(game: Game, key: str | None) -> bool:
    """Whether a hole of `game` was already recorded with this Idempotency-Key (a resent form)."""
    return bool(key) and game.idempotency_keys.filter(key=key).exists()


def recent_player_names(
    user: AbstractBaseUser | None = None, *, edit_tokens: Iterable[str] = (), limit: int = 12
) -> list[str]:
    """Names this user (their roster and games) or this browser (games by edit token) used lately.

    Most recent first, each name once (ignoring case). Two queries at most.
    """
    names: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        if name.casefold() not in seen and len(names) < limit:
            seen.add(name.casefold())
            names.append(name)

    if user is not None and user.is_authenticated:
        for name in (
            Player.objects.filter(owner=user)
            .order_by("-last_played_at", "name")
            .values_list("name", flat=True)[: limit * 2]
        ):
            add(name)
    tokens = list(edit_tokens)[:200]
    if tokens:
        for name in (
            Seat.objects.filter(game__edit_token__in=tokens)
            .order_by("-game__updated_at", "seat")
            .values_list("name", flat=True)[: limit * 4]
        ):
            add(name)
    return names
