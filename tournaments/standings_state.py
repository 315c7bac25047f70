"""What a computation of the standings keeps for the next one, in a form quick to store and read.

`tournaments.standings._compute` returns, beside the table, a `Kept`: every counted round's records
(`tournaments.round_records`: each player's holes as `(hole number, score, won)`, the round in
play's uncut), the finalized rounds' keys, each counted round's games' versions as read before the
hole scores, the round disqualifications, each player's ranking group and the round in play.
`tournaments.standings_cache` stores it with the cached table, a round's records packed as one
compressed blob of one small byte string per player (`pack_round`): pickling 45,000 tuples took
longer than the whole computation after a hole may take, and a round that did not change keeps its
blob as it is.
"""

from __future__ import annotations

import zlib
from array import array
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from tournaments.models import Penalty, PenaltyStep, TableSeat, Tournament
from tournaments.round_records import InPlay, RoundRecords

# One player's round as bytes: a typecode ("b", "h" or "i") then (hole number, score, won) flattened;
# a finalized round's, briefly, the typecode in capitals then the scores sorted and the holes won.
Packed = bytes
Record = tuple[tuple[tuple[int, int, bool], ...], int, int]


@dataclass
class Kept:
    """What `_compute` read, to keep with the cached table (see the module's docstring)."""

    by_round: dict[int, RoundRecords]  # counted round number -> records (the round in play's uncut)
    keys: dict[int, str]  # finalized counted round number -> `round_key`
    versions: dict[int, dict[int, int]]  # counted round number -> game id -> game version
    round_dq: frozenset[tuple[int, int]]  # (entrant, round number)
    group_of: dict[int, int]  # entrant -> ranking group (`standings._groups`)
    order: tuple[int, ...]  # the entrants in the event's order (the order within a tie)
    in_play: InPlay | None


@dataclass
class EventRead:
    """What the standings read besides the hole scores (three queries)."""

    entrants: list[tuple[int, str, str, str]]  # (pk, name, club, status) in the event's order
    late: set[int]
    points: dict[int, int]
    round_dq: set[tuple[int, int]]  # (entrant, round number)
    event_dq: set[int]
    # Whose each valid seat of each counted table is: (game, seat) -> (entrant, round number).
    owner: dict[tuple[int, int], tuple[int, int]]
    valid: dict[int, set[int]]  # entrant -> round numbers with a valid game
    # Each counted round's games' versions, read with the seats, before the hole scores.
    versions: dict[int, dict[int, int]]


def read_event(tournament: Tournament, number_of: dict[int, int]) -> EventRead:
    """The players, the live penalties and the counted rounds' seats (`number_of`: round pk -> number)."""
    rows = list(
        tournament.entrants.order_by("name_key", "pk").values_list(
            "pk", "name", "club", "status", "entered_before_round"
        )
    )
    read = EventRead(
        entrants=[(pk, name, club, status) for pk, name, club, status, _entered in rows],
        late={pk for pk, _name, _club, _status, entered in rows if entered > 1},
        points=defaultdict(int),
        round_dq=set(),
        event_dq=set(),
        owner={},
        valid=defaultdict(set),
        versions={number: {} for number in number_of.values()},
    )
    for entrant_id, step, pts, round_number in (
        Penalty.objects.filter(tournament=tournament, rescinded_at__isnull=True)
        .order_by()
        .values_list("entrant_id", "step", "points", "round_number")
    ):
        read.points[entrant_id] += pts
        if step == PenaltyStep.ROUND_DQ and round_number is not None:
            read.round_dq.add((entrant_id, round_number))
        elif step == PenaltyStep.EVENT_DQ:
            read.event_dq.add(entrant_id)
    # A player disqualified from a round has no valid game in it: their seat there is left out, so
    # their scores neither count nor beat anyone's.
    for round_id, game_id, version, seat, entrant_id in (
        TableSeat.objects.filter(round_id__in=number_of)
        .order_by()
        .values_list("round_id", "table__game_id", "table__game__version", "seat", "entrant_id")
    ):
        number = number_of[round_id]
        read.versions[number][game_id] = version
        if (entrant_id, number) not in read.round_dq:
            read.owner[(game_id, seat)] = (entrant_id, number)
            read.valid[entrant_id].add(number)
    return read


