"""Every hand-written SQL statement of the project, each behind a function named for what it does.

Recording a hole is the hot path of a live game: built by the ORM, its few statements cost about
three times the Python time of sending them (measured with bench/live_games.py), so they are
written out here, on top of `scoring.db_batch` (one round trip for several statements, rows read
into model instances, INSERTs prepared as the ORM prepares them). The services call these
functions and never touch a cursor, a connection or the ORM's internals themselves; everything
else in the project uses the ORM.

Statements whose results nobody reads take a `Writes` batch and are queued there; the caller sends
the batch (`Writes.send`) when it needs the database up to date.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db.models import Model
from django.utils import timezone

from scoring import db_batch
from scoring.db_batch import Writes, prepared_statement_gone
from scoring.models import Game, GameChange, Hole, HoleEntry, IdempotentRequest, Seat

__all__ = [
    "LockedGame",
    "Writes",
    "add_hole_scores_to_seat_totals",
    "insert_game_change",
    "insert_hole",
    "insert_hole_entries",
    "insert_hole_key",
    "lock_game_for_hole",
    "prepared_statement_gone",
    "update_game_after_hole",
]

_quote = db_batch.quote
_GAME = _quote(Game._meta.db_table)
_SEAT = _quote(Seat._meta.db_table)
_KEY = _quote(IdempotentRequest._meta.db_table)
#: The `route` of a hole POST's key in the one store (`scoring.services.idempotency.GAME_HOLE`).
GAME_HOLE_ROUTE = "game: hole"
_GAME_LOOKUPS = frozenset({"id", "edit_token"})


@dataclass(frozen=True)
class LockedGame:
    """What `lock_game_for_hole` read once the game row was locked."""

    game: Game
    seen_key_id: int | None  # the IdempotentRequest row of this game's key given, if any
    seats: list[Seat]  # in seat order, read after the lock was taken
    next_hole_id: int | None  # taken from the hole id sequence (PostgreSQL), else None


def lock_game_for_hole(game_lookup: Mapping[str, Any], idempotency_key: str | None) -> LockedGame | None:
    """Lock the game found by `game_lookup` ({"id": ...} or {"edit_token": ...}) until the transaction
    ends, and read the id of `idempotency_key` if it was used on this game before, the game's seats
    in seat order, and (on PostgreSQL) the next hole's id. None if no game matches.

    Two statements in one round trip where the driver allows it: the seats are read by the second,
    after the lock is held, so they are current even when this waited for another writer.
    """
    ((name, value),) = game_lookup.items()
    if name not in _GAME_LOOKUPS:
        raise ValueError(f"A game is looked up by id or edit token, not {name!r}.")
    column = _quote(Game._meta.get_field(name).column)
    # A game's keys have the scope "game:<id>" (`scoring.idempotent_request_model.game_scope`): the
    # unique (scope, key) index finds it.
    seen = f"(SELECT k.id FROM {_KEY} k WHERE k.scope = 'game:' || g.id AND k.{_quote('key')} = %s)"
    found = seen if idempotency_key else "NULL"
    # Columns named, not `*`: a prepared statement's result must keep its shape when a migration
    # adds a column while this code still runs (PostgreSQL refuses to run it otherwise).
    lock = f"SELECT {_columns(Game, 'g')}, {found} AS seen_key FROM {_GAME} g WHERE g.{column} = %s"
    db = db_batch.current()
    if db.features.has_select_for_update:
        lock += " FOR UPDATE"
    game_id = f"(SELECT id FROM {_GAME} WHERE {column} = %s)"
    seats = f"SELECT {_columns(Seat, 's')} FROM {_SEAT} s WHERE s.game_id = {game_id} ORDER BY s.seat"
    lock_params = [idempotency_key, value] if idempotency_key else [value]
    hole_id: int | None = None
    with db.cursor() as cursor:
        if db_batch.sends_at_once(db):
            # A third statement takes the next hole id, so that the hole's INSERT can go out
            # with the other writes (unused if nothing is recorded, as after any rollback).
            next_hole = f"SELECT nextval(pg_get_serial_sequence('{Hole._meta.db_table}', 'id'))"
            db_batch.send_batch(db, cursor, [(lock, lock_params), (seats, [value]), (next_hole, [])])
            games = db_batch.instances(Game, cursor)
            cursor.nextset()
            table = db_batch.instances(Seat, cursor)
            cursor.nextset()
            (hole_id,) = cursor.fetchone()
        else:
            cursor.execute(lock, lock_params)
            games = db_batch.instances(Game, cursor)
            cursor.execute(seats, [value])
            table = db_batch.instances(Seat, cursor)
    if not games:
        return None
    return LockedGame(game=games[0], seen_key_id=games[0].seen_key, seats=table, next_hole_id=hole_id)


@cache
def _columns(model: type[Model], alias: str) -> str:
    """Every concrete column of `model`, qualified by `alias`, as a SELECT list."""
    return ", ".join(f"{alias}.{_quote(field.column)}" for field in model._meta.concrete_fields)


def insert_hole(hole: Hole, *, writes: Writes) -> None:
    """INSERT a new hole: queued in `writes` when it already has its id, else run now to get one."""
    db_batch.insert([hole], returning_pk=hole.pk is None, writes=writes)


def insert_hole_entries(entries: Sequence[HoleEntry], *, writes: Writes | None = None) -> None:
    """INSERT a hole's new entries in one statement (queued in `writes` if given)."""
    db_batch.insert(entries, writes=writes)


