"""A hole's entries checked against the table and scored by the rules engine (no writes).

The input (player name to grid, typed total or {"cards"/"total", "blocks_marked"}) is matched to
the seats as names are compared, parsed, and scored with the engine (deck check included); bad
input raises one `GameError` naming every problem, with paths as in the input ("entries.ann[1][2]").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from golfclub.core.names import name_key
from scoring.game_errors import (
    ChangeNotCurrent,
    GameError,
)
from scoring.models import (
    Seat,
)
from scoring.rules import (
    PlayerHoleScore,
    Ruleset,
)
from scoring.rules.errors import Problem, RulesError
from scoring.services.hole_scoring import EntryToScore, score_hole_entries

EntryInput = Sequence[Sequence[str]] | int | Mapping[str, Any]


@dataclass(frozen=True)
class ScoredEntry:
    """One player's entry as stored: the input as read and the engine's scores of it."""

    seat: Seat
    cards: list[list[str]] | None
    typed_total: int | None
    blocks_marked: int
    grid_score: int
    adjustments: list[dict[str, Any]]
    score: int


def _parse_entry_input(value: Any, where: str) -> tuple[list[list[str]] | None, int | None, int | None]:
    """(cards, typed total, blocks marked from the entry itself) from one entry's input."""
    blocks: int | None = None
    if isinstance(value, Mapping):
        known = {"cards", "total", "blocks_marked"}
        unknown = sorted(set(value) - known)
        if unknown:
            raise GameError(Problem(f"{where}.{unknown[0]}", _("Unknown field %(f)s.") % {"f": unknown[0]}))
        if ("cards" in value) == ("total" in value):
            raise GameError(Problem(where, _("Give either the cards or a typed total, not both or neither.")))
        blocks = value.get("blocks_marked")
        value = value["cards"] if "cards" in value else value["total"]
    if isinstance(value, bool):
        raise GameError(Problem(where, _("A hole total must be a whole number.")))
    if isinstance(value, int):
        return None, value, blocks
    if isinstance(value, (list, tuple)):
        return [list(row) if isinstance(row, (list, tuple)) else row for row in value], None, blocks
    raise GameError(Problem(where, _("Give the grid as rows of cards, or the hole total as a number.")))


def score_entries(
    seats: Sequence[Seat],
    players: Sequence[Seat],
    ruleset: Ruleset,
    entries: Mapping[str, EntryInput],
    ender: str | None,
    blocks_marked: Mapping[str, int] | None,
) -> tuple[list[ScoredEntry], Seat | None]:
    """Check the input against the table and score it with the engine (deck check included).

    `seats` is the whole table, `players` those playing this hole (all seats, or the contenders
    of a playoff hole). Answers each player's scored entry in seat order and the ender's seat.
    Raises one `GameError` naming every problem with the table (unknown or missing players, bad
    block counts, an unknown ender), then one naming every unreadable entry, then the engine's.
    """
    if not isinstance(entries, Mapping):
        raise GameError(
            Problem("entries", _("Give the entries as a mapping of player name to grid or total."))
        )
    table = _TableLookup(seats, players)
    problems: list[Problem] = []
    given = _entries_by_seat(table, players, entries, problems)
    blocks_by_seat = _blocks_by_seat(table, blocks_marked, problems)
    ender_seat = _ender_seat(table, ender, problems)
    if problems:
        raise GameError(problems)
    to_score = _entries_to_score(players, given, blocks_by_seat)
    scored = score_hole_entries(
        to_score, ruleset, ender=ender_seat.name if ender_seat else None, table_size=len(seats)
    )
    by_name = {p.name: p for p in scored.score.players}
    return [
        _scored_entry(seat, entry, scored.cards[seat.name], by_name[seat.name])
        for seat, entry in zip(players, to_score, strict=True)
    ], ender_seat


