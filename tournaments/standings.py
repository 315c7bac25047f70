"""A tournament's standings (SPEC "Standings"), read in a fixed handful of queries whatever its size.

The ranking itself is the rules engine's (`rank_records`, `rank_event`'s twin for records gathered
here in one pass): totals, countback over every regular hole a player played in the event, holes
won against each hole's own table, playoffs, shared places. This module only decides which holes
count and in which group a player ranks:

1. players whose record is complete (a game in every counted round, not disqualified from one),
   by total (holes plus penalty points), the event's tiebreak chain breaking ties;
2. then players with an incomplete record (dropped, late, disqualified from a round), by rounds
   completed (more first), then total;
3. players disqualified from the event last, marked DQ.

Counted rounds: the finalized ones, plus the round in play when the standings are live (the
staff always see them live; the public as the director released them). The round in play counts
only the holes every one of its players has played, so a player who has played fewer holes is
never ranked ahead because of it; each line says how far the player is ("thru N"). `sudden_death` marks a
tie as a playoff only once every round is finalized: before that a tie simply shares the rank.

One policy for every view (issue 31): a line's total is exactly the sum of its round scores and
its penalty points (`StandingLine.rounds` holds, for the round in play, the score over the holes
counted, not the score so far), and `Standings.totals_note` says in words what the totals include;
every view (standings page, leaderboard, projector, API, exports, printout) shows those numbers
and that sentence, never its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rules import StandingRow, rank_records
from tournaments.live_versions import with_games_version
from tournaments.models import EntrantStatus, Round, RoundStatus, Tournament
from tournaments.round_records import InPlay, RoundRecords, round_key, round_records
from tournaments.standings_state import EventRead, Kept, read_event


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One player's line: rank, totals, per-round scores, tiebreak columns and why above the next."""

    rank: int
    entrant_id: int
    name: str
    club: str
    status: str
    total: int
    penalty_points: int
    rounds: tuple[int | None, ...]  # per counted round; None where the player had no valid game
    holes_played: int
    holes_won: int
    complete: bool
    disqualified: bool
    playoff: bool
    shared: bool
    columns: tuple[tuple[str, str], ...]
    why_above: str
    # Holes played in the round in play (live standings only): "thru N"; None otherwise.
    thru: int | None = None
    late_entry: bool = False  # entered after round 1 was seated (labelled where ranked)

    def __reduce__(self) -> tuple[type[StandingLine], tuple[Any, ...]]:
        """Pickled as its fields in order: read back in a third of the time dataclasses' slots
        state takes (a 1,000-line table is cached after every change)."""
        return StandingLine, _line_fields(self)

    @property
    def labels(self) -> tuple[str, ...]:
        """The words shown beside the name where the player is ranked: late entry, dropped,
        withdrawn, disqualified (translated when read)."""
        shown = [_("late entry")] if self.late_entry else []
        words = {
            EntrantStatus.DROPPED: _("dropped"),
            EntrantStatus.WITHDRAWN: _("withdrawn"),
            EntrantStatus.DISQUALIFIED: _("disqualified"),
        }
        if self.status in words:
            shown.append(words[self.status])
        return tuple(shown)

    def to_api(self) -> dict[str, Any]:
        """The line as the Tournament API contract spells it."""
        return {
            "rank": self.rank,
            "player": {"id": self.entrant_id, "name": self.name},
            "total": self.total,
            "rounds": list(self.rounds),
            "penalty_points": self.penalty_points,
            "holes_won": self.holes_won,
            "holes_played": self.holes_played,
            "complete": self.complete,
            "status": self.status,
            "playoff": self.playoff,
            "shared": self.shared,
            "tiebreak": dict(self.columns),
            "why_above": self.why_above,
            "thru": self.thru,
            "late_entry": self.late_entry,
        }


_line_fields = attrgetter(*(f.name for f in fields(StandingLine)))  # a line's fields in order, as a tuple


