"""The one interface other apps plug into (`scoring.game_managers`): what the services tell a game's
manager, inside the change's transaction (the after-commit signals are gone: nothing runs after the
commit); managed games' guards in the services; the hole rule a manager applies; and a game
something else points at.

Everything goes through the services on the real database; managers are registered for one test
and removed after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, models, transaction

from golfclub.core.errors import status_for
from scoring import hole_policies, services
from scoring.game_errors import GameInUse, GameManaged
from scoring.game_managers import (
    GameManager,
    HoleChange,
    ManagedChange,
    register_game_manager,
    unregister_game_manager,
)
from scoring.models import ChangeAction, Game, GameChange, GameStatus, HoleEntry
from tests.games.conftest import typed

MANAGER = "tests.table"
LISTENER = "tests.listener"
TABLE_LINK = frozenset({"view", "score"})
OFFICIAL = frozenset({"view", "score", "officiate"})


class _Listener(GameManager):
    """Notes every change it is told of, with the hole's scores as the transaction sees them (a
    correction's: a new hole's are sent with its other writes)."""

    def __init__(self) -> None:
        self.heard: list[tuple[ManagedChange, dict[str, int], bool]] = []

    def after_change(self, change: ManagedChange) -> None:
        entries = HoleEntry.objects.filter(hole_id=change.hole_id).values_list("seat__name", "score")
        inside = transaction.get_connection().in_atomic_block
        self.heard.append((change, dict(entries) if change.hole_id else {}, inside))


@pytest.fixture
def heard() -> Iterator[list[tuple[ManagedChange, dict[str, int], bool]]]:
    """Every change told to the manager of games followed by `LISTENER`, as (change, scores, inside
    a transaction)."""
    listener = _Listener()
    register_game_manager(LISTENER, listener)
    yield listener.heard
    unregister_game_manager(LISTENER)


class _TableRule(GameManager):
    def check_hole_change(self, change: HoleChange) -> None:
        hole_policies.corrections_at_table_until_next_hole(change)


@pytest.fixture
def table_policy() -> Iterator[None]:
    """Corrections at the table until the next hole, as a tournament's manager applies it."""
    register_game_manager(MANAGER, _TableRule())
    yield
    unregister_game_manager(MANAGER)


def _managed(make_game: Any, **kwargs: Any) -> Game:
    return make_game(
        ["ann", "bob"], managed_by=MANAGER, managed_label="Spring Open, round 1, table 2", **kwargs
    )


def _followed(make_game: Any, **kwargs: Any) -> Game:
    return make_game(["ann", "bob"], followed_by=LISTENER, **kwargs)


def test_it_tells_the_manager_of_a_recorded_hole_inside_its_transaction(
    make_game, heard, django_capture_on_commit_callbacks
):
    game = _followed(make_game)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hole = typed(game, 3, 21, actor="Ann's phone")
    assert callbacks == []  # nothing is left to run after the commit
    ((change, _scores, inside),) = heard
    assert inside
    assert change == ManagedChange(
        game_id=game.pk,
        managed_by=LISTENER,
        kind="recorded",
        hole_number=1,
        playoff=False,
        actor="Ann's phone",
        hole_id=hole.pk,
    )
    # A new hole's entries may still be queued with its other writes (sent in one round trip before
    # the commit): the change names the hole; its scores are read once committed.
    assert dict(HoleEntry.objects.filter(hole=hole).values_list("seat__name", "score")) == {
        "ann": 3,
        "bob": 21,
    }


def test_it_tells_nothing_of_a_refused_hole(make_game, heard):
    game = _followed(make_game)
    with pytest.raises(services.GameError):
        services.hole_record(game, entries={"ann": 3, "zed": 4}, ender=None)
    assert heard == []


def test_it_tells_of_corrections_deletes_undo_and_redo(make_game, heard):
    game = _followed(make_game)
    hole = typed(game, 3, 21)
    services.hole_update(game, 1, expected_version=None, entries={"ann": 4, "bob": 20}, ender=None)
    services.hole_delete(game, 1)
    services.undo_last_change(game)  # the hole comes back
    services.undo_last_change(game)  # the correction is undone
    services.redo_change(game)
    kinds = [change.kind for change, _scores, _inside in heard]
    assert kinds == ["recorded", "corrected", "deleted", "recorded", "corrected", "corrected"]
    assert {change.hole_id for change, _s, _i in heard} == {hole.pk}  # a hole keeps its id through undo
    assert heard[1][1] == {"ann": 4, "bob": 20}
    assert heard[4][1] == {"ann": 3, "bob": 21}
    assert all(inside for _change, _scores, inside in heard)


