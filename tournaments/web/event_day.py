"""What the event-day pages read: the schedule, the seating of the round in play (by table and by
name), "find my table", and the ETag that lets the polled pages answer 304 when nothing moved.

Each read is a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from golfclub.core.names import search_key
from scoring.selectors import deal_order
from tournaments.clock import Clock, round_clock
from tournaments.live_versions import event_version
from tournaments.models import Round, RoundStatus, TableSeat, Tournament
from tournaments.web.selectors import SeatedTable, seated_tables

#: Longest text "find my table" looks for (a name is at most 40 characters).
MAX_FIND = 60
#: Most players "find my table" lists for one query.
MAX_FOUND = 12


@dataclass(frozen=True)
class SeatLine:
    """A player's place in a round: table, seat (1-based) and how many sit there."""

    entrant_id: int
    name: str
    table: int
    seat: int
    table_size: int
    edit_token: str


def folded(text: str) -> str:
    """`text` compared as people read it: accents and case ignored ("José" finds "jose", "JOSE").

    The same key as a tournament's players must differ by (`golfclub.core.names.search_key`)."""
    return search_key(text)


def shown_round(tournament: Tournament) -> Round | None:
    """The round the public sees seated: the one in play, else the last finalized (one query)."""
    rounds = Round.objects.filter(
        tournament=tournament, status__in=[RoundStatus.PUBLISHED, RoundStatus.FINALIZED]
    )
    return rounds.order_by("-number").first()


def seating_of(round_: Round | None) -> list[SeatLine]:
    """Everybody's seat in `round_`, by table then seat (one query)."""
    if round_ is None:
        return []
    seats = list(
        TableSeat.objects.filter(round=round_)
        .order_by("table__number", "seat")
        .values_list("entrant_id", "entrant__name", "table__number", "seat", "table__game__edit_token")
    )
    sizes: dict[int, int] = {}
    for _entrant, _name, table, _seat, _token in seats:
        sizes[table] = sizes.get(table, 0) + 1
    return [SeatLine(e, n, t, s + 1, sizes[t], token) for e, n, t, s, token in seats]


def by_table(lines: list[SeatLine]) -> list[tuple[int, list[SeatLine]]]:
    """The seating grouped by table, in table order."""
    tables: dict[int, list[SeatLine]] = {}
    for line in lines:
        tables.setdefault(line.table, []).append(line)
    return sorted(tables.items())


def by_name(lines: list[SeatLine]) -> list[SeatLine]:
    """The seating in name order (accents and case ignored), for lists read by name."""
    return sorted(lines, key=lambda line: (folded(line.name), line.name))


#: Names a page of the seating by name holds: two columns of 45. Each page is cut into its two
#: columns here rather than by CSS columns: a PDF renderer (WeasyPrint) balancing CSS columns lays
#: the list out again and again: 21 s of CPU for 1,000 names, where two lists side by side take
#: 14 s (docs/performance.md).
NAMES_PER_PAGE = 90

NameColumn = tuple[int, list[SeatLine]]


def name_pages(
    lines: list[SeatLine], per_page: int = NAMES_PER_PAGE, names: range | None = None
) -> list[list[NameColumn]]:
    """The seating in name order cut into pages of `per_page`, each page into two columns (the
    first holding the odd one): per column, its first line's number and its lines. With `names`,
    only those lines (numbered from 1 in name order: a part of a big round's print pack)."""
    ordered = by_name(lines)
    first = names.start - 1 if names else 0
    last = names.stop - 1 if names else len(ordered)
    pages = []
    for start in range(first, min(last, len(ordered)), per_page):
        page = ordered[start : min(start + per_page, last)]
        half = (len(page) + 1) // 2
        columns = [(start + 1, page[:half]), (start + half + 1, page[half:])]
        pages.append([column for column in columns if column[1]])
    return pages


def find_seats(lines: list[SeatLine], query: str) -> list[SeatLine]:
    """The seats whose player's name contains `query` (accents and case ignored), by name."""
    wanted = folded(query.strip())
    if not wanted:
        return []
    return [line for line in by_name(lines) if wanted in folded(line.name)][:MAX_FOUND]


@dataclass(frozen=True)
class ScheduleLine:
    """A round of the schedule: its number, state and times."""

    number: int
    status: str
    round: Round | None
    clock: Clock | None


def schedule(tournament: Tournament) -> list[ScheduleLine]:
    """Every round of the event: those seated with their state and clock, the others still to come
    (one query)."""
    seated = {r.number: r for r in Round.objects.filter(tournament=tournament)}
    lines = []
    for number in range(1, tournament.rounds + 1):
        round_ = seated.get(number)
        clock = round_clock(tournament, round_) if round_ and round_.status == RoundStatus.PUBLISHED else None
        lines.append(ScheduleLine(number, round_.status if round_ else "", round_, clock))
    return lines


def event_etag(tournament: Tournament, *, live: bool, variant: str = "") -> str:
    """The ETag of an event-day page: it moves with the event's version as committed now
    (`live_versions.event_version`: every hole change, seating, publish, finalize, player change,
    penalty and setting moves it, nothing after a commit has to), what the viewer sees (live or
    released standings) and the page's own variant."""
    version = event_version(tournament)
    return f'W/"t{tournament.pk}-v{version}-{"live" if live else "released"}-{variant}"'


@dataclass(frozen=True)
class Slip:
    """A table's paper score slip: the players in seat order and, per hole, who deals and who plays
    first (the dealer moves one seat clockwise each hole; the player on the dealer's left starts)."""

    table: int
    players: list[str]
    holes: list[tuple[int, str, str]]  # (hole, dealer, first to play)


def score_slips(round_: Round, numbers: range | None = None) -> list[Slip]:
    """A slip per table of `round_`, or per table numbered in `numbers` (the three queries of
    `seated_tables`). A match played to a target score instead of a number of holes gets 12 rows,
    the most a slip holds. Who deals and who plays first is the engine's rotation
    (`scoring.selectors.deal_order`)."""
    return [_score_slip(seated) for seated in seated_tables(round_, numbers)]


def _score_slip(seated: SeatedTable) -> Slip:
    players = seated.players
    if not players:
        return Slip(seated.table.number, players, [])
    rows = []
    for hole in range(1, (seated.progress.holes_to_play or 12) + 1):
        # A first dealer past the table's seats (never seated so) wraps round, as a deal does.
        dealer, first = deal_order(seated.table.game.first_dealer % len(players), len(players), hole)
        rows.append((hole, players[dealer], players[first]))
    return Slip(seated.table.number, players, rows)
