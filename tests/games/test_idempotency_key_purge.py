"""The games API's own idempotency keys (a hole POST's `Idempotency-Key`) are purged with the
tournament writes' keys by `manage.py purge_idempotency_keys`: those stored more than N days ago
(7 by default) go; newer ones still replay."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring import services
from scoring.models import IdempotentRequest
from scoring.services.idempotency import purge_idempotent_requests

pytestmark = pytest.mark.django_db

NAMES = ["ann", "bob", "cy"]


def _post(api, game, number: int, key: str):
    body = {"entries": {name: (number + i) % 9 for i, name in enumerate(NAMES)}, "ender": NAMES[0]}
    return api.post(f"/api/v1/games/{game.edit_token}/holes/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_it_purges_hole_keys_older_than_the_days_given(api) -> None:
    game = services.create_game(players=NAMES, ruleset={"preset": "official", "holes": 9})
    for number, key in ((1, "old"), (2, "new")):
        assert _post(api, game, number, key).status_code == 201
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - timedelta(days=8))
    call_command("purge_idempotency_keys")
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]
    replay = _post(api, game, 2, "new")  # a key of the window still replays
    assert replay.status_code == 201 and replay.headers.get("Idempotent-Replayed") == "true"
    assert game.holes.count() == 2
    call_command("purge_idempotency_keys", "--days", "0")
    assert not IdempotentRequest.objects.exists()


def test_it_answers_how_many_hole_keys_the_service_purged(api) -> None:
    game = services.create_game(players=NAMES, ruleset={"preset": "official", "holes": 9})
    assert _post(api, game, 1, "k1").status_code == 201
    assert purge_idempotent_requests(older_than=timedelta(days=7)) == 0
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(days=7, seconds=1))
    assert purge_idempotent_requests(older_than=timedelta(days=7)) == 1
    assert game.holes.count() == 1  # the holes stay: only the keys go
