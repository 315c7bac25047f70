"""What a managed game's manager writes with each change (`GameManager.after_change`,
`scoring.game_managers`): the services call it for every hole change (record, correction,
deletion, undo, redo) and every status change, inside the change's transaction; a manager that
fails rolls the whole change back, so nothing the manager keeps can be left behind a saved hole
(issue 31)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from scoring import services
from scoring.game_managers import GameManager, ManagedChange, register_game_manager, unregister_game_manager
from scoring.models import Game
from tests.games.conftest import typed

MANAGER = "tests.follower"


@pytest.fixture
def followed() -> Iterator[list[tuple[str, int | None, bool]]]:
    """Every change the follower saw, as (kind, hole number, inside a transaction)."""
    seen: list[tuple[str, int | None, bool]] = []

    class Follower(GameManager):
        def after_change(self, change: ManagedChange) -> None:
            seen.append((change.kind, change.hole_number, transaction.get_connection().in_atomic_block))

    register_game_manager(MANAGER, Follower())
    yield seen
    unregister_game_manager(MANAGER)


def _managed(make_game: Any) -> Game:
    return make_game(["ann", "bob"], managed_by=MANAGER, managed_label="a test table", ruleset={"holes": 2})


def test_every_change_reaches_the_follower_inside_its_transaction(make_game, followed) -> None:
    game = _managed(make_game)
    typed(game, 3, 4)
    typed(game, 5, 6)  # the last hole: the game finishes
    hole = game.holes.get(number=2)
    services.hole_update(game, 2, expected_version=hole.version, entries={"ann": 1, "bob": 2}, ender=None)
    services.hole_delete(game, 2, expected_version=hole.version + 1)
    services.undo_last_change(game)  # the deletion undone: hole 2 back
    services.redo_change(game)  # and deleted again
    kinds = [(kind, number) for kind, number, _inside in followed]
    assert kinds == [
        ("recorded", 1),
        ("recorded", 2),
        ("finished", None),
        ("corrected", 2),
        ("deleted", 2),
        ("reopened", None),
        ("recorded", 2),
        ("finished", None),
        ("deleted", 2),
        ("reopened", None),
    ]
    assert all(inside for _kind, _number, inside in followed)


def test_a_followers_failure_rolls_the_change_back(make_game) -> None:
    game = _managed(make_game)
    typed(game, 3, 4)

    class Broken(GameManager):
        def after_change(self, change: ManagedChange) -> None:
            if change.kind == "corrected":
                raise RuntimeError("the manager could not write what it keeps")

    register_game_manager(MANAGER, Broken())
    try:
        hole = game.holes.get(number=1)
        with pytest.raises(RuntimeError, match="could not write"):
            services.hole_update(
                game, 1, expected_version=hole.version, entries={"ann": 9, "bob": 9}, ender=None
            )
    finally:
        unregister_game_manager(MANAGER)
    game.refresh_from_db()
    hole.refresh_from_db()
    assert sorted(hole.entries.values_list("score", flat=True)) == [3, 4]  # nothing of the correction
    assert game.version == 2 and game.changes.count() == 1  # one hole recorded, nothing else


def test_a_game_without_a_manager_calls_no_follower(make_game, followed) -> None:
    typed(make_game(["ann", "bob"]), 3, 4)
    assert followed == []
