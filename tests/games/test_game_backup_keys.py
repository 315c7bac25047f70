"""A game's backup carries its Idempotency-Keys as the one store keeps them (`idempotent_requests`),
and the restore reads them back, and still reads a file written before that store
(`idempotency_keys`, with the old table's ids): either way a retry after the restore is answered
as the first request (the hole replayed, another body 422, the ending not done twice)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from golfclub.core.backup import Record
from scoring import selectors, services
from scoring.models import Game, Hole, IdempotentRequest

pytestmark = pytest.mark.django_db

BODY = {"entries": {"ann": 3, "bob": 4}, "ender": "ann"}


def _played_and_ended(api) -> tuple[Game, dict[str, Any]]:
    """A game with a hole recorded under "k-hole" and ended under "k-end"; its backup dict."""
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    holes = f"/api/v1/games/{game.edit_token}/holes/"
    assert api.post(holes, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k-hole").status_code == 201
    ended = api.post(f"/api/v1/games/{game.edit_token}/end/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k-end")
    assert ended.status_code == 200
    backup = json.loads(json.dumps(selectors.games_backup([game.pk])[game.pk]))  # as a file holds it
    return game, backup


def _restored(game: Game, backup: dict[str, Any]) -> None:
    """Delete the game (its keys go with it), then restore it from `backup`."""
    services.delete_games([game.pk])
    assert not IdempotentRequest.objects.filter(game_id=game.pk).exists()
    services.restore_games([Record(backup, "games[0]")])


def _answers_as_before(api, game: Game, hole_id: int) -> None:
    holes = f"/api/v1/games/{game.edit_token}/holes/"
    again = api.post(holes, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k-hole")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again["ETag"].startswith(f'"hole-{hole_id}-') and Hole.objects.filter(game=game).count() == 1
    assert api.post(holes, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k-end").status_code == 422
    keys = IdempotentRequest.objects.filter(game=game).order_by("key")
    assert [(k.scope, k.key, k.route, k.status, k.hole_id, k.hole_number) for k in keys] == [
        (f"game:{game.pk}", "k-end", "game: end or resume", 200, None, None),
        (f"game:{game.pk}", "k-hole", "game: hole", 201, hole_id, 1),
    ]


def test_a_backup_carries_the_games_keys_in_the_one_stores_form_and_they_replay_after_a_restore(api):
    game, backup = _played_and_ended(api)
    hole_id = Hole.objects.get(game=game).pk
    assert "idempotency_keys" not in backup
    assert [(k["key"], k["route"], k["hole"], k["hole_number"]) for k in backup["idempotent_requests"]] == [
        ("k-hole", "game: hole", hole_id, 1),
        ("k-end", "game: end or resume", None, None),
    ]
    assert all("id" not in key for key in backup["idempotent_requests"])  # a new one at the restore
    _restored(game, backup)
    _answers_as_before(api, game, hole_id)
    assert selectors.games_backup([game.pk])[game.pk]["idempotent_requests"] == backup["idempotent_requests"]


def test_a_backup_written_before_the_one_store_still_restores_its_keys(api):
    game, backup = _played_and_ended(api)
    hole_id = Hole.objects.get(game=game).pk
    # The file as the old table wrote it: its own ids, no route nor status.
    backup["idempotency_keys"] = [
        {"id": 90 + i, "key": k["key"], "request_hash": k["request_hash"], "hole": k["hole"],
         "hole_number": k["hole_number"], "created_at": k["created_at"]}
        for i, k in enumerate(backup.pop("idempotent_requests"))
    ]  # fmt: skip
    _restored(game, backup)
    _answers_as_before(api, game, hole_id)
