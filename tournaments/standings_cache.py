"""The shared-cache entry of a tournament's standings, and the standings after a hole in a few ms.

One entry per tournament (and live or released) in the shared cache (PostgreSQL or Redis, never
process memory) holds the version the table was computed at, the table, and what the computation
read (`tournaments.standings_state`), stored as a small head and its parts, only the changed parts
written, with a per-process memo of the parts by digest (`tournaments.standings_store`). Reading it
(`cached`):

1. **unchanged**: the version read now (one query, `tournaments.standings_versions`: on PostgreSQL
   with each round's games' versions) is the entry's: the table is answered as it is;
2. **after holes** (`_advance`): only games' versions moved (the tournament's and the rounds' own
   versions and states are the entry's, so the players, seats, penalties, settings and rounds are
   too): the games of the rounds whose sum moved whose version moved are found (from the versions
   read with the rounds; elsewhere one query), their seats and hole scores read in one statement
   (`round_records.seats_and_scores`), their players' records computed again, and only those
   players ranked again (`tournaments.standings_rank`) against the old lines. When the holes every
   player of the round in play has played change, every line of that round changes: that is a
   full computation;
3. **anything else**: `_compute`, the finalized rounds whose `round_key` is unchanged read from
   the entry instead of the database.

The versions are read before the data they key (the games' versions with the rounds, before the
seats and hole scores), so an entry is never older than the versions it names: a hole committed in
between only makes the next reading read that table again.
"""

from __future__ import annotations

import logging
import pickle
import zlib
from collections.abc import Collection
from dataclasses import replace
from typing import Any

from scoring.selectors.hole_scores import ScoreRow
from tournaments.models import Round, Table, Tournament
from tournaments.round_records import InPlay, in_play_record, records_of, round_key, seats_and_scores
from tournaments.standings import (
    StandingLine,
    Standings,
    _compute,
    counted_rounds,
    standings_cache_key,
)
from tournaments.standings_rank import Changed, reranked
from tournaments.standings_state import (
    Kept,
    KnownRounds,
    Packed,
    pack_record,
    pack_round,
    unpack_record,
    unpack_round,
)
from tournaments.standings_store import decoded, load, remember, save
from tournaments.standings_versions import GameVersions, rounds_and_games

#: How many lines each compressed chunk of the cached table holds.
CHUNK = 50

logger = logging.getLogger("tournaments.standings")

Version = tuple[int, tuple[tuple[int, int, int], ...]]

# What `_state` keeps.
_STATE = frozenset({"base", "sums", "rounds", "keys", "versions", "round_dq", "group_of", "order", "in_play"})


def cached(tournament: Tournament, *, live: bool) -> Standings:
    """`tournaments.standings.cached_standings`: see the module's docstring."""
    key = standings_cache_key(tournament, live=live)
    head, blobs = load(key)
    entry = _entry(head, blobs)
    # The version, read before the data it keys: the tournament's own, and each round's own with
    # its tables' games' versions, which every hole change moves in its own transaction.
    rounds, games = rounds_and_games(tournament)
    version: Version = (tournament.version, tuple((r.pk, r.version, r.games_version) for r in rounds))
    old = _table(entry)
    if old is not None and entry.get("version") == version:
        return old
    advanced = _advance(tournament, live, rounds, games, entry, old) if old is not None else None
    if advanced is None:
        known = _known(entry)
        table, kept = _compute(tournament, live=live, known=known, rounds=rounds)
        state = _state(tournament, live, rounds, kept, known)
    else:
        table, state = advanced
    packed = entry["table"][1] if old is not None else ()
    rest, chunks = _pack_table(table, old, packed)
    save(key, *_split(version, rest, chunks, state), head.get("parts", {}))
    return table