class _TableLookup:
    """The seats of a table found by name as names are compared, and which of them play the hole."""

    def __init__(self, seats: Sequence[Seat], players: Sequence[Seat]) -> None:
        self.by_key = {name_key(s.name): s for s in seats}
        self.playing = {s.pk for s in players}

    def seat(self, name: object) -> Seat | None:
        """The seat of the player called `name`, or None."""
        return self.by_key.get(name_key(str(name)))

    def player(self, name: object) -> Seat | None:
        """The seat of the player called `name` if they play this hole, else None."""
        seat = self.seat(name)
        return seat if seat is not None and seat.pk in self.playing else None


def _entries_by_seat(
    table: _TableLookup, players: Sequence[Seat], entries: Mapping[str, EntryInput], problems: list[Problem]
) -> dict[int, tuple[str, Any]]:
    """Each playing seat's (name, raw entry); unknown, non-playing and missing players added to `problems`."""
    given: dict[int, tuple[str, Any]] = {}
    named_as: dict[int, str] = {}  # seat id -> the key that first named it
    for name, value in entries.items():
        seat = table.seat(name)
        if seat is not None and seat.pk in named_as:
            # "ann" and "ANN" are one player: keeping either entry would silently drop the other.
            problems.append(_named_twice("entries", name, named_as[seat.pk], seat.name))
        elif seat is None:
            problems.append(
                Problem(f"entries.{name}", _("No player named %(name)s at this table.") % {"name": name})
            )
        elif seat.pk not in table.playing:
            problems.append(
                Problem(
                    f"entries.{name}", _("%(name)s is not playing this playoff hole.") % {"name": seat.name}
                )
            )
        else:
            given[seat.pk] = (seat.name, value)
            named_as[seat.pk] = str(name)
    for seat in players:
        if seat.pk not in given:
            problems.append(
                Problem(f"entries.{seat.name}", _("%(name)s has no entry.") % {"name": seat.name})
            )
    return given


def _blocks_by_seat(
    table: _TableLookup, blocks_marked: Mapping[str, int] | None, problems: list[Problem]
) -> dict[int, int]:
    """The hand-marked block counts by seat id; bad names and counts added to `problems`."""
    blocks_by_seat: dict[int, int] = {}
    named_as: dict[int, str] = {}  # seat id -> the key that first named it
    for name, count in dict(blocks_marked or {}).items():
        seat = table.player(name)
        if seat is not None and seat.pk in named_as:
            problems.append(_named_twice("blocks_marked", name, named_as[seat.pk], seat.name))
        elif seat is None:
            problems.append(
                Problem(f"blocks_marked.{name}", _("No player named %(name)s in this hole.") % {"name": name})
            )
        elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.append(Problem(f"blocks_marked.{name}", _blocks_message()))
        else:
            blocks_by_seat[seat.pk] = count
        if seat is not None:
            named_as.setdefault(seat.pk, str(name))
    return blocks_by_seat


def _named_twice(field: str, name: object, first: str, player: str) -> Problem:
    """The problem of a second key naming a player a first key already named ("ann" and "ANN")."""
    return Problem(
        f"{field}.{name}",
        _('"%(name)s" and "%(first)s" both name %(player)s: give %(player)s once.')
        % {"name": name, "first": first, "player": player},
    )


def _ender_seat(table: _TableLookup, ender: str | None, problems: list[Problem]) -> Seat | None:
    """The seat of the player who ended the hole (None if nobody); an unknown name added to `problems`."""
    if ender in (None, ""):
        return None
    seat = table.player(ender)
    if seat is None:
        problems.append(Problem("ender", _("No player named %(name)s in this hole.") % {"name": ender}))
    return seat


