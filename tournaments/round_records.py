"""Each counted round's hole scores gathered into players' records, for the standings. A finalized
round's records are kept with the cached standings (`tournaments.standings.cached_standings`), so
the standings of an event in its last round read the holes of that round only.

A round's records are each player's regular hole scores at their table, how many of those holes
they won (the lowest score at their own table, a shared lowest counting for each) and their round
total. A round's holes belong to its own tables, so its records are computed on their own; a player
disqualified from a round has their seat there left out (their scores neither count nor beat
anyone's), which is part of the round's key.

A finalized round changes only by a late correction, which moves its table's game's version in
the correction's own transaction: the key holds the sum of the round's games' versions
(`tournaments.live_versions`), so it moves with it. The round in play is always read from the
database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet

from scoring.rules import PlayerRecord
from scoring.selectors import regular_hole_scores, score_table_names
from scoring.selectors.hole_scores import ScoreRow
from tournaments.models import Round, RoundStatus, Table, TableSeat

# entrant id -> (their holes as (hole number, score, won), in hole order; holes won; round total)
RoundRecords = dict[int, tuple[tuple[tuple[int, int, bool], ...], int, int]]


def round_key(round_: Round, disqualified: set[int]) -> str:
    """What a round's records depend on: the round, its version (with its tables' games' versions,
    `live_versions.with_games_version`) and its round disqualifications."""
    dq = ",".join(str(pk) for pk in sorted(disqualified))
    return f"{round_.pk}:{round_.version}.{round_.games_version}:{dq}"


@dataclass(frozen=True)
class InPlay:
    """The round in play, as the live standings compare it: the holes every player of the round has
    played (`comparable`, counted for everybody) and each player's holes played ("thru N")."""

    number: int
    comparable: int
    thru: dict[int, int]  # entrant id -> holes played in the round


def round_records(
    rounds: list[Round],
    owner: dict[tuple[int, int], tuple[int, int]],
    round_dq: set[tuple[int, int]],
    name_of: dict[int, str],
    known: dict[str, RoundRecords] | None = None,
) -> tuple[dict[str, PlayerRecord], dict[tuple[int, int], int], dict[int, RoundRecords], InPlay | None]:
    """Every player's record over `rounds` (scores and holes won, by name), their total per round
    `(entrant, round number)`, every round's records by number (the round in play's uncut: to keep
    for next time), and the round in play's comparison (None when no round is in play).

    `owner` maps each valid seat `(game, seat)` to `(entrant, number)`; `known` holds records kept
    from an earlier computation, used for the finalized rounds whose key still matches.

    In the round in play, a player's record counts only its first holes, as many as every player
    of the round has played: a player who has played fewer holes has a lower total only because
    the others' later holes are counted, so comparing the same holes ranks what is comparable.
    Their round's total (the `per_round` score shown beside the total) is over those same holes, so a
    total is always the sum of the round scores shown with it (issue 31); "thru N" says how far the
    player really is."""
    known = known or {}
    keys = {
        r.number: round_key(r, {e for e, n in round_dq if n == r.number})
        for r in rounds
        if r.status == RoundStatus.FINALIZED
    }
    by_round: dict[int, RoundRecords] = {n: known[key] for n, key in keys.items() if key in known}
    missing = [r for r in rounds if r.number not in by_round]
    in_play: InPlay | None = None
    playing = [r for r in missing if r.status == RoundStatus.PUBLISHED]
    if missing:
        games = Table.objects.filter(round_id__in=[r.pk for r in missing]).values("game_id")
        computed, played = computed_records(games, owner)
        for r in missing:
            by_round[r.number] = computed.get(r.number, {})
        for r in playing:
            in_play = _compared(r.number, by_round, played, owner)
    scores: dict[int, list[int]] = defaultdict(list)
    won: dict[int, int] = defaultdict(int)
    per_round: dict[tuple[int, int], int] = {}
    for number, records in by_round.items():
        for entrant_id, (played, holes_won, total) in records.items():
            if in_play is not None and number == in_play.number:
                played, holes_won = in_play_record(played, in_play.comparable)
                total = sum(score for _number, score, _won in played)
            per_round[(entrant_id, number)] = total
            scores[entrant_id].extend(score for _number, score, _won in played)
            won[entrant_id] += holes_won
    if in_play is not None:
        # Every player seated in the round in play has its (counted) score, 0 before any hole counts.
        for entrant_id in in_play.thru:
            per_round.setdefault((entrant_id, in_play.number), 0)
    records = {
        name_of[pk]: PlayerRecord(tuple(played), won[pk]) for pk, played in scores.items() if pk in name_of
    }
    return records, per_round, by_round, in_play


