"""The reads of the tournament pages, each in a fixed number of queries whatever the event's size:
a round's tables with their players and progress (`seated_tables`, read by the dashboard and the
score slips alike), a round's seating, a table's scorecard, a player's record hole by hole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Prefetch, Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.selectors import PHONE_CONTACT_RELATION, GameProgress, Scorecard, games_progress, scorecards
from tournaments.models import Entrant, EntrantStatus, Round, RoundStatus, Table, TableSeat, Tournament

if TYPE_CHECKING:
    from scoring.models import Game
    from tournaments.web.phone_status import PhoneStatus


@dataclass
class TableLine:
    """One table as the staff see it: who sits there, who deals first, how far the game is."""

    table: Table
    players: list[str]
    first_dealer: str
    holes_done: int
    holes_total: int | None
    state: str  # "waiting", "playing", "finished", "confirmed", "flagged"
    finished: bool = False  # the game is over (a flagged table may still be playing)
    phone: PhoneStatus | None = None  # the dashboard's (`tournaments.web.phone_status`)

    @property
    def game(self) -> Game:
        """The table's live game."""
        return self.table.game


def rounds_of(tournament: Tournament) -> list[Round]:
    """The rounds seated so far, in order (one query)."""
    return list(Round.objects.filter(tournament=tournament).order_by("number"))


@dataclass(frozen=True)
class SeatedTable:
    """A table of a round, its seats in seat order (each with its entrant) and its game's progress."""

    table: Table
    seats: list[TableSeat]
    progress: GameProgress

    @property
    def players(self) -> list[str]:
        """The players' names in seat order."""
        return [seat.entrant.name for seat in self.seats]


def seated_tables(round_: Round, numbers: range | None = None) -> list[SeatedTable]:
    """The tables of `round_` in number order (or those numbered in `numbers`), each with its seats
    and its game's progress: three queries whatever the round's size. Each game's phone contact and
    who confirmed or disputed the table come along (`scoring.selectors.phone_contact_of` reads the
    contact at no cost)."""
    found = Table.objects.filter(round=round_)
    if numbers is not None:
        found = found.filter(number__gte=numbers.start, number__lt=numbers.stop)
    tables = list(
        found.select_related("game", f"game__{PHONE_CONTACT_RELATION}", "confirmed_by", "disputed_by")
        .prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("entrant").order_by("seat"))
        )
        .order_by("number")
    )
    progress = games_progress([table.game_id for table in tables])
    for table in tables:
        table.round = round_  # `is_confirmed` reads its status for a confirmation made before a change
    return [SeatedTable(table, list(table.seats.all()), progress[table.game_id]) for table in tables]


def table_lines(round_: Round) -> list[TableLine]:
    """The tables of `round_` as the staff see them, with their players and progress (the three
    queries of `seated_tables`)."""
    return [_table_line(seated, round_) for seated in seated_tables(round_)]


def _table_line(seated: SeatedTable, round_: Round) -> TableLine:
    players = seated.players
    first_dealer = seated.table.game.first_dealer
    return TableLine(
        table=seated.table,
        players=players,
        first_dealer=players[first_dealer] if 0 <= first_dealer < len(players) else "",
        holes_done=seated.progress.holes_played,
        holes_total=seated.progress.holes_to_play,
        state=_table_state(seated, round_),
        finished=seated.progress.finished,
    )


def _table_state(seated: SeatedTable, round_: Round) -> str:
    """Where a table stands, the staff's concern first: flagged, confirmed, finished, waiting, playing."""
    if seated.table.is_disputed:
        return "flagged"
    if seated.table.is_confirmed:
        return "confirmed"
    if seated.progress.finished:
        return "finished"
    if round_.status == RoundStatus.SEATED:
        return "waiting"
    return "playing"


def player_counts(tournament: Tournament) -> dict[str, int]:
    """How many players are registered, active, and checked in (one query)."""
    return tournament.entrants.aggregate(
        total=Count("pk"),
        active=Count("pk", filter=Q(status=EntrantStatus.ACTIVE)),
        checked_in=Count("pk", filter=Q(status=EntrantStatus.ACTIVE, checked_in=True)),
    )


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


#: The log page's words for each kind of entry the services log (`log_event`); a kind missing
#: here shows its code (a test checks that every kind the services log has its words).
LOG_LABELS: dict[str, Promise] = {
    "settings": _("Settings changed"),
    "staff_added": _("Staff added"),
    "staff_removed": _("Staff removed"),
    "player_added": _("Player added"),
    "players_imported": _("Players imported"),
    "player_dropped": _("Player dropped"),
    "player_withdrawn": _("Player withdrawn"),
    "player_reinstated": _("Player reinstated"),
    "players_checked_in": _("Players checked in (bulk)"),
    "players_dropped": _("Players dropped (bulk)"),
    "bulk_undone": _("Bulk action undone"),
    "round_seated": _("Round seated"),
    "players_swapped": _("Players swapped"),
    "round_published": _("Round published"),
    "round_finalized": _("Round finalized"),
    "round_finalized_override": _("Round finalized by override"),
    "finalized_round_corrected": _("Finalized round corrected"),
    "paper_slip_entered": _("Paper slip typed in"),
    "table_disputed": _("Scorecard disputed"),
    "dispute_cleared": _("Dispute cleared"),
    "table_extended": _("Extra time given"),
    "penalty_given": _("Penalty given"),
    "club": _("Club changed"),
    "member_links": _("Players linked to club members"),
    "penalty_rescinded": _("Penalty rescinded"),
}


def log_lines(tournament: Tournament, limit: int = 500) -> list[dict[str, Any]]:
    """The event's log, newest first, as the log page shows it (one query): each entry with its
    words, who (the staff member, or the name a change at a table carried: `by`), and its details."""
    entries = tournament.log.select_related("actor").order_by("-created_at", "-pk")[:limit]
    lines = []
    for entry in entries:
        details = dict(entry.details or {})
        # A correction at a table is logged after it committed, without the user: its `by` is who.
        by = str(details.pop("by", "") or "")
        details.pop("hole_versions", None)  # a paper slip's holes as it left them: for the slip page
        lines.append(
            {
                "entry": entry,
                "label": LOG_LABELS.get(entry.action, entry.action),
                "actor": entry.actor.get_username() if entry.actor else by,
                "details": sorted(
                    (key, ", ".join(map(str, value)) if isinstance(value, list) else value)
                    for key, value in details.items()
                ),
            }
        )
    return lines
