"""Service errors have their own root; each kind names the HTTP status it is answered with
(`http_status`), and `golfclub.core.errors` builds the answer from its problems."""

from __future__ import annotations

import pytest

from golfclub.core.errors import answered_body, is_answered, status_for
from scoring import game_errors, services
from scoring.api.games.concurrency import PreconditionFailed, PreconditionRequired
from scoring.game_errors import ANSWERED_ERRORS
from scoring.models import GameChange
from scoring.rules.errors import DeckError, Problem, RulesError


def test_game_errors_are_not_rules_errors_and_carry_no_status():
    error = game_errors.MatchFinished(Problem("hole", "The match is over."))
    assert not isinstance(error, RulesError) and isinstance(error, game_errors.GameError)
    assert not hasattr(error, "status")
    assert answered_body(error) == {
        "detail": "The match is over.",
        "errors": [{"where": "hole", "message": "The match is over."}],
    }
    assert str(game_errors.GameError([Problem("a", "One."), Problem("b", "Two.")])) == "One.; Two."


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (game_errors.GameError("x"), 400),
        (DeckError("x"), 400),
        (RulesError("x"), 400),
        (game_errors.HoleNotFound("x"), 404),
        (game_errors.SeatNotFound("x"), 404),
        (game_errors.RulesFrozen("x"), 409),
        (game_errors.MatchFinished("x"), 409),
        (game_errors.PlayoffNotPending("x"), 409),
        (game_errors.ConcurrentWrite("x"), 409),
        (game_errors.HoleAlreadyRecorded(Problem("n", "x"), saved_number=1, next_number=2), 409),
        (game_errors.NothingToUndo("x"), 409),
        (game_errors.ChangeNotCurrent(Problem("c", "x"), already=True), 409),
        (game_errors.PlayoffHolesStale("x"), 409),
        (game_errors.StaleVersion("x"), 412),
        (game_errors.HoleGone("x"), 412),
        (PreconditionFailed("x"), 412),
        (game_errors.IdempotencyConflict("x"), 422),
        (PreconditionRequired("x"), 428),
    ],
)
def test_each_error_is_answered_with_its_status(error, status):
    assert isinstance(error, ANSWERED_ERRORS) and is_answered(error)
    assert status_for(error) == status


def test_every_game_error_kind_has_a_status():
    kinds = [
        k for k in vars(game_errors).values() if isinstance(k, type) and issubclass(k, game_errors.GameError)
    ]
    # Rewritten with the status registry gone: each kind's status is its own or a base's `http_status`.
    assert all(isinstance(kind.http_status, int) for kind in kinds)


@pytest.mark.django_db
def test_update_game_changes_the_ruleset_and_title_together_or_not_at_all():
    game = services.create_game(players=["Ann", "Bob"], ruleset="official", title="Friday")
    services.update_game(game, ruleset="basic", title="Saturday", actor="me")
    game.refresh_from_db()
    assert (game.preset, game.title) == ("basic", "Saturday")
    with pytest.raises(services.GameError):
        services.update_game(game, ruleset="official", title="x" * 81)  # the title is refused
    game.refresh_from_db()
    assert (game.preset, game.title) == ("basic", "Saturday")  # and the ruleset change rolled back
    assert GameChange.objects.filter(game=game, action="ruleset").count() == 1
