"""The reads of the tournament pages, each in a fixed number of queries whatever the event's size:
the dashboard's tables, a round's seating, a table's scorecard, a player's record hole by hole."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Prefetch, Q

from scoring.models import Game, GameStatus, HoleEntry, Seat
from tournaments.models import Entrant, EntrantStatus, Round, RoundStatus, Table, TableSeat, Tournament


@dataclass
class TableLine:
    """One table as the staff see it: who sits there, who deals first, how far the game is."""

    table: Table
    players: list[str]
    first_dealer: str
    holes_done: int
    holes_total: int | None
    state: str  # "waiting", "playing", "finished", "confirmed", "flagged"

    @property
    def game(self) -> Game:
        """The table's live game."""
        return self.table.game


def rounds_of(tournament: Tournament) -> list[Round]:
    """The rounds seated so far, in order (one query)."""
    return list(Round.objects.filter(tournament=tournament).order_by("number"))


def table_lines(round_: Round) -> list[TableLine]:
    """The tables of `round_` with their players and progress (two queries)."""
    tables = list(
        Table.objects.filter(round=round_)
        .select_related("game", "confirmed_by", "disputed_by")
        .annotate(holes_done=Max("game__seats__holes_played"))
        .prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("entrant").order_by("seat"))
        )
        .order_by("number")
    )
    lines = []
    for table in tables:
        players = [seat.entrant.name for seat in table.seats.all()]
        game = table.game
        dealer = players[game.first_dealer] if 0 <= game.first_dealer < len(players) else ""
        if table.is_disputed:
            state = "flagged"
        elif table.is_confirmed:
            state = "confirmed"
        elif game.status == GameStatus.FINISHED:
            state = "finished"
        elif round_.status == RoundStatus.SEATED:
            state = "waiting"
        else:
            state = "playing"
        lines.append(
            TableLine(
                table=table,
                players=players,
                first_dealer=dealer,
                holes_done=table.holes_done or 0,
                holes_total=game.ruleset.get("holes"),
                state=state,
            )
        )
    return lines


def player_counts(tournament: Tournament) -> dict[str, int]:
    """How many players are registered, active, and checked in (one query)."""
    return tournament.entrants.aggregate(
        total=Count("pk"),
        active=Count("pk", filter=Q(status=EntrantStatus.ACTIVE)),
        checked_in=Count("pk", filter=Q(status=EntrantStatus.ACTIVE, checked_in=True)),
    )


@dataclass
class HoleRow:
    """One hole of a table's game: each player's score and who won it (the lowest, shared counts)."""

    number: int
    scores: list[int | None]
    winners: set[str] = field(default_factory=set)


@dataclass
class Scorecard:
    """A table's game hole by hole."""

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


@dataclass
class PlayerRound:
    """A player's game in one round: the table, the scorecard, their total."""

    round: Round
    table: Table
    card: Scorecard
    total: int | None


def player_rounds(tournament: Tournament, entrant: Entrant, *, live: bool) -> list[PlayerRound]:
    """The rounds `entrant` played, hole by hole (the finalized ones, and the one in play when
    `live`); four queries."""
    wanted = [RoundStatus.FINALIZED, RoundStatus.PUBLISHED] if live else [RoundStatus.FINALIZED]
    seats = list(
        TableSeat.objects.filter(entrant=entrant, round__status__in=wanted)
        .select_related("round", "table")
        .order_by("round__number")
    )
    cards = scorecards([seat.table.game_id for seat in seats])
    result = []
    for seat in seats:
        card = cards[seat.table.game_id]
        total = card.totals[seat.seat] if seat.seat < len(card.totals) else None
        result.append(PlayerRound(round=seat.round, table=seat.table, card=card, total=total))
    return result


def log_lines(tournament: Tournament, limit: int = 500) -> list[dict[str, Any]]:
    """The event's log, newest first, as the log page shows it (one query)."""
    entries = tournament.log.select_related("actor").order_by("-created_at", "-pk")[:limit]
    return [
        {
            "entry": entry,
            "actor": entry.actor.get_username() if entry.actor else "",
            "details": sorted(
                (key, ", ".join(map(str, value)) if isinstance(value, list) else value)
                for key, value in (entry.details or {}).items()
            ),
        }
        for entry in entries
    ]