@dataclass(frozen=True)
class Standings:
    """The whole table: its lines in rank order, the rounds counted and whether they are final."""

    lines: tuple[StandingLine, ...]
    round_numbers: tuple[int, ...]
    tiebreakers: tuple[str, ...]
    final: bool  # every round of the event is finalized
    live: bool  # an unfinalized round is counted
    steps: tuple[str, ...] = field(default=())
    # While a round is in play (live standings): the holes of it every player has played, the
    # only ones its ranking counts (`tournaments.round_records`); None otherwise.
    comparable_holes: int | None = None
    in_play: int | None = None  # the number of the round in play, counted or not
    penalties: bool = False  # somebody has penalty points (their column is then shown everywhere)

    @property
    def counted_in_play(self) -> int | None:
        """The number of the round in play when its holes count (live standings), else None."""
        return self.in_play if self.comparable_holes is not None else None

    def round_heads(self) -> list[str]:
        """Each counted round's column head: "R1", and for the round in play which holes count."""
        heads = []
        for number in self.round_numbers:
            if number != self.counted_in_play:
                heads.append(_("R%(n)s") % {"n": number})
            elif self.comparable_holes == 1:
                heads.append(_("R%(n)s (hole 1)") % {"n": number})
            elif self.comparable_holes:
                heads.append(_("R%(n)s (holes 1\u2013%(k)s)") % {"n": number, "k": self.comparable_holes})
            else:
                heads.append(_("R%(n)s (no hole yet)") % {"n": number})
        return heads

    def totals_note(self) -> str:
        """What every total includes, in one sentence every view shows beside its totals."""
        done = ", ".join(str(n) for n in self.round_numbers if n != self.counted_in_play)
        if self.final:
            return _(
                "Final: every round is finalized. Each total is the player's round scores plus "
                "penalty points."
            )
        if self.counted_in_play is not None:
            n, k = self.counted_in_play, self.comparable_holes or 0
            if not k:
                return _(
                    "Live: totals are the finalized rounds plus penalty points; round %(n)s counts "
                    "(shown as 0 until then) once every player has played a hole of it."
                ) % {"n": n}
            return ngettext(
                "Live: totals include round %(n)s's first hole, which every player has played, plus "
                "the finalized rounds and penalty points (“thru N”: holes played so far).",
                "Live: totals include round %(n)s's first %(k)s holes, which every player has played, "
                "plus the finalized rounds and penalty points (“thru N”: holes played so far).",
                k,
            ) % {"n": n, "k": k}
        if self.in_play is not None:
            return _(
                "Totals: the finalized rounds only, plus penalty points; round %(n)s, in play, "
                "counts once it is finalized."
            ) % {"n": self.in_play}
        if done:
            return _("Totals: the finalized rounds (%(rounds)s) plus penalty points.") % {"rounds": done}
        return _("No round is finalized yet: every total is its penalty points.")

    def to_api(self) -> dict[str, Any]:
        """The standings as the API and the JSON export answer them (`StandingsSerializer`)."""
        return {
            "standings": [line.to_api() for line in self.lines],
            "rounds": list(self.round_numbers),
            "live": self.live,
            "final": self.final,
            "tiebreakers": list(self.tiebreakers),
            "round_in_play": self.in_play,
            "holes_counted_in_play": self.comparable_holes,
            "totals_include": self.totals_note(),
        }


def counted_rounds(tournament: Tournament, rounds: list[Round], *, live: bool) -> list[Round]:
    """The rounds whose holes count: finalized ones, and the one in play when `live`."""
    wanted = {RoundStatus.FINALIZED, RoundStatus.PUBLISHED} if live else {RoundStatus.FINALIZED}
    return [r for r in rounds if r.status in wanted]


def compute_standings(tournament: Tournament, *, live: bool = True) -> Standings:
    """The standings of `tournament`, read from the database (seven queries, whatever its size)."""
    return _compute(tournament, live=live)[0]


def _rounds(tournament: Tournament) -> list[Round]:
    """The tournament's rounds in order, each with its tables' games' versions (one query)."""
    return list(with_games_version(Round.objects.filter(tournament=tournament)).order_by("number"))


def _compute(
    tournament: Tournament,
    *,
    live: bool,
    known: Mapping[str, RoundRecords] | None = None,
    rounds: list[Round] | None = None,
) -> tuple[Standings, Kept]:
    """The standings, and what to keep for the next computation (`known`: the finalized rounds'
    records kept before, by `round_key`; `rounds`: `_rounds(tournament)` when already read)."""
    rounds = _rounds(tournament) if rounds is None else rounds
    counted = counted_rounds(tournament, rounds, live=live)
    read = read_event(tournament, {r.pk: r.number for r in counted})
    name_of = {pk: name for pk, name, _club, _status in read.entrants}
    records, per_round, by_round, in_play = round_records(counted, read.owner, read.round_dq, name_of, known)
    numbers = tuple(r.number for r in counted)
    final = (
        bool(rounds)
        and len(rounds) == tournament.rounds
        and all(r.status == RoundStatus.FINALIZED for r in rounds)
    )
    chain = tuple(tournament.tiebreakers)
    if not final:
        chain = tuple(m for m in chain if m != "sudden_death")
    group_of, kind_of = _groups(read.entrants, read.valid, read.event_dq, numbers)
    penalties = {name_of[pk]: pts for pk, pts in read.points.items() if pts and pk in name_of}
    ranked = rank_records(
        [name for _pk, name, _club, _status in read.entrants],
        records,
        chain,
        penalties or None,
        groups={name_of[pk]: group for pk, group in group_of.items()},
    )
    info = {name: (pk, club, status) for pk, name, club, status in read.entrants}
    in_play_thru = in_play.thru if in_play is not None else None
    lines = [
        _line(row, info[row.player], kind_of, read, per_round, numbers, in_play_thru) for row in ranked.rows
    ]
    table = Standings(
        lines=tuple(lines),
        round_numbers=numbers,
        tiebreakers=chain,
        final=final,
        live=live,
        comparable_holes=in_play.comparable if in_play is not None else None,
        in_play=next((r.number for r in rounds if r.status == RoundStatus.PUBLISHED), None),
        penalties=any(line.penalty_points for line in lines),
    )
    return table, _kept(counted, read, by_round, group_of, in_play)


