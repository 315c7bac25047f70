"""What the clubs services refuse, as `scoring`'s error kinds (each with its problems, "where" and
"message"), so that the API and the pages answer them as they answer a game's errors.

Statuses (each kind's `http_status`, which `golfclub.core.errors` answers): a bad value is a 400
(`ClubError`), a club or member the person may not even see a 404 (`NotFoundInClub`), a change only
the club's owners may make a 403 (`NotAnOwner`), a change against a version no longer current a 412
(`StaleVersion`, scoring's).
"""

from __future__ import annotations

from scoring.game_errors import GameError


class ClubError(GameError):
    """Bad input for a club write (400)."""

    http_status = 400


class NotFoundInClub(GameError):
    """No such club, member or season, or a private club the person is not an owner of (404)."""

    http_status = 404


class NotAnOwner(GameError):
    """The person may see the club but only its owners may do this (403)."""

    http_status = 403


class ClubConflict(GameError):
    """The club is not in a state that allows this now, e.g. merging a member into themselves (409)."""

    http_status = 409