def test_it_tells_of_a_finished_game_and_its_reopening(make_game, heard):
    game = _followed(make_game, ruleset={"preset": "official", "holes": 2})
    typed(game, 3, 21)
    typed(game, 5, 9)
    finished = [change for change, _scores, _inside in heard if change.kind == "finished"]
    assert finished == [ManagedChange(game_id=game.pk, managed_by=LISTENER, kind="finished")]
    game.refresh_from_db()
    assert (game.status, game.winners) == (GameStatus.FINISHED, ["ann"])
    services.undo_last_change(game)
    assert heard[-1][0].kind == "reopened"
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS
    assert dict(game.seats.values_list("name", "total")) == {"ann": 3, "bob": 21}


def test_a_failing_manager_rolls_the_hole_back_and_the_person_is_told(make_game):
    # Issue 31: a listener's failure after the commit was only logged, leaving the data behind.
    class Broken(GameManager):
        def after_change(self, change: ManagedChange) -> None:
            raise RuntimeError("standings are down")

    register_game_manager(LISTENER, Broken())
    try:
        game = _followed(make_game)
        with pytest.raises(RuntimeError, match="standings are down"):
            typed(game, 3, 21)
    finally:
        unregister_game_manager(LISTENER)
    assert game.holes.count() == 0


def test_a_table_link_cannot_change_seats_rules_title_or_delete_a_managed_game(make_game):
    game = _managed(make_game)
    attempts = [
        lambda: services.seat_add(game, "cy", capabilities=TABLE_LINK),
        lambda: services.seat_rename(game, 0, "Annie", capabilities=TABLE_LINK),
        lambda: services.seat_remove(game, 1, capabilities=TABLE_LINK),
        lambda: services.set_game_ruleset(game, "basic", capabilities=TABLE_LINK),
        lambda: services.game_rename(game, "Ours now", capabilities=TABLE_LINK),
        lambda: services.update_game(game, title="Ours now", capabilities=TABLE_LINK),
        lambda: services.delete_game(game, capabilities=TABLE_LINK),
    ]
    for attempt in attempts:
        with pytest.raises(GameManaged) as refused:
            attempt()
        assert status_for(refused.value) == 409
        assert "Spring Open, round 1, table 2" in refused.value.message
    game.refresh_from_db()
    assert [s.name for s in game.seats.order_by("seat")] == ["ann", "bob"]
    assert (game.title, game.preset) == ("", "official")


def test_the_manager_and_the_code_itself_may_change_a_managed_game(make_game):
    game = _managed(make_game)
    services.seat_add(game, "cy", capabilities={"view", "score", "manage"})
    services.game_rename(game, "Table 2")  # no capabilities: the manager's own code
    assert game.seats.count() == 3 and Game.objects.get(pk=game.pk).title == "Table 2"


def test_an_ordinary_game_is_not_guarded(make_game):
    game = make_game(["ann", "bob"])
    services.seat_add(game, "cy", capabilities=TABLE_LINK)
    assert game.seats.count() == 3


def test_a_table_corrects_a_hole_until_the_next_is_recorded(make_game, table_policy):
    game = _managed(make_game)
    typed(game, 3, 21, capabilities=TABLE_LINK)
    services.hole_update(
        game, 1, expected_version=None, entries={"ann": 4, "bob": 21}, ender=None, capabilities=TABLE_LINK
    )
    typed(game, 5, 9, capabilities=TABLE_LINK)
    refused = [
        lambda: services.hole_update(
            game, 1, expected_version=None, entries={"ann": 3, "bob": 21}, ender=None, capabilities=TABLE_LINK
        ),
        lambda: services.hole_delete(game, 1, capabilities=TABLE_LINK),
    ]
    for attempt in refused:
        with pytest.raises(hole_policies.HoleChangeRefused) as error:
            attempt()
        assert status_for(error.value) == 409
        assert "Call an official" in error.value.message
    assert game.holes.get(number=1).entries.get(seat__name="ann").score == 4
    services.hole_update(  # the latest hole may still change at the table
        game, 2, expected_version=None, entries={"ann": 6, "bob": 9}, ender=None, capabilities=TABLE_LINK
    )


