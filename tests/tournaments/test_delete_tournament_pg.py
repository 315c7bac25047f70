"""Deleting an event while a director corrects a hole of its finalized round, on PostgreSQL with
two real connections (one thread each).

The correction holds its game's lock while it writes the event's log (a row that refers to the
tournament); the delete once removed the tournament's row, then waited for the games: each waited
for the other and PostgreSQL killed one (a deadlock). The delete now locks the games first, so
the two are taken one after the other, whichever starts first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections

from golfclub.core.errors import status_for
from scoring import services as scoring_services
from scoring.game_errors import GameGone
from scoring.models import Game, Hole
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import EventLogEntry, Round, Table, Tournament
from tournaments.services import tables as table_services

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _finalized_table_game() -> tuple[Tournament, Game]:
    """An 8-player event whose round 1 is played and finalized, and the game of its first table."""
    tournament = event(8, rounds=2, holes=2)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    table = Table.objects.filter(round=round_).order_by("number").first()
    return tournament, Game.objects.get(pk=table.game_id)


def _correct(game: Game) -> Callable[[], Any]:
    """The director's correction of hole 2 (every player 5), as the hole's API makes it."""
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    version = game.holes.get(number=2, is_playoff=False).version
    return lambda: scoring_services.hole_update(
        Game.objects.get(pk=game.pk),
        2,
        expected_version=version,
        entries=dict.fromkeys(names, 5),
        ender=None,
        actor="dora",
        reason="appeal",
        capabilities={"view", "score", "manage"},
    )


def _delete(tournament: Tournament) -> Callable[[], None]:
    """The director's delete of the event."""
    return lambda: services.delete_tournament(tournament, actor=user("dora"))


def _in_thread(call: Callable[[], Any], results: dict[str, Any], key: str) -> threading.Thread:
    """Run `call` on its own connection; its result (or the error it raised) lands in `results`."""

    def run() -> None:
        try:
            results[key] = call()
        except Exception as error:  # the test reads it
            results[key] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _paused(monkeypatch: Any, owner: Any, name: str) -> tuple[threading.Event, threading.Event]:
    """Make `owner.name` stop (in whichever thread calls it) until `go` is set; `reached` says
    it was called."""
    reached, go = threading.Event(), threading.Event()
    original = getattr(owner, name)

    def paused(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        assert go.wait(20)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, paused)
    return reached, go


def _nothing_of_the_event_left(game: Game) -> None:
    for model in (Tournament, Round, Table, EventLogEntry):
        assert not model.objects.exists(), model.__name__
    assert not Game.objects.filter(pk=game.pk).exists() and not Hole.objects.filter(game_id=game.pk).exists()


def test_a_correction_writing_the_log_ends_before_the_event_is_deleted(monkeypatch) -> None:
    tournament, game = _finalized_table_game()
    # The correction stops with its game locked, just before it writes the event's log.
    reached, go = _paused(monkeypatch, table_services, "log_event")
    results: dict[str, Any] = {}
    correcting = _in_thread(_correct(game), results, "correct")
    assert reached.wait(20)
    deleting = _in_thread(_delete(tournament), results, "delete")
    deleting.join(1.5)  # the delete is waiting for the game, holding the tournament's row only
    assert deleting.is_alive(), results.get("delete")
    go.set()
    correcting.join(30)
    deleting.join(30)
    assert not correcting.is_alive() and not deleting.is_alive()
    corrected = results["correct"]
    assert isinstance(corrected, Hole), corrected  # no deadlock: it was saved, then deleted
    assert results["delete"] is None, results["delete"]
    _nothing_of_the_event_left(game)


def test_a_correction_that_comes_during_the_delete_is_refused_once_the_game_is_gone(monkeypatch) -> None:
    tournament, game = _finalized_table_game()
    # The delete stops just before it deletes the games (the rounds and the event already gone).
    reached, go = _paused(monkeypatch, scoring_services, "delete_games")
    results: dict[str, Any] = {}
    deleting = _in_thread(_delete(tournament), results, "delete")
    assert reached.wait(20)
    correcting = _in_thread(_correct(game), results, "correct")
    correcting.join(1.5)  # the correction waits for the game's lock, held by the delete
    assert correcting.is_alive(), results.get("correct")
    go.set()
    deleting.join(30)
    correcting.join(30)
    assert not correcting.is_alive() and not deleting.is_alive()
    assert results["delete"] is None, results["delete"]
    refused = results["correct"]
    assert isinstance(refused, GameGone), refused  # not a deadlock: the game is gone, said so
    assert status_for(refused) == 404 and refused.problems[0].where == "game"
    _nothing_of_the_event_left(game)
