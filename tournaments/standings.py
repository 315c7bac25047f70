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

import logging
import pickle
import zlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rules import rank_records
from tournaments.live_versions import with_games_version
from tournaments.models import (
    EntrantStatus,
    Penalty,
    PenaltyStep,
    Round,
    RoundStatus,
    TableSeat,
    Tournament,
)
from tournaments.round_records import RoundRecords, round_records


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
    known: dict[str, RoundRecords] | None = None,
    rounds: list[Round] | None = None,
) -> tuple[Standings, dict[str, RoundRecords]]:
    """The standings, and the finalized rounds' records to keep (`known`: those kept before;
    `rounds`: `_rounds(tournament)` when already read)."""
    rounds = _rounds(tournament) if rounds is None else rounds
    counted = counted_rounds(tournament, rounds, live=live)
    number_of = {r.pk: r.number for r in counted}
    rows = list(
        tournament.entrants.order_by("name_key", "pk").values_list(
            "pk", "name", "club", "status", "entered_before_round"
        )
    )
    late = {pk for pk, _name, _club, _status, entered in rows if entered > 1}
    entrants = [(pk, name, club, status) for pk, name, club, status, _entered in rows]
    name_of = {pk: name for pk, name, _club, _status in entrants}
    points: dict[int, int] = defaultdict(int)
    round_dq: set[tuple[int, int]] = set()  # (entrant, round number)
    event_dq: set[int] = set()
    for entrant_id, step, pts, round_number in (
        Penalty.objects.filter(tournament=tournament, rescinded_at__isnull=True)
        .order_by()
        .values_list("entrant_id", "step", "points", "round_number")
    ):
        points[entrant_id] += pts
        if step == PenaltyStep.ROUND_DQ and round_number is not None:
            round_dq.add((entrant_id, round_number))
        elif step == PenaltyStep.EVENT_DQ:
            event_dq.add(entrant_id)
    # Whose each seat of each counted table is. A player disqualified from a round has no valid
    # game in it: their seat there is left out, so their scores neither count nor beat anyone's.
    owner: dict[tuple[int, int], tuple[int, int]] = {}  # (game, seat) -> (entrant, round number)
    valid: dict[int, set[int]] = defaultdict(set)  # entrant -> round numbers with a valid game
    for round_id, game_id, seat, entrant_id in (
        TableSeat.objects.filter(round_id__in=number_of)
        .order_by()
        .values_list("round_id", "table__game_id", "seat", "entrant_id")
    ):
        number = number_of[round_id]
        if (entrant_id, number) not in round_dq:
            owner[(game_id, seat)] = (entrant_id, number)
            valid[entrant_id].add(number)
    records, per_round, kept, in_play = round_records(counted, owner, round_dq, name_of, known)
    numbers = tuple(r.number for r in counted)
    final = (
        bool(rounds)
        and len(rounds) == tournament.rounds
        and all(r.status == RoundStatus.FINALIZED for r in rounds)
    )
    chain = tuple(tournament.tiebreakers)
    if not final:
        chain = tuple(m for m in chain if m != "sudden_death")
    group_of, kind_of = _groups(entrants, valid, event_dq, numbers)
    penalties = {name_of[pk]: pts for pk, pts in points.items() if pts and pk in name_of}
    ranked = rank_records(
        [name for _pk, name, _club, _status in entrants],
        records,
        chain,
        penalties or None,
        groups={name_of[pk]: group for pk, group in group_of.items()},
    )
    info = {name: (pk, club, status) for pk, name, club, status in entrants}
    lines: list[StandingLine] = []
    for row in ranked.rows:
        pk, club, status = info[row.player]
        kind = kind_of[pk]
        lines.append(
            StandingLine(
                rank=row.rank,
                entrant_id=pk,
                name=row.player,
                club=club,
                status=EntrantStatus.DISQUALIFIED if pk in event_dq else status,
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
                thru=in_play.thru.get(pk) if in_play is not None else None,
                late_entry=pk in late,
            )
        )
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
    return table, kept


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


#: How long a tournament's entry stays in the shared cache after its last write.
CACHE_SECONDS = 24 * 3600

logger = logging.getLogger(__name__)


def standings_cache_key(tournament: Tournament, *, live: bool) -> str:
    """The shared-cache key of `tournament`'s standings (live, or as released to the public)."""
    # 4: the entries' versions are `event_version`s (3 held `Tournament.version` alone), and the
    # cached rows hold what the totals include (issue 31, items 2 and 6).
    return f"tournaments:standings:4:{tournament.pk}:{'live' if live else 'released'}"


def cached_standings(tournament: Tournament, *, live: bool = True) -> Standings:
    """`compute_standings`, computed once per version of the tournament for every app process.

    One entry per tournament (and live or released) in the shared cache (PostgreSQL or Redis, never
    process memory: every app instance answers the same table) holds the table, the version it was
    computed at, and the finalized rounds' records. The version (`Tournament.version` and each
    round's `Round.version` with the sum of its tables' games' versions, read from committed data
    at every call, as `tournaments.live_versions` does) moves with every change the standings read
    (each hole change in its own transaction, nothing after its commit; seating, publishing,
    finalizing, players, penalties, settings): while it has not moved, the table is answered as
    it is, so
    hundreds of phones polling between two holes cost one computation; once it has, the table is
    computed again, reading from the database only the rounds whose records changed (in a live
    event, the round in play). A stale writer can only leave an entry of another version, which
    is never answered.
    """
    key = standings_cache_key(tournament, live=live)
    try:
        blob = cache.get(key)
        entry = pickle.loads(zlib.decompress(blob)) if isinstance(blob, bytes) else None
    except Exception:  # a cache outage or a bad entry must not take the standings down
        logger.warning("standings cache unreadable", exc_info=True)
        entry = None
    if not isinstance(entry, dict):
        entry = {}
    # The version, read before the data it keys (so an entry is never older than its version): the
    # tournament's own, and each round's own with its tables' games' versions, which every hole
    # change moves in its own transaction. The rounds are read anyway to compute the table.
    rounds = _rounds(tournament)
    version = (tournament.version, tuple((r.pk, r.version, r.games_version) for r in rounds))
    if entry.get("version") == version and isinstance(entry.get("standings"), Standings):
        return entry["standings"]
    table, kept = _compute(tournament, live=live, known=entry.get("rounds") or {}, rounds=rounds)
    try:
        # Compressed: a 1,000-player table pickles to 300 kB, 80 kB this way (a quarter of the
        # time to store and fetch on the database cache, a quarter of the memory on Redis).
        fresh = {"version": version, "standings": table, "rounds": kept}
        cache.set(key, zlib.compress(pickle.dumps(fresh, pickle.HIGHEST_PROTOCOL), 1), CACHE_SECONDS)
    except Exception:
        logger.warning("standings cache unwritable", exc_info=True)
    return table


def standings_order(tournament: Tournament) -> list[int]:
    """The players' ids in standings order (for seating by standings), over the finalized rounds."""
    return [line.entrant_id for line in compute_standings(tournament, live=False).lines]
