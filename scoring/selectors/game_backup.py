"""Games as a backup file holds them (`manage.py export_event`): every row `scoring` stores of them.

Each game is one JSON-ready dict: its settings and link tokens (secrets: the file is too), its
seats, every hole with its entries, its history of changes (undo, redo and corrections with their
before and after), each with its id, so that the history's references (a hole's id in a snapshot,
the change an undo reverted) still hold after a restore; and its keys (`idempotent_requests`: the
Idempotency-Keys of its holes and of its ending, as the one store keeps them) without their ids,
which nothing refers to: the store is shared by every keyed write, so a restored key takes a new one.
Files written before the one store hold `idempotency_keys` instead; the restore reads both.
`scoring.services.restore_games` reads the same dicts back. Six queries, whatever the number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from golfclub.core.backup import dump_datetime
from scoring.models import Game, GameChange, Hole, HoleEntry, IdempotentRequest, Seat


def games_backup(game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The backup dict of each game in `game_ids`, by id (games not found are left out)."""
    ids = sorted(set(game_ids))
    games = list(Game.objects.filter(pk__in=ids).select_related("owner").order_by("pk"))
    seats = _grouped(Seat.objects.filter(game_id__in=ids).order_by("game_id", "seat"), "game_id", _seat_row)
    entries = _grouped(
        HoleEntry.objects.filter(hole__game_id__in=ids).order_by("hole_id", "seat__seat", "pk"),
        "hole_id",
        _entry_row,
    )
    holes = _grouped(
        Hole.objects.filter(game_id__in=ids).order_by("game_id", "is_playoff", "number"),
        "game_id",
        lambda hole: _hole_row(hole) | {"entries": entries.get(hole.pk, [])},
    )
    changes = _grouped(
        GameChange.objects.filter(game_id__in=ids).order_by("game_id", "pk"), "game_id", _change_row
    )
    keys = _grouped(
        IdempotentRequest.objects.filter(game_id__in=ids).order_by("game_id", "pk"), "game_id", _key_row
    )
    return {
        game.pk: _game_row(game)
        | {
            "seats": seats.get(game.pk, []),
            "holes": holes.get(game.pk, []),
            "changes": changes.get(game.pk, []),
            "idempotent_requests": keys.get(game.pk, []),
        }
        for game in games
    }


Row = dict[str, Any]


def _grouped(rows: Iterable[Any], by: str, as_row: Callable[[Any], Row]) -> dict[int, list[Row]]:
    """`rows` turned into backup dicts and grouped by their attribute `by` (a game's or hole's id),
    in the order they come."""
    grouped: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[getattr(row, by)].append(as_row(row))
    return grouped


def _game_row(game: Game) -> Row:
    return {
        "id": game.pk,
        "title": game.title,
        "owner": game.owner.get_username() if game.owner else None,
        "edit_token": game.edit_token,
        "view_token": game.view_token,
        "start_key": game.start_key,
        "ruleset": game.ruleset,
        "ruleset_frozen_at": dump_datetime(game.ruleset_frozen_at),
        "first_dealer": game.first_dealer,
        "version": game.version,
        "status": game.status,
        "winners": game.winners,
        "managed_by": game.managed_by,
        "managed_label": game.managed_label,
        "created_at": dump_datetime(game.created_at),
        "updated_at": dump_datetime(game.updated_at),
    }


def _seat_row(seat: Seat) -> Row:
    return {
        "id": seat.pk,
        "seat": seat.seat,
        "name": seat.name,
        # A seat's roster entry is re-created (or matched) on restore: its id is not kept.
        "player": seat.player_id is not None,
        "total": seat.total,
        "holes_played": seat.holes_played,
        "playoff_total": seat.playoff_total,
    }


def _hole_row(hole: Hole) -> Row:
    """A hole without its entries (the caller adds them)."""
    return {
        "id": hole.pk,
        "number": hole.number,
        "playoff": hole.is_playoff,
        "dealer_seat": hole.dealer_seat,
        "ender": hole.ender_id,
        "version": hole.version,
        "created_by": hole.created_by,
        "created_at": dump_datetime(hole.created_at),
        "updated_at": dump_datetime(hole.updated_at),
    }


def _entry_row(entry: HoleEntry) -> Row:
    return {
        "id": entry.pk,
        "seat": entry.seat_id,
        "cards": entry.cards,
        "typed_total": entry.typed_total,
        "blocks_marked": entry.blocks_marked,
        "grid_score": entry.grid_score,
        "adjustments": entry.adjustments,
        "score": entry.score,
    }


def _change_row(change: GameChange) -> Row:
    return {
        "id": change.pk,
        "action": change.action,
        "hole_number": change.hole_number,
        "playoff": change.is_playoff,
        "actor": change.actor,
        "reason": change.reason,
        "created_at": dump_datetime(change.created_at),
        "before": change.before,
        "after": change.after,
        "undoes": change.undoes_id,
    }


def _key_row(key: IdempotentRequest) -> Row:
    return {
        "key": key.key,
        "route": key.route,
        "request_hash": key.request_hash,
        "status": key.status,
        "hole": key.hole_id,
        "hole_number": key.hole_number,
        "created_at": dump_datetime(key.created_at),
    }