def pack_record(record: Record, *, brief: bool = False) -> Packed:
    """One player's record of a round as bytes (`unpack_record` reads it back). `brief` (a
    finalized round's) keeps only the scores, sorted, and the holes won: a finalized round's hole
    numbers and which holes were won count nowhere (only the round in play is cut to the holes
    every player has played), and a third of the bytes is a third of the shared cache's write."""
    if brief:
        values = [*sorted(hole[1] for hole in record[0]), record[1]]
    else:
        values = [value for hole in record[0] for value in hole]
    for typecode in "bh":  # one byte a value when all fit in one (nearly always), else two, else four
        try:
            packed = array(typecode, values).tobytes()
        except OverflowError:
            continue
        return (typecode.upper() if brief else typecode).encode() + packed
    return (b"I" if brief else b"i") + array("i", values).tobytes()


def unpack_record(packed: Packed) -> Record:
    """`pack_record`'s record again: its holes in hole order, holes won and round total (a brief
    record's holes numbered in score order, its first ones won: the same scores, total and holes won)."""
    typecode = packed[:1].decode()
    values = array(typecode.lower(), packed[1:])
    if typecode.isupper():
        won = values[-1]
        played = tuple((index + 1, score, index < won) for index, score in enumerate(values[:-1]))
        return played, won, sum(values[:-1])
    it = iter(values)
    played = tuple((number, score, bool(won)) for number, score, won in zip(it, it, it, strict=True))
    return played, sum(1 for hole in played if hole[2]), sum(hole[1] for hole in played)


def pack_round(records: Mapping[int, Packed]) -> bytes:
    """A round's packed records (entrant id -> `pack_record`) as one compressed blob: the entrants'
    ids, each record's length and the records end to end (one pickled object a player would make
    the blob twice as large, and the shared cache's write time grows with it)."""
    ids = array("q", records.keys())
    lengths = array("I", map(len, records.values()))
    data = ids.tobytes() + lengths.tobytes() + b"".join(records.values())
    return zlib.compress(len(ids).to_bytes(4, "little") + data, 1)


def unpack_round(blob: bytes) -> dict[int, Packed]:
    """`pack_round`'s records again, each still packed."""
    data = zlib.decompress(blob)
    count = int.from_bytes(data[:4], "little")
    ids, lengths = array("q"), array("I")
    ids.frombytes(data[4 : 4 + 8 * count])
    lengths.frombytes(data[4 + 8 * count : 4 + 12 * count])
    found: dict[int, Packed] = {}
    at = 4 + 12 * count
    for entrant, length in zip(ids, lengths, strict=True):
        found[entrant] = data[at : at + length]
        at += length
    if at != len(data):
        raise ValueError("a packed round's records do not add up")
    return found


class KnownRounds(Mapping[str, RoundRecords]):
    """Kept rounds by `round_key`, unpacked when first asked for (`round_records`'s `known`); a
    blob that does not unpack (written by another version of this module) is not known."""

    def __init__(self, blobs: Mapping[str, bytes]) -> None:
        self._blobs = dict(blobs)
        self._unpacked: dict[str, RoundRecords | None] = {}

    def _get(self, key: object) -> RoundRecords | None:
        if key not in self._blobs or not isinstance(key, str):
            return None
        if key not in self._unpacked:
            try:
                packed = unpack_round(self._blobs[key])
                self._unpacked[key] = {e: unpack_record(record) for e, record in packed.items()}
            except (ValueError, TypeError, zlib.error):
                self._unpacked[key] = None
        return self._unpacked[key]

    def blob(self, key: str) -> bytes:
        """The packed blob of a known round, as kept."""
        return self._blobs[key]

    def __getitem__(self, key: str) -> RoundRecords:
        found = self._get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return self._get(key) is not None

    def __iter__(self) -> Iterator[str]:
        return (key for key in self._blobs if key in self)

    def __len__(self) -> int:
        return sum(1 for _key in self)
