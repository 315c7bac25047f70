"""Errors raised by the live-game services, each with a message a player understands.

They have their own root, `GameError`, apart from the rules engine's `RulesError`: both carry
`problems` (where, message), through the one `ProblemsMixin` they share, and `golfclub.core.errors`
builds every answer from them (the API's body, a page's refusal).
Each kind says the HTTP status it is answered with (`http_status`, inherited by its subkinds):
the status belongs to the kind, so a new kind is answered right without registering it anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.rules.errors import Problem, ProblemsMixin, RulesError


class GameError(ProblemsMixin, Exception):
    """A request the game cannot accept as it stands. `problems` names every problem found."""

    http_status = 400  # each subkind below that is not bad input names its own
    root_name = "GameError"


class RulesFrozen(GameError):
    """The ruleset cannot change: cards have been dealt (seed 001)."""

    http_status = 409


class MatchFinished(GameError):
    """The match is over: no further regular hole can be recorded."""

    http_status = 409


class PlayoffNotPending(GameError):
    """A playoff hole was offered when no sudden death is pending, or for the wrong players."""

    http_status = 409


class HoleNotFound(GameError):
    """No hole of that number in this game."""

    http_status = 404


class GameGone(GameError):
    """The game was deleted while the write waited for its lock (its tournament deleted)."""

    http_status = 404


class SeatNotFound(GameError):
    """No player in that seat in this game."""

    http_status = 404


class StaleVersion(GameError):
    """The hole changed since the client read it (optimistic concurrency)."""

    http_status = 412  # and HoleGone


class VersionRequired(GameError):
    """A change to a hole must name the version it read (the API's If-Match header)."""

    http_status = 428


class IdempotencyConflict(GameError):
    """An Idempotency-Key reused with a different request body."""

    http_status = 422


class ConcurrentWrite(GameError):
    """Another request changed the game at the same moment: reload and retry."""

    http_status = 409  # and HoleAlreadyRecorded


class NothingToUndo(GameError):
    """No change left that undo could revert."""

    http_status = 409


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

    http_status = 409

    def __init__(self, problems: Iterable[Problem] | Problem, *, already: bool) -> None:
        super().__init__(problems)
        self.already = already


class PlayoffHolesStale(GameError):
    """A change to the regular holes would leave recorded playoff holes deciding another tie."""

    http_status = 409


class GameManaged(GameError):
    """The game belongs to something else (a tournament's table): its seats, rules, title and
    deletion are changed by what manages it, not through the table's link."""

    http_status = 409


class GameInUse(GameError):
    """Something else points at the game (a tournament's table): it cannot be deleted."""

    http_status = 409


#: The errors a view or the API answers with their problems (anything else is a bug: a 500).
#: `golfclub.core.errors.is_answered` recognises the same errors by their shape.
ANSWERED_ERRORS: tuple[type[Exception], ...] = (RulesError, GameError)
