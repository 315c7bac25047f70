"""Games put back from a backup file (`manage.py import_event`): the rows `games_backup` wrote.

Every id, token, version and timestamp is kept as the file holds it: the phones' table links (the
tokens) keep working after a restore, and the history still points at the right holes. The
roster entries of the seats are made anew (matched by name in the owner's roster), and so are the
ids of the game's keys, which nothing refers to: they go to the one store of keyed writes
(`IdempotentRequest`, shared with the clubs' and tournaments' keys), read from the file's
`idempotent_requests`, or from `idempotency_keys` in a file written before that store held them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from golfclub.core.backup import (
    BackupError,
    Record,
    advance_id_sequences,
    insert_rows,
    refuse_taken,
    user_for_username,
)
from golfclub.core.names import name_key
from scoring.idempotent_request_model import game_scope
from scoring.models import (
    ChangeAction,
    Game,
    GameChange,
    GameStatus,
    Hole,
    HoleEntry,
    IdempotentRequest,
    Seat,
)
from scoring.services._players import roster_players
from scoring.services.game_file_checks import GameInFile, check_holes, rebuild_derived
from scoring.services.idempotency import GAME_ENDING, GAME_HOLE

_MODELS = (Game, Seat, Hole, HoleEntry, GameChange)


class _Rows:
    """The rows read from the file, by model, in the order they are inserted."""

    def __init__(self) -> None:
        self.games: list[Game] = []
        self.seats: list[Seat] = []
        self.holes: list[Hole] = []
        self.entries: list[HoleEntry] = []
        self.changes: list[GameChange] = []
        self.keys: list[IdempotentRequest] = []
        self.where: dict[int, str] = {}  # a game's id -> where it is in the file
        self.found: list[GameInFile] = []  # each game's rows, for the consistency checks


def restore_games(records: Sequence[Record], notes: list[str] | None = None) -> dict[int, Game]:
    """Insert the games of `records` (each a `games_backup` dict) with every row they hold, by id.

    One transaction: a `BackupError` naming the place in the file (a missing or wrong value, an id
    or a link token the database already holds, holes that no game can hold: `check_holes`)
    writes nothing. The caller's own checks and rows join the same transaction when it opened one.
    The seats' totals and the games' status and winners are rebuilt from the entries
    (`rebuild_derived`); where the file said otherwise, a note saying so is added to `notes`.
    """
    rows = _Rows()
    for record in records:
        _read_game(record, rows)
    for found in rows.found:
        check_holes(found)
        note = rebuild_derived(found)
        if note is not None and notes is not None:
            notes.append(note)
    with transaction.atomic():
        refuse_taken(Game, "pk", [g.pk for g in rows.games], _("games"))
        tokens = [t for g in rows.games for t in (g.edit_token, g.view_token)]
        refuse_taken(Game, "edit_token", tokens, _("game link tokens"))
        refuse_taken(Game, "view_token", tokens, _("game link tokens"))
        refuse_taken(Game, "start_key", [g.start_key for g in rows.games], _("game start keys"))
        for model, found in (
            (Seat, rows.seats),
            (Hole, rows.holes),
            (HoleEntry, rows.entries),
            (GameChange, rows.changes),
        ):
            refuse_taken(model, "pk", [row.pk for row in found], str(model._meta.verbose_name_plural))
        _link_roster_players(rows)
        insert_rows(Game, rows.games)
        insert_rows(Seat, rows.seats)
        insert_rows(Hole, rows.holes)
        insert_rows(HoleEntry, rows.entries)
        insert_rows(GameChange, rows.changes)
        insert_rows(IdempotentRequest, rows.keys)  # new ids (see the module's docstring)
        advance_id_sequences(*_MODELS)
    return {game.pk: game for game in rows.games}


def _read_game(record: Record, rows: _Rows) -> None:
    """The rows of one game's record, each value checked; references kept inside the game."""
    game = _game_row(record)
    rows.games.append(game)
    rows.where[game.pk] = record.where
    found = GameInFile(game, record.where)
    rows.found.append(found)
    seat_ids = _read_seats(record, game, rows, found)
    _read_holes(record, game, seat_ids, rows, found)
    _read_changes(record, game, rows)
    _read_keys(record, game, rows)


def _game_row(record: Record) -> Game:
    owner_name = record.text("owner", null=True)
    return Game(
        id=record.number("id", low=1),
        title=record.text("title"),
        owner=user_for_username(owner_name, f"{record.where}.owner") if owner_name is not None else None,
        edit_token=record.text("edit_token", blank=False),
        view_token=record.text("view_token", blank=False),
        start_key=record.text("start_key", null=True),
        ruleset=_ruleset(record),
        ruleset_frozen_at=record.moment("ruleset_frozen_at", null=True),
        first_dealer=record.number("first_dealer"),
        version=record.number("version", low=1),
        status=record.choice("status", GameStatus.values),
        winners=record.array("winners"),
        managed_by=record.text("managed_by"),
        managed_label=record.text("managed_label"),
        created_at=record.moment("created_at"),
        updated_at=record.moment("updated_at"),
    )