def insert_game_change(change: GameChange, *, writes: Writes | None = None) -> None:
    """INSERT a history row: queued in `writes` if given, else run now and `change` gets its id."""
    db_batch.insert([change], returning_pk=writes is None, writes=writes)


def insert_hole_key(
    game_id: int,
    scope: str,
    key: str,
    request_hash: str,
    hole_id: int | None,
    hole_number: int,
    *,
    writes: Writes,
) -> None:
    """Queue the INSERT of the Idempotency-Key that recorded a hole, in the one store of keys
    (unique per scope, the game's: a second use fails on send). Written out, not built from a
    model instance: the hot path's one row whose other columns are constants."""
    writes.add(_INSERT_HOLE_KEY, [scope, key, request_hash, timezone.now(), game_id, hole_id, hole_number])


_INSERT_HOLE_KEY = (
    f"INSERT INTO {_KEY} (scope, {_quote('key')}, method, route, request_hash, about, status, body, "
    "headers, created_at, game_id, hole_id, hole_number) "
    f"VALUES (%s, %s, 'POST', '{GAME_HOLE_ROUTE}', %s, '', 201, '', '{{}}', %s, %s, %s, %s)"
)


def add_hole_scores_to_seat_totals(game_id: int, scores: Mapping[int, int], *, writes: Writes) -> None:
    """Queue one UPDATE adding each seat's score (by seat id) to its stored total, and one more
    hole played to every seat of the game."""
    # The cast gives a prepared statement's parameter its type (a CASE of bare parameters is text).
    whens = " ".join("WHEN %s THEN CAST(%s AS integer)" for _ in scores)
    writes.add(
        f"UPDATE {_SEAT} SET total = total + CASE id {whens} ELSE 0 END, holes_played = holes_played + 1 "
        "WHERE game_id = %s",
        [*(value for pair in scores.items() for value in pair), game_id],
    )


def update_game_after_hole(game_id: int, changes: Mapping[str, Any], *, writes: Writes) -> None:
    """Queue one UPDATE of the game row: its version one up and the fields `changes` names set
    (values prepared by each model field, as `save()` would)."""
    fields = [Game._meta.get_field(name) for name in changes]
    db = db_batch.current()
    writes.add(
        f"UPDATE {_GAME} SET version = version + 1, "
        + ", ".join(f"{_quote(field.column)} = %s" for field in fields)
        + " WHERE id = %s",
        [*(field.get_db_prep_save(changes[field.name], db) for field in fields), game_id],
    )
