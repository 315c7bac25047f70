"""Errors raised by the live-game services, each with a message a player understands.

They extend the rules engine's `RulesError`, so they carry `problems` (where, message) and render as
the API's error body {"detail": ..., "errors": [...]}; `status` is the HTTP status the API answers.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.rules.errors import Problem, RulesError


class GameError(RulesError):
    """A request the game cannot accept as it stands (400)."""

    status = 400


class RulesFrozen(GameError):
    """The ruleset cannot change: cards have been dealt (seed 001)."""

    status = 409


class MatchFinished(GameError):
    """The match is over: no further regular hole can be recorded."""

    status = 409


class PlayoffNotPending(GameError):
    """A playoff hole was offered when no sudden death is pending, or for the wrong players."""

    status = 409


class HoleNotFound(GameError):
    """No hole of that number in this game."""

    status = 404


class SeatNotFound(GameError):
    """No player in that seat in this game."""

    status = 404


class StaleVersion(GameError):
    """The hole changed since the client read it (optimistic concurrency, HTTP 412)."""

    status = 412


class IdempotencyConflict(GameError):
    """An Idempotency-Key reused with a different request body (HTTP 422)."""

    status = 422


class ConcurrentWrite(GameError):
    """Another request changed the game at the same moment (HTTP 409): reload and retry."""

    status = 409


class NothingToUndo(GameError):
    """No change left that undo could revert."""

    status = 409


class HoleAlreadyRecorded(ConcurrentWrite):
    """The hole the client filled in was saved meanwhile by someone else (HTTP 409).

    `saved_number` is the hole the client meant; `next_number` the one the game expects now.
    """

    def __init__(self, problems: Iterable[Problem] | Problem, *, saved_number: int, next_number: int) -> None:
        super().__init__(problems)
        self.saved_number = saved_number
        self.next_number = next_number


class HoleGone(StaleVersion):
    """The hole the client names (by its ETag or the form's hole id) no longer exists (HTTP 412)."""


class ChangeNotCurrent(GameError):
    """An undo or redo names a change that is not the one to undo or redo now (HTTP 409).

    `already` is True when the named change was already undone (or redone): a repeat, a no-op.
    """

    status = 409

    def __init__(self, problems: Iterable[Problem] | Problem, *, already: bool) -> None:
        super().__init__(problems)
        self.already = already


class PlayoffHolesStale(GameError):
    """A change to the regular holes would leave recorded playoff holes deciding another tie (409)."""

    status = 409
