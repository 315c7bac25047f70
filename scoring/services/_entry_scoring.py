"""A hole's entries checked against the table and scored by the rules engine (no writes).

The input (player name to grid, typed total or {"cards"/"total", "blocks_marked"}) is matched to
the seats as names are compared, parsed, and scored with the engine (deck check included); bad
input raises one `GameError` naming every problem, with paths as in the input ("entries.ann[1][2]").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.game_errors import (
    ChangeNotCurrent,
    GameError,
)
from scoring.models import (
    Seat,
)
from scoring.names import name_key
from scoring.rules import (
    HoleScore,
    PlayerEntry,
    PlayerHoleScore,
    Ruleset,
    check_table_cards,
    format_grid,
    parse_grid,
    score_hole,
)
from scoring.rules.errors import Problem, RulesError

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
    parsed = _parse_player_entries(players, given, blocks_by_seat, ruleset)
    result = _score_with_engine(seats, players, parsed, ruleset, ender_seat)
    by_name = {p.name: p for p in result.players}
    return [_scored_entry(seat, parsed[seat.pk], by_name[seat.name]) for seat in players], ender_seat


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
    for name, value in entries.items():
        seat = table.seat(name)
        if seat is None:
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
    for name, count in dict(blocks_marked or {}).items():
        seat = table.player(name)
        if seat is None:
            problems.append(
                Problem(f"blocks_marked.{name}", _("No player named %(name)s in this hole.") % {"name": name})
            )
        elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.append(Problem(f"blocks_marked.{name}", _("The number of blocks must be 0 or more.")))
        else:
            blocks_by_seat[seat.pk] = count
    return blocks_by_seat


def _ender_seat(table: _TableLookup, ender: str | None, problems: list[Problem]) -> Seat | None:
    """The seat of the player who ended the hole (None if nobody); an unknown name added to `problems`."""
    if ender in (None, ""):
        return None
    seat = table.player(ender)
    if seat is None:
        problems.append(Problem("ender", _("No player named %(name)s in this hole.") % {"name": ender}))
    return seat


@dataclass(frozen=True)
class _ParsedEntry:
    """One player's entry read from the input: the engine's entry and what is stored of it."""

    engine: PlayerEntry
    cards: list[list[str]] | None  # the grid as stored (format_grid), None for a typed total
    typed_total: int | None
    blocks_marked: int


def _parse_player_entries(
    players: Sequence[Seat],
    given: Mapping[int, tuple[str, Any]],
    blocks_by_seat: Mapping[int, int],
    ruleset: Ruleset,
) -> dict[int, _ParsedEntry]:
    """Each player's entry parsed (grid or typed total, blocks); one `GameError` naming every bad one."""
    problems: list[Problem] = []
    parsed: dict[int, _ParsedEntry] = {}
    for seat in players:
        name, value = given[seat.pk]
        where = f"entries.{name}"
        try:
            cards, total, own_blocks = _parse_entry_input(value, where)
            blocks = blocks_by_seat.get(seat.pk, own_blocks or 0)
            if isinstance(blocks, bool) or not isinstance(blocks, int) or blocks < 0:
                raise GameError(
                    Problem(f"{where}.blocks_marked", _("The number of blocks must be 0 or more."))
                )
            grid = parse_grid(cards, where=where, jokers=ruleset.jokers > 0) if cards is not None else None
        except RulesError as error:
            problems.extend(error.problems)
            continue
        parsed[seat.pk] = _ParsedEntry(
            engine=PlayerEntry(name=seat.name, grid=grid, total=total, blocks_marked=blocks),
            cards=format_grid(grid) if grid is not None else None,
            typed_total=total,
            blocks_marked=blocks,
        )
    if problems:
        raise GameError(problems)
    return parsed


def _score_with_engine(
    seats: Sequence[Seat],
    players: Sequence[Seat],
    parsed: Mapping[int, _ParsedEntry],
    ruleset: Ruleset,
    ender_seat: Seat | None,
) -> HoleScore:
    """The engine's scores of the hole; its errors re-raised with paths named as in the input."""
    engine_entries = [parsed[seat.pk].engine for seat in players]
    try:
        if len(players) < len(seats):
            # A playoff hole is dealt from the packs of the whole table, not of its contenders.
            grids = {e.name: e.grid for e in engine_entries if e.grid is not None}
            check_table_cards(grids, ruleset, players=len(seats))
        return score_hole(
            engine_entries,
            ruleset,
            ender=ender_seat.name if ender_seat else None,
            check_decks=len(players) == len(seats),
        )
    except RulesError as error:
        raise type(error)(_named_as_entries(error.problems)) from None


def _scored_entry(seat: Seat, parsed: _ParsedEntry, score: PlayerHoleScore) -> ScoredEntry:
    """What is stored of one player's entry: the input as read and the engine's score of it."""
    return ScoredEntry(
        seat=seat,
        cards=parsed.cards,
        typed_total=parsed.typed_total,
        blocks_marked=parsed.blocks_marked,
        grid_score=score.grid_score,
        adjustments=[
            {"kind": a.kind, "reason": a.reason, "points": a.points, "rule": a.rule}
            for a in score.adjustments
        ],
        score=score.score,
    )


def _named_as_entries(problems: Iterable[Problem]) -> list[Problem]:
    """The engine's paths ("grids.ann[1][2]") named as in our input ("entries.ann[1][2]")."""
    return [
        Problem("entries" + p.where[len("grids") :], p.message) if p.where.startswith("grids") else p
        for p in problems
    ]


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
    in place of those players' entries; unknown names are kept so that `score_entries` names them."""
    merged: dict[str, Any] = {}
    for entry in snapshot["entries"]:
        if entry["cards"] is not None:
            merged[entry["name"]] = {"cards": entry["cards"]}
        else:
            merged[entry["name"]] = {"total": entry["total"]}
            if entry["blocks_marked"]:
                merged[entry["name"]]["blocks_marked"] = entry["blocks_marked"]
    canonical = {name_key(name): name for name in merged}
    for name, value in changes.items():
        merged[canonical.get(name_key(str(name)), str(name))] = value
    return merged