def _entry(head: dict[str, Any], blobs: dict[str, bytes]) -> dict[str, Any]:
    """The entry `_split` stored as `head` and its parts (`tournaments.standings_store`), or {}."""
    if not head:
        return {}
    try:
        static = decoded("static", blobs["s"], pickle.loads)
        state = {
            **{name: head[name] for name in ("base", "sums", "keys", "in_play")},
            **static,
            "rounds": {number: blobs[f"r{number}"] for number in head["rounds"]},
            "versions": {
                number: decoded("versions", blobs[f"v{number}"], pickle.loads) for number in head["versions"]
            },
        }
        chunks = tuple(blobs[f"c{index}"] for index in range(head["chunks"]))
        return {"version": head["version"], "table": (head["rest"], chunks), "state": state}
    except Exception:  # written by another version of this module
        return {}


def _split(
    version: Version, rest: bytes, chunks: tuple[bytes, ...], state: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The entry as a head and its parts (name -> blob) for `tournaments.standings_store.save`."""
    head = {
        "version": version,
        "rest": rest,
        "chunks": len(chunks),
        "rounds": tuple(state["rounds"]),
        "versions": tuple(state["versions"]),
        **{name: state[name] for name in ("base", "sums", "keys", "in_play")},
    }
    static = {name: state[name] for name in ("round_dq", "group_of", "order")}
    parts = {f"c{index}": chunk for index, chunk in enumerate(chunks)}
    parts.update((f"r{number}", blob) for number, blob in state["rounds"].items())
    for number, versions in state["versions"].items():
        parts[f"v{number}"] = pickle.dumps(versions, pickle.HIGHEST_PROTOCOL)
        remember("versions", parts[f"v{number}"], versions)
    parts["s"] = pickle.dumps(static, pickle.HIGHEST_PROTOCOL)
    remember("static", parts["s"], static)
    return head, parts


def _pack_table(
    table: Standings, old: Standings | None, blobs: tuple[bytes, ...]
) -> tuple[bytes, tuple[bytes, ...]]:
    """The table as its other fields and its lines in chunks of `CHUNK`, each pickled and
    compressed (a 1,000-player table pickles to 300 kB, 62 kB compressed: the database cache's
    write time grows with the bytes, and PostgreSQL would otherwise compress the column slowly).
    A chunk whose lines are the very lines of `old`'s (packed as `blobs`) keeps its blob: after a
    hole only the chunks whose lines moved are pickled and compressed again."""
    lines = table.lines
    chunks = []
    for index, start in enumerate(range(0, len(lines), CHUNK)):
        part = lines[start : start + CHUNK]
        if old is not None and index < len(blobs) and _same(part, old.lines[start : start + CHUNK]):
            chunks.append(blobs[index])
        else:
            chunks.append(zlib.compress(pickle.dumps(part, pickle.HIGHEST_PROTOCOL), 1))
            remember("lines", chunks[-1], part)
    return pickle.dumps(replace(table, lines=()), pickle.HIGHEST_PROTOCOL), tuple(chunks)


def _same(part: tuple[StandingLine, ...], old: tuple[StandingLine, ...]) -> bool:
    """Whether `part` holds the same line objects as `old`, in order."""
    return len(part) == len(old) and all(a is b for a, b in zip(part, old, strict=True))


def _table(entry: dict[str, Any]) -> Standings | None:
    """The entry's table, or None."""
    try:
        rest, chunks = entry["table"]
        table = decoded("rest", rest, pickle.loads)
        lines = tuple(line for chunk in chunks for line in decoded("lines", chunk, _lines))
    except Exception:
        return None
    return replace(table, lines=lines) if isinstance(table, Standings) else None


def _lines(chunk: bytes) -> tuple[StandingLine, ...]:
    """A chunk of lines as `_pack_table` packed it."""
    return pickle.loads(zlib.decompress(chunk))


def _base(tournament: Tournament, live: bool, rounds: list[Round]) -> tuple:
    """What everything but the holes is keyed by: the tournament's and rounds' own versions and states."""
    return (tournament.version, live, tuple((r.pk, r.number, r.version, r.status) for r in rounds))


def _known(entry: dict[str, Any]) -> KnownRounds:
    """The entry's finalized rounds by `round_key` (`_compute`'s `known`)."""
    state = entry.get("state")
    if not isinstance(state, dict) or not state.keys() >= _STATE:
        return KnownRounds({})
    return KnownRounds({key: state["rounds"][n] for n, key in state["keys"].items()})


def _state(
    tournament: Tournament, live: bool, rounds: list[Round], kept: Kept, known: KnownRounds
) -> dict[str, Any]:
    """The state to keep after a full computation (a round read from `known` keeps its blob)."""
    blobs = {}
    for number, records in kept.by_round.items():
        key = kept.keys.get(number)
        if key is not None and key in known:
            blobs[number] = known.blob(key)
        else:
            brief = number in kept.keys  # a finalized round
            blobs[number] = pack_round({e: pack_record(record, brief=brief) for e, record in records.items()})
    return {
        "base": _base(tournament, live, rounds),
        "sums": {r.pk: r.games_version for r in rounds},
        "rounds": blobs,
        "keys": kept.keys,
        "versions": kept.versions,
        "round_dq": kept.round_dq,
        "group_of": kept.group_of,
        "order": kept.order,
        "in_play": kept.in_play,
    }


def _advance(
    tournament: Tournament,
    live: bool,
    rounds: list[Round],
    games_read: GameVersions | None,
    entry: dict[str, Any],
    old: Standings,
) -> tuple[Standings, dict[str, Any]] | None:
    """The standings after holes only changed since the entry (`old` its table), and the state to
    keep; None when anything else changed (or the holes every player has played in the round in play)."""
    state = entry.get("state")
    if not isinstance(state, dict) or not state.keys() >= _STATE:
        return None  # none, or written by another version of this module
    if state["base"] != _base(tournament, live, rounds):
        return None
    moved = [
        r for r in counted_rounds(tournament, rounds, live=live) if state["sums"].get(r.pk) != r.games_version
    ]
    versions, games = _games(moved, state["versions"], games_read)
    try:
        parts = {
            number: dict(decoded("round", blob, unpack_round)) for number, blob in state["rounds"].items()
        }
    except (ValueError, TypeError, zlib.error):
        return None  # written by another version of this module
    before = _replaced(parts, _reread(games, state["round_dq"], state["keys"]))
    in_play: InPlay | None = state["in_play"]
    if in_play is not None and before:
        thru = dict(in_play.thru)
        for entrant in before.keys() & thru.keys():
            packed = parts[in_play.number].get(entrant)
            thru[entrant] = len(unpack_record(packed)[0]) if packed is not None else 0
        if min(thru.values(), default=0) != in_play.comparable:
            return None  # every line of the round in play changes: computed from the start
        in_play = InPlay(in_play.number, in_play.comparable, thru)
    table = _reranked(old, parts, before, in_play, state) if before else old
    keys = dict(state["keys"])
    for r in moved:
        if r.number in keys:
            keys[r.number] = round_key(r, {e for e, n in state["round_dq"] if n == r.number})
    blobs = dict(state["rounds"])
    for number in {n for changes in before.values() for n in changes}:
        blobs[number] = pack_round(parts[number])
        remember("round", blobs[number], parts[number])
    sums = {r.pk: r.games_version for r in rounds}
    return table, {
        **state,
        "sums": sums,
        "rounds": blobs,
        "keys": keys,
        "versions": versions,
        "in_play": in_play,
    }


def _replaced(
    parts: dict[int, dict[int, Packed]], found: dict[tuple[int, int], Packed | None]
) -> dict[int, dict[int, Packed | None]]:
    """Put the records `found` again (`_reread`) in `parts` (round number -> entrant -> packed; None
    removes); answers the changed players' records before: entrant -> round number -> packed."""
    before: dict[int, dict[int, Packed | None]] = {}
    for (entrant, number), packed in found.items():
        if parts[number].get(entrant) != packed:
            before.setdefault(entrant, {})[number] = parts[number].get(entrant)
            if packed is None:
                del parts[number][entrant]
            else:
                parts[number][entrant] = packed
    return before


def _games(
    moved: list[Round], known: dict[int, dict[int, int]], read: GameVersions | None
) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """The games' versions of the `moved` rounds read now (before their hole scores: `read` with
    the rounds, else one query) in place of the `known` ones, and the games whose version moved
    (game -> round number)."""
    versions = dict(known)
    games: dict[int, int] = {}
    if not moved:
        return versions, games
    number_of = {r.pk: r.number for r in moved}
    for number in number_of.values():
        versions[number] = {}
    rows = (
        Table.objects.filter(round_id__in=number_of)
        .order_by()
        .values_list("round_id", "game_id", "game__version")
        if read is None
        else [(pk, game, version) for pk in number_of for game, version in read[pk].items()]
    )
    for round_id, game_id, version in rows:
        number = number_of[round_id]
        versions[number][game_id] = version
        if known.get(number, {}).get(game_id) != version:
            games[game_id] = number
    return versions, games


def _reread(
    games: dict[int, int], round_dq: frozenset[tuple[int, int]], brief: Collection[int]
) -> dict[tuple[int, int], Packed | None]:
    """The records of the valid seats of `games` (game -> round number) read again (one query):
    `(entrant, round number)` -> packed record (`brief` for the finalized round numbers `brief`),
    None for a seat with no hole."""
    if not games:
        return {}
    owner: dict[tuple[int, int], tuple[int, int]] = {}
    scores: list[ScoreRow] = []
    for game_id, seat, entrant_id, hole_id, number, score in seats_and_scores(list(games)):
        if (entrant_id, games[game_id]) in round_dq:
            continue
        owner[(game_id, seat)] = (entrant_id, games[game_id])
        if hole_id is not None:
            scores.append((game_id, seat, hole_id, number, score))
    computed, _played = records_of(scores, owner)
    found: dict[tuple[int, int], Packed | None] = {}
    for entrant, number in owner.values():
        record = computed.get(number, {}).get(entrant)
        found[(entrant, number)] = pack_record(record, brief=number in brief) if record is not None else None
    return found


def _reranked(
    old: Standings,
    parts: dict[int, dict[int, Packed]],
    before: dict[int, dict[int, Packed | None]],
    in_play: InPlay | None,
    state: dict[str, Any],
) -> Standings:
    """`old` with the players whose records changed (`before`: their packed records before) ranked again."""
    line_of = {line.entrant_id: line for line in old.lines}
    numbers = old.round_numbers

    def record(entrant: int, packed: dict[int, Packed | None]) -> Changed:
        return _record(packed, numbers, in_play, line_of[entrant].penalty_points, entrant)

    changed: dict[int, Changed] = {}
    for entrant, was in before.items():
        now = record(entrant, {n: parts[n].get(entrant) for n in numbers})
        then = record(entrant, {n: was[n] if n in was else parts[n].get(entrant) for n in numbers})
        moved = (now.scores, now.holes_won) != (then.scores, then.holes_won)
        changed[entrant] = replace(now, moved=moved)

    def scores_of(entrant: int) -> tuple[int, ...]:
        return record(entrant, {n: parts[n].get(entrant) for n in numbers}).scores

    lines = reranked(old, changed, state["group_of"], state["order"], scores_of)
    return replace(old, lines=lines)


def _record(
    packed: dict[int, Packed | None],
    numbers: tuple[int, ...],
    in_play: InPlay | None,
    penalty: int,
    entrant: int,
) -> Changed:
    """A player's line data from their packed records by round, as `round_records` gathers them:
    the round in play cut to the holes every player has played, 0 there for a player seated in it."""
    scores: list[int] = []
    won = 0
    rounds: list[int | None] = []
    for number in numbers:
        playing = in_play is not None and number == in_play.number
        record = packed.get(number)
        if record is None:
            rounds.append(0 if playing and entrant in in_play.thru else None)
            continue
        played, holes_won, total = unpack_record(record)
        if playing:
            played, holes_won = in_play_record(played, in_play.comparable)
            total = sum(score for _number, score, _won in played)
        rounds.append(total)
        scores.extend(score for _number, score, _won in played)
        won += holes_won
    thru = in_play.thru.get(entrant) if in_play is not None else None
    return Changed(sum(scores) + penalty, len(scores), won, tuple(rounds), thru, tuple(sorted(scores)), True)
