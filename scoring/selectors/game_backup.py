"""Games as a backup file holds them (`manage.py export_event`): every row `scoring` stores of them.

Each game is one JSON-ready dict: its settings and link tokens (secrets: the file is too), its
seats, every hole with its entries, its history of changes (undo, redo and corrections with their
before and after) and its Idempotency-Keys, each with its id, so that the history's references
(a hole's id in a snapshot, the change an undo reverted) still hold after a restore.
`scoring.services.restore_games` reads the same dicts back. Six queries, whatever the number of games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from golfclub.core.backup import dump_datetime
from scoring.models import Game, GameChange, Hole, HoleEntry, IdempotencyKey, Seat


def games_backup(game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The backup dict of each game in `game_ids`, by id (games not found are left out)."""
    ids = sorted(set(game_ids))
    games = list(Game.objects.filter(pk__in=ids).select_related("owner").order_by("pk"))
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).order_by("game_id", "seat"):
        seats[seat.game_id].append(
            {
                "id": seat.pk,
                "seat": seat.seat,
                "name": seat.name,
                # A seat's roster entry is re-created (or matched) on restore: its id is not kept.
                "player": seat.player_id is not None,
                "total": seat.total,
                "holes_played": seat.holes_played,
                "playoff_total": seat.playoff_total,
            }
        )
    entries: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for entry in HoleEntry.objects.filter(hole__game_id__in=ids).order_by("hole_id", "seat__seat", "pk"):
        entries[entry.hole_id].append(
            {
                "id": entry.pk,
                "seat": entry.seat_id,
                "cards": entry.cards,
                "typed_total": entry.typed_total,
                "blocks_marked": entry.blocks_marked,
                "grid_score": entry.grid_score,
                "adjustments": entry.adjustments,
                "score": entry.score,
            }
        )
    holes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for hole in Hole.objects.filter(game_id__in=ids).order_by("game_id", "is_playoff", "number"):
        holes[hole.game_id].append(
            {
                "id": hole.pk,
                "number": hole.number,
                "playoff": hole.is_playoff,
                "dealer_seat": hole.dealer_seat,
                "ender": hole.ender_id,
                "version": hole.version,
                "created_by": hole.created_by,
                "created_at": dump_datetime(hole.created_at),
                "updated_at": dump_datetime(hole.updated_at),
                "entries": entries.get(hole.pk, []),
            }
        )
    changes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for change in GameChange.objects.filter(game_id__in=ids).order_by("game_id", "pk"):
        changes[change.game_id].append(
            {
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
        )
    keys: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for key in IdempotencyKey.objects.filter(game_id__in=ids).order_by("game_id", "pk"):
        keys[key.game_id].append(
            {
                "id": key.pk,
                "key": key.key,
                "request_hash": key.request_hash,
                "hole": key.hole_id,
                "hole_number": key.hole_number,
                "created_at": dump_datetime(key.created_at),
            }
        )
    return {
        game.pk: {
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
            "seats": seats.get(game.pk, []),
            "holes": holes.get(game.pk, []),
            "changes": changes.get(game.pk, []),
            "idempotency_keys": keys.get(game.pk, []),
        }
        for game in games
    }
