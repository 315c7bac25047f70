"""Each counted round's hole scores gathered into players' records, for the standings. A finalized
round's records are kept with the cached standings (`tournaments.standings.cached_standings`), so
the standings of an event in its last round read the holes of that round only.

A round's records are each player's regular hole scores at their table, how many of those holes
they won (the lowest score at their own table, a shared lowest counting for each) and their round
total. A round's holes belong to its own tables, so its records are computed on their own; a player
disqualified from a round has their seat there left out (their scores neither count nor beat
anyone's), which is part of the round's key.

A finalized round changes only by a late correction, which bumps `Round.version` (through
`scoring`'s signals, `tournaments.receivers`): its key moves with it. The round in play is always
read from the database.
"""

from __future__ import annotations

from collections import defaultdict

from scoring.rules import PlayerRecord
from scoring.selectors import regular_hole_scores
from tournaments.models import Round, RoundStatus, Table

# entrant id -> (their hole scores, holes won, round total)
RoundRecords = dict[int, tuple[tuple[int, ...], int, int]]


def round_key(round_: Round, disqualified: set[int]) -> str:
    """What a round's records depend on: the round, its version and its round disqualifications."""
    dq = ",".join(str(pk) for pk in sorted(disqualified))
    return f"{round_.pk}:{round_.version}:{dq}"


def round_records(
    rounds: list[Round],
    owner: dict[tuple[int, int], tuple[int, int]],
    round_dq: set[tuple[int, int]],
    name_of: dict[int, str],
    known: dict[str, RoundRecords] | None = None,
) -> tuple[dict[str, PlayerRecord], dict[tuple[int, int], int], dict[str, RoundRecords]]:
    """Every player's record over `rounds` (scores and holes won, by name), their total per round
    `(entrant, round number)`, and the finalized rounds' records by key (to keep for next time).

    `owner` maps each valid seat `(game, seat)` to `(entrant, number)`; `known` holds records kept
    from an earlier computation, used for the finalized rounds whose key still matches."""
    known = known or {}
    keys = {
        r.number: round_key(r, {e for e, n in round_dq if n == r.number})
        for r in rounds
        if r.status == RoundStatus.FINALIZED
    }
    by_round: dict[int, RoundRecords] = {n: known[key] for n, key in keys.items() if key in known}
    missing = [r for r in rounds if r.number not in by_round]
    if missing:
        computed = _computed([r.pk for r in missing], owner)
        for r in missing:
            by_round[r.number] = computed.get(r.number, {})
    scores: dict[int, list[int]] = defaultdict(list)
    won: dict[int, int] = defaultdict(int)
    per_round: dict[tuple[int, int], int] = {}
    for number, records in by_round.items():
        for entrant_id, (played, holes_won, total) in records.items():
            scores[entrant_id].extend(played)
            won[entrant_id] += holes_won
            per_round[(entrant_id, number)] = total
    records = {
        name_of[pk]: PlayerRecord(tuple(played), won[pk]) for pk, played in scores.items() if pk in name_of
    }
    return records, per_round, {key: by_round[n] for n, key in keys.items()}


def _computed(round_ids: list[int], owner: dict[tuple[int, int], tuple[int, int]]) -> dict[int, RoundRecords]:
    """The records of `round_ids` read from their hole scores (`scoring.selectors`), in one pass.

    Each score's seat `(game, seat)` is mapped to its owner, and the lowest score of each hole found
    on the way, so holes won need no second grouping."""
    games = Table.objects.filter(round_id__in=round_ids).values("game_id")
    kept: list[tuple[int, tuple[int, int], int]] = []  # (hole, (entrant, round number), score)
    lowest: dict[int, int] = {}
    for game_id, seat, hole_id, _number, score in regular_hole_scores(games):
        found = owner.get((game_id, seat))
        if found is None:
            continue
        kept.append((hole_id, found, score))
        if score < lowest.get(hole_id, score + 1):
            lowest[hole_id] = score
    scores: dict[tuple[int, int], list[int]] = defaultdict(list)
    won: dict[tuple[int, int], int] = defaultdict(int)
    for hole_id, found, score in kept:
        scores[found].append(score)
        if score == lowest[hole_id]:
            won[found] += 1
    result: dict[int, RoundRecords] = defaultdict(dict)
    for (entrant_id, number), played in scores.items():
        result[number][entrant_id] = (tuple(played), won[(entrant_id, number)], sum(played))
    return dict(result)