def _read_seats(record: Record, game: Game, rows: _Rows, found: GameInFile) -> set[int]:
    """The game's seats; answers their ids (the holes' entries may name only those)."""
    seat_ids: set[int] = set()
    for item in record.records("seats"):
        seat = Seat(
            id=item.number("id", low=1),
            game=game,
            seat=item.number("seat"),
            name=item.text("name", blank=False),
            total=item.number("total", low=-(2**31)),
            holes_played=item.number("holes_played"),
            playoff_total=item.number("playoff_total", low=-(2**31)),
        )
        seat.name_key = name_key(seat.name)
        seat._roster = item.flag("player")  # type: ignore[attr-defined]  # linked in _link_roster_players
        seat_ids.add(seat.pk)
        rows.seats.append(seat)
        found.seats.append(seat)
    return seat_ids


def _read_holes(record: Record, game: Game, seat_ids: set[int], rows: _Rows, found: GameInFile) -> None:
    """The game's holes and their entries."""
    for item in record.records("holes"):
        hole = Hole(
            id=item.number("id", low=1),
            game=game,
            number=item.number("number", low=1),
            is_playoff=item.flag("playoff"),
            dealer_seat=item.number("dealer_seat"),
            ender_id=_seat_of(item, "ender", seat_ids, null=True),
            version=item.number("version", low=1),
            created_by=item.text("created_by"),
            created_at=item.moment("created_at"),
            updated_at=item.moment("updated_at"),
        )
        rows.holes.append(hole)
        found.holes.append((hole, item.where))
        for entry in item.records("entries"):
            rows.entries.append(
                HoleEntry(
                    id=entry.number("id", low=1),
                    hole=hole,
                    seat_id=_seat_of(entry, "seat", seat_ids),
                    cards=entry.value("cards"),
                    typed_total=entry.number("typed_total", null=True, low=-(2**31)),
                    blocks_marked=entry.number("blocks_marked"),
                    grid_score=entry.number("grid_score", low=-(2**31)),
                    adjustments=entry.array("adjustments"),
                    score=entry.number("score", low=-(2**31)),
                )
            )
            found.entries.setdefault(hole.pk, []).append((rows.entries[-1], entry.where))


def _read_changes(record: Record, game: Game, rows: _Rows) -> None:
    """The game's history of changes; an undo must name a change of the same history."""
    changes = record.records("changes")
    change_ids = {item.number("id", low=1) for item in changes}
    for item in changes:
        undoes = item.number("undoes", null=True, low=1)
        if undoes is not None and undoes not in change_ids:
            raise BackupError(f"{item.where}.undoes", _("this change is not in the game's history."))
        rows.changes.append(
            GameChange(
                id=item.number("id", low=1),
                game=game,
                action=item.choice("action", ChangeAction.values),
                hole_number=item.number("hole_number", null=True),
                is_playoff=item.flag("playoff"),
                actor=item.text("actor"),
                reason=item.text("reason"),
                created_at=item.moment("created_at"),
                before=item.value("before"),
                after=item.value("after"),
                undoes_id=undoes,
            )
        )


def _read_keys(record: Record, game: Game, rows: _Rows) -> None:
    """The game's Idempotency-Keys (a hole's, the game's ending's), as the one store keeps them.

    A file written before that store (`idempotency_keys`, the keys' own table) says less: a key
    that names a hole (or its number) recorded it, any other ended or resumed the game; their ids
    are checked and left behind, as the new files' (`idempotent_requests`) are not written.
    """
    old = not record.has("idempotent_requests")
    for item in record.records("idempotency_keys" if old else "idempotent_requests"):
        if old:
            item.number("id", low=1)
        hole_id = item.number("hole", null=True, low=1)  # the id of a hole deleted (or undone) is kept
        hole_number = item.number("hole_number", null=True)
        recorded = hole_id is not None or hole_number is not None
        rows.keys.append(
            IdempotentRequest(
                scope=game_scope(game.pk),
                key=item.text("key", blank=False),
                method="POST",
                route=(GAME_HOLE if recorded else GAME_ENDING) if old else item.text("route", blank=False),
                request_hash=item.text("request_hash"),
                status=(201 if recorded else 200) if old else item.number("status", null=True),
                game=game,
                hole_id=hole_id,
                hole_number=hole_number,
                created_at=item.moment("created_at"),
            )
        )


def _ruleset(record: Record) -> dict[str, Any]:
    """The game's resolved ruleset (an object; whether the engine reads it is checked on insert)."""
    ruleset = record.value("ruleset")
    if not isinstance(ruleset, dict):
        raise BackupError(f"{record.where}.ruleset", _("an object is expected here."))
    return ruleset


def _seat_of(item: Record, key: str, seat_ids: set[int], *, null: bool = False) -> Any:
    """A seat id that must be one of the game's own seats."""
    seat_id = item.number(key, null=null, low=1)
    if seat_id is not None and seat_id not in seat_ids:
        raise BackupError(f"{item.where}.{key}", _("this seat is not one of the game's seats."))
    return seat_id


def _link_roster_players(rows: _Rows) -> None:
    """Each seat that had a roster entry gets one again: the owner's, by name, or a table-only one."""
    by_game: dict[int, list[Seat]] = {}
    for seat in rows.seats:
        if seat._roster:  # type: ignore[attr-defined]
            by_game.setdefault(seat.game.pk, []).append(seat)
    for game in rows.games:
        seats = by_game.get(game.pk, [])
        if seats:
            players = roster_players(game.owner, [seat.name for seat in seats])
            for seat in seats:
                seat.player = players[seat.name]