def in_play_record(
    played: tuple[tuple[int, int, bool], ...], holes: int
) -> tuple[tuple[tuple[int, int, bool], ...], int]:
    """A player's holes of the round in play cut to its first `holes`, and the holes won among them."""
    kept = tuple(hole for hole in played if hole[0] <= holes)
    return kept, sum(1 for hole in kept if hole[2])


def _compared(
    number: int,
    by_round: dict[int, RoundRecords],
    played: dict[tuple[int, int], int],
    owner: dict[tuple[int, int], tuple[int, int]],
) -> InPlay:
    """Round `number` in play: each of its players' holes played, and the fewest of them."""
    players = {entrant for entrant, n in owner.values() if n == number}
    thru = {entrant: played.get((entrant, number), 0) for entrant in players}
    return InPlay(number, min(thru.values(), default=0), thru)


def computed_records(
    games: Iterable[int] | QuerySet, owner: dict[tuple[int, int], tuple[int, int]]
) -> tuple[dict[int, RoundRecords], dict[tuple[int, int], int]]:
    """The records of the seats of `games` (game ids, or a query of them) that `owner` names, read
    from their hole scores (`scoring.selectors`, two queries) in one pass, by round number, and each
    player's holes played per round `(entrant, round number)`.

    Each score's seat `(game, seat)` is mapped to its owner, and the lowest score of each hole found
    on the way, so holes won need no second grouping. A record's holes are `(hole number, score,
    won)` in hole order, so the round in play can be cut to the holes every player has played."""
    return records_of(regular_hole_scores(games), owner)


def records_of(
    scores: Iterable[ScoreRow], owner: dict[tuple[int, int], tuple[int, int]]
) -> tuple[dict[int, RoundRecords], dict[tuple[int, int], int]]:
    """`computed_records` from the hole scores already read (`scoring.selectors.hole_scores`' rows)."""
    kept: list[tuple[int, tuple[int, int], int, int]] = []  # (hole, (entrant, round number), number, score)
    lowest: dict[int, int] = {}
    for game_id, seat, hole_id, number, score in scores:
        found = owner.get((game_id, seat))
        if found is None:
            continue
        kept.append((hole_id, found, number, score))
        if score < lowest.get(hole_id, score + 1):
            lowest[hole_id] = score
    holes: dict[tuple[int, int], list[tuple[int, int, bool]]] = defaultdict(list)
    for hole_id, found, number, score in kept:
        holes[found].append((number, score, score == lowest[hole_id]))
    result: dict[int, RoundRecords] = defaultdict(dict)
    for (entrant_id, round_number), played in holes.items():
        played.sort()
        result[round_number][entrant_id] = (
            tuple(played),
            sum(1 for hole in played if hole[2]),
            sum(score for _n, score, _won in played),
        )
    return dict(result), {found: len(played) for found, played in holes.items()}


def seats_and_scores(games: list[int]) -> list[tuple[int, int, int, int | None, int | None, int | None]]:
    """Each seat of the tables of `games` with each of its regular hole scores, in one statement:
    `(game, seat, entrant, hole id, hole number, score)`, the hole id and number None for a seat
    with no score (the score too) and for a playoff hole's score. `TableSeat`'s seat is the game's
    `Seat.seat`, as `computed_records` maps them. After a hole: one table's, in one round trip."""
    names = {**score_table_names(), "table_seat": TableSeat._meta.db_table, "table": Table._meta.db_table}
    sql = (
        "SELECT t.game_id, ts.seat, ts.entrant_id, h.id, h.number, e.score FROM {table_seat} ts "
        "JOIN {table} t ON t.id = ts.table_id "
        "LEFT JOIN {seat} s ON s.game_id = t.game_id AND s.seat = ts.seat "
        "LEFT JOIN {hole_entry} e ON e.seat_id = s.id "
        "LEFT JOIN {hole} h ON h.id = e.hole_id AND NOT h.is_playoff "
        "WHERE t.game_id IN ({games})"
    ).format(
        **{key: connection.ops.quote_name(name) for key, name in names.items()},
        games=", ".join(["%s"] * len(games)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, games)
        return cursor.fetchall()
