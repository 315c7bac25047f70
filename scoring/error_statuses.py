"""The HTTP status of each error the services and the rules engine raise: the one place the API
and the pages both read it from.

The domain (`scoring.game_errors`, `scoring.rules.errors`) knows nothing of HTTP; a view catches
`ANSWERED_ERRORS` and answers `status_for(error)` with `problems_of(error)`; the API raises and
its one handler (`scoring.api.errors.exception_handler`) does the same.
"""

from __future__ import annotations

from scoring.game_errors import (
    ChangeNotCurrent,
    ConcurrentWrite,
    GameError,
    GameGone,
    GameInUse,
    GameManaged,
    HoleNotFound,
    IdempotencyConflict,
    MatchFinished,
    NothingToUndo,
    PlayoffHolesStale,
    PlayoffNotPending,
    RulesFrozen,
    SeatNotFound,
    StaleVersion,
    VersionRequired,
)
from scoring.hole_policies import HoleChangeRefused, ReasonRequired
from scoring.rules.errors import Problem, RulesError

__all__ = ["ANSWERED_ERRORS", "STATUS_BY_ERROR", "problems_of", "register_error_status", "status_for"]

# The errors a view answers with their problems (anything else is a bug: a 500).
ANSWERED_ERRORS: tuple[type[Exception], ...] = (RulesError, GameError)

# Each kind's status; a subclass not listed takes its nearest listed base's.
STATUS_BY_ERROR: dict[type[Exception], int] = {
    RulesError: 400,  # bad cards, grids, rulesets
    GameError: 400,  # a request the game cannot accept as it stands
    HoleNotFound: 404,
    GameGone: 404,  # deleted (with its tournament) while the write waited for its lock
    SeatNotFound: 404,
    RulesFrozen: 409,
    MatchFinished: 409,
    PlayoffNotPending: 409,
    ConcurrentWrite: 409,  # and HoleAlreadyRecorded
    NothingToUndo: 409,
    ChangeNotCurrent: 409,
    PlayoffHolesStale: 409,
    GameManaged: 409,  # seats, rules, title or deletion of a tournament's table through its link
    GameInUse: 409,  # deleting a game something else points at
    HoleChangeRefused: 409,  # the manager's policy: e.g. only an official corrects an earlier hole
    ReasonRequired: 400,
    StaleVersion: 412,  # and HoleGone
    IdempotencyConflict: 422,
    VersionRequired: 428,
}


def status_for(error: BaseException) -> int:
    """The HTTP status answered for `error`: its class's, or its nearest listed base's (else 400)."""
    for kind in type(error).__mro__:
        if kind in STATUS_BY_ERROR:
            return STATUS_BY_ERROR[kind]
    return 400


def problems_of(error: BaseException) -> list[Problem]:
    """What a page shows for `error`: its problems (each with where and what), or one made of its
    text when it names none. With `status_for`, the one way an error becomes a page's answer."""
    return list(getattr(error, "problems", ()) or [Problem("request", str(error))])


def register_error_status(kind: type[Exception], status: int) -> None:
    """Give an app's own error kind (a `GameError` subclass) its HTTP status, from its `ready()`:
    `scoring` never imports the apps built on it, so they register their kinds here."""
    if not issubclass(kind, ANSWERED_ERRORS):
        raise TypeError(f"{kind.__name__} is not an answered error (a GameError or RulesError).")
    STATUS_BY_ERROR[kind] = status
