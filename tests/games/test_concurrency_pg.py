"""Real concurrency on PostgreSQL: two requests at the same moment, each on its own connection.

Run with DATABASE_URL=postgres://postgres@127.0.0.1:5432/golfclub_games. On SQLite (one writer
at a time, no row locks) these tests are skipped with the reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from scoring import services
from scoring.models import GameChange, Hole, IdempotentRequest

# The races here and in test_races_pg need real row locks and connections: PostgreSQL only.
NEEDS_POSTGRES_ROW_LOCKS = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL row locks: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/golfclub_games",
    ),
]
pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together by a barrier; answer their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_it_lets_exactly_one_of_two_updates_with_the_same_version_win():
    def put(url: str, ann: int, bob: int, tag: str) -> Callable[[], Any]:
        return lambda: APIClient().put(
            url, {"entries": {"ann": ann, "bob": bob}}, format="json", HTTP_IF_MATCH=tag
        )

    for _ in range(3):  # several rounds: the outcome must never depend on timing
        game = services.create_game(players=["ann", "bob"], ruleset="official")
        hole = services.hole_record(game, entries={"ann": 3, "bob": 4}, ender=None)
        url = f"/api/v1/games/{game.edit_token}/holes/1/"
        tag = f'"hole-{hole.pk}-v1"'
        first, second = at_once(put(url, 10, 11, tag), put(url, 20, 21, tag))
        assert sorted([first.status_code, second.status_code]) == [200, 412], (first.content, second.content)
        winner = first if first.status_code == 200 else second
        hole = Hole.objects.get(game=game, number=1)
        stored = list(hole.entries.order_by("seat__seat").values_list("score", flat=True))
        assert stored == [e["score"] for e in winner.json()["entries"]]  # nothing lost, nothing mixed
        assert hole.version == 2
        assert GameChange.objects.filter(game=game, action="update").count() == 1
        game.refresh_from_db()
        assert sorted(game.seats.values_list("total", flat=True)) == sorted(stored)


def test_it_creates_one_hole_for_two_simultaneous_posts_with_the_same_idempotency_key():
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    url = f"/api/v1/games/{game.edit_token}/holes/"

    def post() -> Any:
        return APIClient().post(
            url, {"entries": {"ann": 3, "bob": 4}}, format="json", HTTP_IDEMPOTENCY_KEY="same"
        )

    first, second = at_once(post, post)
    assert first.status_code == second.status_code == 201, (first.content, second.content)
    assert first.json() == second.json()
    assert Hole.objects.filter(game=game).count() == 1
    assert IdempotentRequest.objects.filter(game=game).count() == 1


def test_it_numbers_two_simultaneous_new_holes_one_and_two():
    game = services.create_game(players=["ann", "bob"], ruleset="official")

    def record(ann: int) -> Callable[[], Any]:
        return lambda: services.hole_record(game, entries={"ann": ann, "bob": 4}, ender=None)

    results = at_once(record(1), record(2))
    assert all(isinstance(r, Hole) for r in results), results
    assert sorted(r.number for r in results) == [1, 2]
    game.refresh_from_db()
    assert sorted(game.seats.values_list("total", flat=True)) == [3, 8]


def test_it_keeps_totals_right_when_two_different_holes_change_at_once():
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    services.hole_record(game, entries={"ann": 1, "bob": 1}, ender=None)
    services.hole_record(game, entries={"ann": 1, "bob": 1}, ender=None)

    def update(number: int, points: int) -> Callable[[], Any]:
        return lambda: services.hole_update(
            game, number, expected_version=1, entries={"ann": points, "bob": points}, ender=None
        )

    results = at_once(update(1, 10), update(2, 20))
    assert all(isinstance(r, Hole) for r in results), results
    assert sorted(game.seats.values_list("total", flat=True)) == [30, 30]
    game.refresh_from_db()
    assert game.version == 5  # created, two holes, two edits: one bump each, none lost


def test_it_numbers_and_totals_many_simultaneous_api_posts_on_one_game():
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": None})
    url = f"/api/v1/games/{game.edit_token}/holes/"

    def post(points: int) -> Callable[[], Any]:
        body = {"entries": {"ann": points, "bob": 1}}
        return lambda: APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"key-{points}")

    results = at_once(*(post(points) for points in range(1, 7)))
    assert [r.status_code for r in results] == [201] * 6, [r.content for r in results]
    assert sorted(r.json()["number"] for r in results) == [1, 2, 3, 4, 5, 6]
    seats = dict(game.seats.values_list("name", "total"))
    assert seats == {"ann": 21, "bob": 6}
    assert set(game.seats.values_list("holes_played", flat=True)) == {6}
    game.refresh_from_db()
    assert game.version == 7 and game.is_frozen  # created, then one bump per hole: none lost
    # Each key stored with the hole it recorded (the API answers a retry from it).
    stored = IdempotentRequest.objects.filter(game=game, hole__isnull=False)
    assert sorted(stored.values_list("hole_number", flat=True)) == [1, 2, 3, 4, 5, 6]