def test_undoing_an_officials_correction_of_an_earlier_hole_is_refused_at_the_table(make_game, table_policy):
    game = _managed(make_game)
    typed(game, 3, 21)
    typed(game, 5, 9)
    services.hole_update(
        game,
        1,
        expected_version=None,
        entries={"ann": 13, "bob": 21},
        ender=None,
        capabilities=OFFICIAL,
        reason="a Jack, not a Queen",
    )
    with pytest.raises(hole_policies.HoleChangeRefused):  # undo changes hole 1 again
        services.undo_last_change(game, capabilities=TABLE_LINK)
    services.undo_last_change(game, capabilities=OFFICIAL, reason="the Queen was right after all")
    assert Game.objects.get(pk=game.pk).seats.get(name="ann").total == 8
    assert GameChange.objects.filter(game=game, action=ChangeAction.UNDO).get().reason == (
        "the Queen was right after all"
    )


def test_an_official_corrects_an_earlier_hole_with_a_reason_kept_in_history(make_game, table_policy):
    game = _managed(make_game)
    typed(game, 3, 21)
    typed(game, 5, 9)
    entries = {"ann": 13, "bob": 21}
    with pytest.raises(hole_policies.ReasonRequired) as error:
        services.hole_update(
            game, 1, expected_version=None, entries=entries, ender=None, capabilities=OFFICIAL
        )
    assert status_for(error.value) == 400 and error.value.problems[0].where == "reason"
    services.hole_update(
        game,
        1,
        expected_version=None,
        entries=entries,
        ender=None,
        capabilities=OFFICIAL,
        reason="  ann's Queen pair was a Queen and a Jack  ",
        actor="official Kim",
    )
    change = GameChange.objects.filter(game=game, action=ChangeAction.UPDATE).get()
    assert (change.actor, change.reason) == ("official Kim", "ann's Queen pair was a Queen and a Jack")
    assert Game.objects.get(pk=game.pk).seats.get(name="ann").total == 18


def test_a_policy_can_refuse_recording(make_game):
    class ClosedRound(GameManager):
        def check_hole_change(self, change: HoleChange) -> None:
            if change.action == "record":
                raise hole_policies.HoleChangeRefused("This round is not open for scoring yet.", where="hole")

    register_game_manager(MANAGER, ClosedRound())
    try:
        game = _managed(make_game)
        with pytest.raises(hole_policies.HoleChangeRefused):
            typed(game, 3, 21, capabilities=TABLE_LINK)
        with pytest.raises(hole_policies.HoleChangeRefused):  # the API's one-query path too
            services.hole_record_by_edit_token(
                game.edit_token, entries={"ann": 3, "bob": 21}, ender=None, capabilities=TABLE_LINK
            )
    finally:
        unregister_game_manager(MANAGER)
    assert game.holes.count() == 0


@pytest.fixture
def protector() -> Iterator[type[models.Model]]:
    """A model pointing at games with on_delete=PROTECT, as a tournament's table does, for one test."""

    class Protector(models.Model):
        game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")

        class Meta:
            app_label = "scoring"

        def __str__(self) -> str:
            return f"protects game {self.game_id}"

    with connection.schema_editor() as editor:
        editor.create_model(Protector)
    try:
        yield Protector
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(Protector)
        del apps.all_models["scoring"]["protector"]
        apps.clear_cache()


@pytest.mark.django_db(transaction=True)  # the table is created and dropped outside any transaction
def test_deleting_a_game_something_points_at_is_a_clear_refusal(make_game, protector):
    game = _managed(make_game)
    protector.objects.create(game=game)
    with pytest.raises(GameInUse) as refused:
        services.delete_game(game)  # even by the manager's own code
    assert status_for(refused.value) == 409
    assert (
        refused.value.message == "This game is part of Spring Open, round 1, table 2 and cannot be deleted."
    )
    assert Game.objects.filter(pk=game.pk).exists() and game.seats.count() == 2


def test_a_hole_named_from_another_game_is_not_called_deleted(make_game):
    game, other = make_game(["ann", "bob"]), make_game(["ann", "bob"])
    typed(game, 3, 21)
    elsewhere = typed(other, 5, 9)
    with pytest.raises(services.GameError) as refused:
        services.hole_delete(game, 1, expected_id=elsewhere.pk)
    assert status_for(refused.value) == 412
    assert refused.value.message == "That hole belongs to another game: nothing was changed."
    assert game.holes.count() == 1 and other.holes.count() == 1


def test_a_block_count_given_as_text_is_named_as_such(make_game):
    game = make_game(["ann", "bob"])
    with pytest.raises(services.GameError) as refused:
        services.hole_record(game, entries={"ann": {"total": 1, "blocks_marked": "1"}, "bob": 2}, ender=None)
    assert "whole number, 0 or more (as a number, not text)" in str(refused.value)
    assert game.holes.count() == 0