def _entries_to_score(
    players: Sequence[Seat], given: Mapping[int, tuple[str, Any]], blocks_by_seat: Mapping[int, int]
) -> list[EntryToScore]:
    """Each player's input read as a grid or a typed total with its blocks (seat order); an input
    that cannot be read carries its problems, reported with the others' by the pipeline."""
    to_score: list[EntryToScore] = []
    for seat in players:
        name, value = given[seat.pk]
        where = f"entries.{name}"
        try:
            cards, total, own_blocks = _parse_entry_input(value, where)
            blocks = blocks_by_seat.get(seat.pk, own_blocks or 0)
            if isinstance(blocks, bool) or not isinstance(blocks, int) or blocks < 0:
                raise GameError(Problem(f"{where}.blocks_marked", _blocks_message()))
        except (RulesError, GameError) as error:
            to_score.append(EntryToScore(name=seat.name, refused=error.problems))
            continue
        to_score.append(EntryToScore(name=seat.name, cards=cards, total=total, blocks_marked=blocks))
    return to_score


def _scored_entry(
    seat: Seat, entry: EntryToScore, cards: list[list[str]] | None, score: PlayerHoleScore
) -> ScoredEntry:
    """What is stored of one player's entry: the input as read and the engine's score of it."""
    return ScoredEntry(
        seat=seat,
        cards=cards,
        typed_total=entry.total,
        blocks_marked=entry.blocks_marked,
        grid_score=score.grid_score,
        adjustments=[
            {"kind": a.kind, "reason": a.reason, "points": a.points, "rule": a.rule}
            for a in score.adjustments
        ],
        score=score.score,
    )


def rescore_snapshot(
    seats: Sequence[Seat], ruleset: Ruleset, snap: Mapping[str, Any]
) -> tuple[list[ScoredEntry], Seat | None]:
    """Score a hole again from its snapshot (seats are matched by their seat index, names may change)."""
    by_index = {s.seat: s for s in seats}
    if any(e["seat"] not in by_index for e in snap["entries"]):
        raise ChangeNotCurrent(
            Problem(
                "change",
                _("The players at the table changed since this hole was recorded: it cannot be put back."),
            ),
            already=False,
        )
    players = [by_index[e["seat"]] for e in snap["entries"]]
    entries = {
        by_index[e["seat"]].name: {"cards": e["cards"]} if e["cards"] is not None else {"total": e["total"]}
        for e in snap["entries"]
    }
    blocks = {by_index[e["seat"]].name: e["blocks_marked"] for e in snap["entries"]}
    ender_name = None
    if snap.get("ender"):
        ender_seat = next((e["seat"] for e in snap["entries"] if e["name"] == snap["ender"]), None)
        ender_name = by_index[ender_seat].name if ender_seat is not None else None
    return score_entries(seats, players, ruleset, entries, ender_name, blocks)


def entries_laid_over_snapshot(
    snapshot: Mapping[str, Any], changes: Mapping[str, EntryInput]
) -> dict[str, Any]:
    """The snapshot's entries as `score_entries` takes them, with `changes` (names matched ignoring case)
    in place of those players' entries; unknown names are kept so that `score_entries` names them.
    Two changes naming one player ("ann" and "ANN") are refused (`GameError`), not merged."""
    merged: dict[str, Any] = {}
    for entry in snapshot["entries"]:
        if entry["cards"] is not None:
            merged[entry["name"]] = {"cards": entry["cards"]}
        else:
            merged[entry["name"]] = {"total": entry["total"]}
            if entry["blocks_marked"]:
                merged[entry["name"]]["blocks_marked"] = entry["blocks_marked"]
    canonical = {name_key(name): name for name in merged}
    firsts: dict[str, str] = {}  # name key -> the change's key that first named it
    twice: list[Problem] = []
    for name in changes:
        key = name_key(str(name))
        if key in firsts:
            twice.append(_named_twice("entries", name, firsts[key], canonical.get(key, firsts[key])))
        firsts.setdefault(key, str(name))
    if twice:
        raise GameError(twice)
    for name, value in changes.items():
        merged[canonical.get(name_key(str(name)), str(name))] = value
    return merged


def _blocks_message() -> str:
    """What is wrong with a block count that is not a whole number of 0 or more ("1", 1.5, -1)."""
    return _("The number of blocks marked must be a whole number, 0 or more (as a number, not text).")
