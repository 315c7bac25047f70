"""Issue 31 item 3, with real concurrent requests on PostgreSQL: copies of one create sent at the same
moment with one Idempotency-Key (each in its own thread, on its own connection, released together by
a barrier) make exactly one object; the database is checked afterwards, not only the answers.
Skipped (with the reason) on SQLite."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from scoring import services
from scoring.models import Game, IdempotentRequest, Seat

from .test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once

pytestmark = NEEDS_POSTGRES_ROW_LOCKS

COPIES = 8


def _copies(url: str, body: dict[str, Any], key: str) -> list[Callable[[], Any]]:
    """`COPIES` POSTs of `body` with one key, each from its own client (its own connection)."""

    def post() -> Any:
        return APIClient().post(
            url, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
        )

    return [post for _ in range(COPIES)]


def _answers(results: list[Any]) -> list[tuple[int, bytes]]:
    return [
        (r.status_code, r.content) if hasattr(r, "status_code") else (0, repr(r).encode()) for r in results
    ]


def test_it_makes_exactly_one_game_for_copies_of_one_create_sent_at_once() -> None:
    for trial in range(3):
        before = Game.objects.count()
        body = {"players": ["ann", "bob", "cy"], "ruleset": "official", "title": f"Trial {trial}"}
        key = f"create-{trial}-0123456789abcdef"  # anonymous: 16+ characters (kept by address)
        results = at_once(*_copies("/api/v1/games/", body, key))
        answers = _answers(results)
        assert {status for status, _ in answers} == {201}, answers
        assert len({content for _, content in answers}) == 1  # one game, one edit token, for all
        assert sum(r.has_header("Idempotent-Replayed") for r in results) == COPIES - 1
        assert Game.objects.count() == before + 1
        game = Game.objects.get(title=f"Trial {trial}")
        assert json.loads(answers[0][1])["edit_token"] == game.edit_token
        assert list(game.seats.order_by("seat").values_list("name", flat=True)) == ["ann", "bob", "cy"]
        assert IdempotentRequest.objects.filter(key=key).count() == 1


def test_it_adds_exactly_one_player_for_copies_of_one_add_sent_at_once() -> None:
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    version = game.version
    results = at_once(*_copies(f"/api/v1/games/{game.edit_token}/players/", {"name": "cy"}, "add-cy"))
    answers = _answers(results)
    assert {status for status, _ in answers} == {201}, answers
    assert len({content for _, content in answers}) == 1
    assert list(Seat.objects.filter(game=game).order_by("seat").values_list("name", flat=True)) == [
        "ann",
        "bob",
        "cy",
    ]
    game.refresh_from_db()
    assert game.version == version + 1  # one change: the one player added


def test_it_creates_one_game_per_key_when_different_keys_arrive_at_once() -> None:
    """The control: without a shared key, every copy is a new game (the key is what dedupes)."""
    body = {"players": ["ann", "bob"], "ruleset": "official", "title": "Keys apart"}
    calls = [c for i in range(4) for c in _copies("/api/v1/games/", body, f"apart-{i}-0123456789abcdef")[:1]]
    results = at_once(*calls)
    assert {status for status, _ in _answers(results)} == {201}
    assert Game.objects.filter(title="Keys apart").count() == 4