def _kept(
    counted: list[Round],
    read: EventRead,
    by_round: dict[int, RoundRecords],
    group_of: dict[int, int],
    in_play: InPlay | None,
) -> Kept:
    """What a computation keeps for the next one: the finalized rounds' records by their keys, and
    what tells whether they still hold (versions, disqualifications, groups, the players' order)."""
    return Kept(
        by_round=by_round,
        keys={
            r.number: round_key(r, {e for e, n in read.round_dq if n == r.number})
            for r in counted
            if r.status == RoundStatus.FINALIZED
        },
        versions=read.versions,
        round_dq=frozenset(read.round_dq),
        group_of=group_of,
        order=tuple(pk for pk, _name, _club, _status in read.entrants),
        in_play=in_play,
    )


def _line(
    row: StandingRow,
    info: tuple[int, str, str],
    kind_of: dict[int, str],
    read: EventRead,
    per_round: dict[tuple[int, int], int],
    numbers: tuple[int, ...],
    thru: dict[int, int] | None,
) -> StandingLine:
    """The engine's `row` as a line of the standings (`info`: the player's id, club and status)."""
    pk, club, status = info
    kind = kind_of[pk]
    return StandingLine(
        rank=row.rank,
        entrant_id=pk,
        name=row.player,
        club=club,
        status=EntrantStatus.DISQUALIFIED if pk in read.event_dq else status,
        total=row.total,
        penalty_points=row.penalty_points,
        rounds=tuple(per_round.get((pk, n)) for n in numbers),
        holes_played=row.holes_played,
        holes_won=row.holes_won,
        complete=kind == "complete",
        disqualified=kind == "dq",
        # Only a tie among complete records can go to a playoff or share a place.
        playoff=row.playoff and kind == "complete",
        shared=row.shared and kind == "complete",
        columns=row.columns,
        why_above=row.why_above,
        thru=thru.get(pk) if thru is not None else None,
        late_entry=pk in read.late,
    )


def _groups(
    entrants: list[tuple[int, str, str, str]],
    valid: dict[int, set[int]],
    event_dq: set[int],
    numbers: tuple[int, ...],
) -> tuple[dict[int, int], dict[int, str]]:
    """Each player's ranking group (lower first) and kind: complete records (0), incomplete ones by
    rounds completed (more first), players disqualified from the event last."""
    group_of: dict[int, int] = {}
    kind_of: dict[int, str] = {}
    wanted = set(numbers)
    for pk, _name, _club, status in entrants:
        if pk in event_dq or status == EntrantStatus.DISQUALIFIED:
            group_of[pk], kind_of[pk] = len(numbers) + 2, "dq"
            continue
        completed = valid.get(pk, set()) & wanted
        if completed == wanted:
            group_of[pk], kind_of[pk] = 0, "complete"
        else:
            group_of[pk], kind_of[pk] = 1 + len(numbers) - len(completed), "incomplete"
    return group_of, kind_of


def standings_cache_key(tournament: Tournament, *, live: bool) -> str:
    """The shared-cache key of `tournament`'s standings (live, or as released to the public)."""
    # 5: the entry keeps what the computation read, each round's records packed, so that after a
    # hole only that table is read again (issue 34, item 6); 4 kept the finalized rounds' records;
    # 6: the entry is a head naming its parts, each under a key of its own (`standings_store`).
    return f"tournaments:standings:6:{tournament.pk}:{'live' if live else 'released'}"


def cached_standings(tournament: Tournament, *, live: bool = True) -> Standings:
    """`compute_standings`, computed once per version of the tournament for every app process.

    One entry per tournament (and live or released) in the shared cache (PostgreSQL or Redis, never
    process memory: every app instance answers the same table) holds the table, the version it was
    computed at, and what the computation read (`tournaments.standings_cache`). The version
    (`Tournament.version` and each round's `Round.version` with the sum of its tables' games'
    versions, read from committed data at every call, as `tournaments.live_versions` does) moves
    with every change the standings read (each hole change in its own transaction, nothing after
    its commit; seating, publishing, finalizing, players, penalties, settings): while it has not
    moved, the table is answered as it is, so hundreds of phones polling between two holes cost one
    computation. After holes only, only the tables whose game's version moved are read again and
    only their players ranked again; after anything else the table is computed again, reading from
    the database only the rounds whose records may have changed. A stale writer can only leave an
    entry of another version, which is never answered.
    """
    from tournaments.standings_cache import cached

    return cached(tournament, live=live)


def standings_order(tournament: Tournament) -> list[int]:
    """The players' ids in standings order (for seating by standings), over the finalized rounds."""
    return [line.entrant_id for line in compute_standings(tournament, live=False).lines]
