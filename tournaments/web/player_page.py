"""What a player's own page reads (`/tournaments/player/<token>/`): their table now, their scores by
round and hole, their place, and the official's calls, rulings and penalties that concern them.

The page is reached by the player's personal link (its token is as unguessable as a table's link):
whoever holds it sees this one player, as the public sees the event (the round's seating once
published, the standings as the director released them); the staff see it live. A fixed number of
queries whatever the event's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.selectors import game_progress
from tournaments.access import Action, TournamentGrant
from tournaments.clock import Clock, table_clock
from tournaments.models import (
    Entrant,
    OfficialCall,
    Penalty,
    Round,
    RoundStatus,
    Ruling,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.standings import StandingLine, cached_standings
from tournaments.web.event_day import event_etag
from tournaments.web.selectors import PlayerRound, player_rounds


@dataclass(frozen=True)
class TableNow:
    """Where the player sits in the latest round they may see: round, table, seat, who else, clock."""

    round: Round
    table: Table
    seat: int  # 1-based
    players: list[str]  # everybody at the table, in seat order
    clock: Clock | None


@dataclass(frozen=True)
class PlayerPage:
    """Everything the player's page shows."""

    entrant: Entrant
    tournament: Tournament
    grant: TournamentGrant  # what the viewer may do (`tournaments.access.player_link_grant`)
    live: bool
    now: TableNow | None
    rounds: list[PlayerRound]
    place: StandingLine | None
    players: int  # how many lines the standings have
    totals_note: str  # what the place's total includes (`Standings.totals_note`)
    penalties: list[Penalty]
    rulings: list[Ruling]
    calls: list[OfficialCall]

    @property
    def can_check_in(self) -> bool:
        """A staff member opened the page (by scanning the player's QR): they may check them in."""
        return self.grant.allows(Action.CHECK_IN)


def page_etag(entrant: Entrant, grant: TournamentGrant) -> str:
    """The ETag of `entrant`'s page for the viewer of `grant` (`player_link_grant`), without reading
    the page: it moves with the tournament's version (holes, seating, check-ins, penalties...), what
    the viewer sees (live or released standings) and whether they are staff (the check-in button)."""
    who = "staff" if grant.allows(Action.CHECK_IN) else "public"
    return event_etag(
        entrant.tournament, live=grant.sees_live_standings, variant=f"player-{entrant.pk}-{who}"
    )


def player_page(entrant: Entrant, grant: TournamentGrant) -> PlayerPage:
    """The page of `entrant` (with its tournament loaded) as the viewer of `grant` sees it (what the
    holder of the player's link may do: `tournaments.access.player_link_grant`)."""
    tournament = entrant.tournament
    live = grant.sees_live_standings
    standings = cached_standings(tournament, live=live)
    place = next((line for line in standings.lines if line.entrant_id == entrant.pk), None)
    return PlayerPage(
        entrant=entrant,
        tournament=tournament,
        grant=grant,
        live=live,
        now=table_now(tournament, entrant, grant),
        rounds=player_rounds(tournament, entrant, live=live),
        place=place,
        players=len(standings.lines),
        totals_note=standings.totals_note(),
        penalties=list(Penalty.objects.filter(entrant=entrant).order_by("created_at", "pk")),
        rulings=list(entrant.rulings.select_related("penalty__entrant").order_by("created_at", "pk")),
        calls=list(
            OfficialCall.objects.filter(table__seats__entrant=entrant)
            .select_related("table__round")
            .order_by("created_at", "pk")
            .distinct()
        ),
    )


def table_now(tournament: Tournament, entrant: Entrant, grant: TournamentGrant) -> TableNow | None:
    """The player's seat in the latest round they may see (seated rounds only for the staff), with
    their table-mates and the table's clock; None when they sit in no such round (two queries)."""
    seat = (
        TableSeat.objects.filter(entrant=entrant)
        .select_related("round", "table")
        .order_by("-round__number")
        .first()
    )
    if seat is None or not grant.shows_seating(seat.round.status):
        return None
    names = list(
        TableSeat.objects.filter(table=seat.table).order_by("seat").values_list("entrant__name", flat=True)
    )
    round_ = seat.round
    clock = None
    if round_.status == RoundStatus.PUBLISHED:
        # A finished table's clock stops (its game is over): the same clock as the table's page.
        progress = game_progress(seat.table.game_id)
        clock = table_clock(tournament, round_, seat.table, finished=bool(progress and progress.finished))
    return TableNow(round=round_, table=seat.table, seat=seat.seat + 1, players=names, clock=clock)
