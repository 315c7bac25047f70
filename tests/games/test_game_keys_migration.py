"""Migration scoring 0012: a game's own Idempotency-Keys (its holes' POSTs, its ending) move from
their table (`IdempotencyKey`) into the one store (`IdempotentRequest`, issue 35). A key moved
replays as before (the hole it recorded, its number; another body: 422), the store's other keys
stay as they were, and the move goes back the same way."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.api.games.concurrency import body_hash
from scoring.models import Game, Hole

from .migration_helpers import migrate_to

BEFORE = [("scoring", "0011_idempotent_requests")]
AFTER = [("scoring", "0012_game_keys_in_the_one_store")]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_afterwards")]

BODY = {"entries": {"ann": 3, "bob": 4}, "ender": "ann"}
OTHER = {"user:1": ("k-user", "h-user", 201, '{"id": 7}', {"Location": "/api/v1/x/7/"})}


def _old_keys() -> tuple[int, int]:
    """A game with a hole recorded under one key and ended under another, and a club's key in the
    one store; answers the game's and the hole's ids."""
    old = migrate_to(BEFORE)
    game = services.create_game(players=["ann", "bob"], ruleset="official")  # tables unchanged by 0012
    hole = services.hole_record(game, entries=BODY["entries"], ender="ann")
    keys = old.get_model("scoring", "IdempotencyKey").objects
    keys.create(game_id=game.pk, key="k-hole", request_hash=body_hash(BODY), hole_id=hole.pk, hole_number=1)
    keys.create(game_id=game.pk, key="k-end", request_hash=body_hash({"end": {}}))
    store = old.get_model("scoring", "IdempotentRequest").objects
    for scope, (key, request_hash, status, body, headers) in OTHER.items():
        store.create(scope=scope, key=key, method="POST", route="api/v1/clubs/", request_hash=request_hash,
                     status=status, body=body, headers=headers)  # fmt: skip
    return game.pk, hole.pk


def test_a_games_keys_move_to_the_one_store_and_replay_as_before(api):
    game_id, hole_id = _old_keys()
    new = migrate_to(AFTER)
    rows = {row.key: row for row in new.get_model("scoring", "IdempotentRequest").objects.all()}
    assert set(rows) == {"k-hole", "k-end", "k-user"}
    hole, end, user = rows["k-hole"], rows["k-end"], rows["k-user"]
    assert (hole.scope, hole.game_id, hole.hole_id, hole.hole_number) == (
        f"game:{game_id}",
        game_id,
        hole_id,
        1,
    )
    assert (hole.method, hole.route, hole.status, hole.request_hash) == (
        "POST",
        "game: hole",
        201,
        body_hash(BODY),
    )
    assert (end.scope, end.game_id, end.hole_id, end.hole_number) == (f"game:{game_id}", game_id, None, None)
    assert (end.route, end.status) == ("game: end or resume", 200)
    assert (user.scope, user.game_id, user.status, user.body, user.headers) == (
        "user:1", None, 201, '{"id": 7}', {"Location": "/api/v1/x/7/"}
    )  # fmt: skip
    assert "idempotencykey" not in new.all_models["scoring"]
    # The moved keys answer as the old table's did: the hole replayed, the ending's key refused.
    token = Game.objects.get(pk=game_id).edit_token
    url = f"/api/v1/games/{token}/holes/"
    again = api.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k-hole")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["number"] == 1 and again["ETag"].startswith(f'"hole-{hole_id}-')
    assert Hole.objects.filter(game_id=game_id).count() == 1
    assert api.post(url, BODY, format="json", HTTP_IDEMPOTENCY_KEY="k-end").status_code == 422
    ended = api.post(f"/api/v1/games/{token}/end/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k-end")
    assert ended.status_code == 200 and ended.json()["status"] == "in_progress"  # replayed: not ended


def test_the_move_goes_back():
    game_id, hole_id = _old_keys()
    migrate_to(AFTER)
    old = migrate_to(BEFORE)
    keys = {row.key: row for row in old.get_model("scoring", "IdempotencyKey").objects.all()}
    assert set(keys) == {"k-hole", "k-end"}
    assert (keys["k-hole"].game_id, keys["k-hole"].hole_id, keys["k-hole"].hole_number) == (
        game_id,
        hole_id,
        1,
    )
    assert keys["k-hole"].request_hash == body_hash(BODY)
    assert (keys["k-end"].hole_id, keys["k-end"].hole_number) == (None, None)
    store = old.get_model("scoring", "IdempotentRequest").objects
    assert list(store.values_list("scope", "key", "status")) == [("user:1", "k-user", 201)]
