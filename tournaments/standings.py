"""A tournament's standings (SPEC "Standings"), read in a fixed handful of queries whatever its size.

The ranking itself is the rules engine's `rank_event`: totals, countback over every regular hole a
player played in the event, holes won against each hole's own table, playoffs, shared places.
This module only decides which holes count and in which group a player ranks:

1. players whose record is complete (a game in every counted round, not disqualified from one),
   by total (holes plus penalty points), the event's tiebreak chain breaking ties;
2. then players with an incomplete record (dropped, late, disqualified from a round), by rounds
   completed (more first), then total;
3. players disqualified from the event last, marked DQ.

Counted rounds: the finalized ones, plus the round in play when the standings are live (the
staff always see them live; the public as the director released them). `sudden_death` marks a
tie as a playoff only once every round is finalized: before that a tie simply shares the rank.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from scoring.models import HoleEntry
from scoring.rules import rank_event
from scoring.rules.holes import PlayedHole
from tournaments.models import EntrantStatus, Penalty, PenaltyStep, Round, RoundStatus, TableSeat, Tournament


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


def counted_rounds(tournament: Tournament, rounds: list[Round], *, live: bool) -> list[Round]:
    """The rounds whose holes count: finalized ones, and the one in play when `live`."""
    wanted = {RoundStatus.FINALIZED, RoundStatus.PUBLISHED} if live else {RoundStatus.FINALIZED}
    return [r for r in rounds if r.status in wanted]


def compute_standings(tournament: Tournament, *, live: bool = True) -> Standings:
    """The standings of `tournament` (six queries, whatever its size)."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    counted = counted_rounds(tournament, rounds, live=live)
    counted_ids = [r.pk for r in counted]
    number_of = {r.pk: r.number for r in counted}
    entrants = list(
        tournament.entrants.order_by("name_key", "pk").values_list("pk", "name", "club", "status")
    )
    name_of = {pk: name for pk, name, _club, _status in entrants}
    seat_owner: dict[tuple[int, int], int] = {}
    seated: dict[int, set[int]] = defaultdict(set)  # entrant -> round numbers
    for round_id, game_id, seat, entrant_id in TableSeat.objects.filter(round_id__in=counted_ids).values_list(
        "round_id", "table__game_id", "seat", "entrant_id"
    ):
        seat_owner[(game_id, seat)] = entrant_id
        seated[entrant_id].add(number_of[round_id])
    points: dict[int, int] = defaultdict(int)
    round_dq: dict[int, set[int]] = defaultdict(set)
    event_dq: set[int] = set()
    for entrant_id, step, pts, round_number in Penalty.objects.filter(
        tournament=tournament, rescinded_at__isnull=True
    ).values_list("entrant_id", "step", "points", "round_number"):
        points[entrant_id] += pts
        if step == PenaltyStep.ROUND_DQ and round_number is not None:
            round_dq[entrant_id].add(round_number)
        elif step == PenaltyStep.EVENT_DQ:
            event_dq.add(entrant_id)
    holes, per_round = _played_holes(
        counted_ids, seat_owner, name_of, round_dq, _round_of_games(counted_ids, number_of)
    )
    numbers = tuple(r.number for r in counted)
    final = (
        bool(rounds)
        and len(rounds) == tournament.rounds
        and all(r.status == RoundStatus.FINALIZED for r in rounds)
    )
    chain = tuple(tournament.tiebreakers)
    if not final:
        chain = tuple(m for m in chain if m != "sudden_death")
    group_of, kind_of = _groups(entrants, seated, round_dq, event_dq, numbers)
    penalties = {name_of[pk]: pts for pk, pts in points.items() if pts and pk in name_of}
    ranked = rank_event(
        [name for _pk, name, _club, _status in entrants],
        holes,
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
            )
        )
    return Standings(lines=tuple(lines), round_numbers=numbers, tiebreakers=chain, final=final, live=live)


def _round_of_games(counted_ids: list[int], number_of: dict[int, int]) -> dict[int, int]:
    return {
        game_id: number_of[round_id]
        for game_id, round_id in TableSeat.objects.filter(round_id__in=counted_ids)
        .values_list("table__game_id", "round_id")
        .distinct()
    }


def _played_holes(
    counted_ids: list[int],
    seat_owner: dict[tuple[int, int], int],
    name_of: dict[int, str],
    round_dq: dict[int, set[int]],
    round_of_game: dict[int, int],
) -> tuple[list[PlayedHole], dict[tuple[int, int], int]]:
    """Every regular hole of the counted rounds' tables, scores by player name; and each player's
    total per round. A player disqualified from a round has no valid game in it: their scores of
    that round do not count."""
    scores: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    per_round: dict[tuple[int, int], int] = defaultdict(int)
    for game_id, number, seat, score in HoleEntry.objects.filter(
        hole__game__tournament_table__round_id__in=counted_ids, hole__is_playoff=False
    ).values_list("hole__game_id", "hole__number", "seat__seat", "score"):
        entrant_id = seat_owner.get((game_id, seat))
        if entrant_id is None:
            continue
        round_number = round_of_game[game_id]
        if round_number in round_dq.get(entrant_id, ()):
            continue
        scores[(game_id, number)][name_of[entrant_id]] = score
        per_round[(entrant_id, round_number)] += score
    holes = [PlayedHole(number=number, scores=s, table=game_id) for (game_id, number), s in scores.items()]
    return holes, per_round


def _groups(
    entrants: list[tuple[int, str, str, str]],
    seated: dict[int, set[int]],
    round_dq: dict[int, set[int]],
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
        valid = (seated.get(pk, set()) - round_dq.get(pk, set())) & wanted
        if valid == wanted:
            group_of[pk], kind_of[pk] = 0, "complete"
        else:
            group_of[pk], kind_of[pk] = 1 + len(numbers) - len(valid), "incomplete"
    return group_of, kind_of


def standings_order(tournament: Tournament) -> list[int]:
    """The players' ids in standings order (for seating by standings), over the finalized rounds."""
    return [line.entrant_id for line in compute_standings(tournament, live=False).lines]
