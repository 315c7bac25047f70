"""Errors raised by the live-game services, each with a message a player understands.

They have their own root, `GameError`, apart from the rules engine's `RulesError`: both carry
`problems` (where, message) and render as the API's error body {"detail": ..., "errors": [...]},
through the one `ProblemsMixin` they share.
Nothing here knows about HTTP: the API and the pages answer each kind with the status that
`scoring.error_statuses` gives it.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.rules.errors import Problem, ProblemsMixin


class GameError(ProblemsMixin, Exception):
    """A request the game cannot accept as it stands. `problems` names every problem found."""

    root_name = "GameError"


class RulesFrozen(GameError):
    """The ruleset cannot change: cards have been dealt (seed 001)."""


class MatchFinished(GameError):
    """The match is over: no further regular hole can be recorded."""


class PlayoffNotPending(GameError):
    """A playoff hole was offered when no sudden death is pending, or for the wrong players."""


class HoleNotFound(GameError):
    """No hole of that number in this game."""


class GameGone(GameError):
    """The game was deleted while the write waited for its lock (its tournament deleted)."""


class SeatNotFound(GameError):
    """No player in that seat in this game."""


class StaleVersion(GameError):
    """The hole changed since the client read it (optimistic concurrency)."""


class VersionRequired(GameError):
    """A change to a hole must name the version it read (the API's If-Match header)."""


class IdempotencyConflict(GameError):
    """An Idempotency-Key reused with a different request body."""


class ConcurrentWrite(GameError):
    """Another request changed the game at the same moment: reload and retry."""


class NothingToUndo(GameError):
    """No change left that undo could revert."""


class HoleAlreadyRecorded(ConcurrentWrite):
    """The hole the client filled in was saved meanwhile by someone else.

    `saved_number` is the hole the client meant; `next_number` the one the game expects now.
    """

    def __init__(self, problems: Iterable[Problem] | Problem, *, saved_number: int, next_number: int) -> None:
        super().__init__(problems)
        self.saved_number = saved_number
        self.next_number = next_number


class HoleGone(StaleVersion):
    """The hole the client names (by its ETag or the form's hole id) no longer exists."""


class ChangeNotCurrent(GameError):
    """An undo or redo names a change that is not the one to undo or redo now.

    `already` is True when the named change was already undone (or redone): a repeat, a no-op.
    """

    def __init__(self, problems: Iterable[Problem] | Problem, *, already: bool) -> None:
        super().__init__(problems)
        self.already = already


class PlayoffHolesStale(GameError):
    """A change to the regular holes would leave recorded playoff holes deciding another tie."""


class GameManaged(GameError):
    """The game belongs to something else (a tournament's table): its seats, rules, title and
    deletion are changed by what manages it, not through the table's link."""


class GameInUse(GameError):
    """Something else points at the game (a tournament's table): it cannot be deleted."""
