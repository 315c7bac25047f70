"""What the clubs services refuse, as `scoring`'s error kinds (each with its problems, "where" and
"message"), so that the API and the pages answer them as they answer a game's errors.

Statuses (each kind's `http_status`, which `golfclub.core.errors` answers): a bad value is a 400
(`ClubError`), a club or member the person may not even see a 404 (`NotFoundInClub`), a change only
the club's owners may make a 403 (`NotAnOwner`), a change against a version no longer current a 412
(`StaleVersion`, scoring's).

The two refusals of `clubs.access` are Django's own too, so that a page's view only raises them and
one place answers them: the API's exception handler (their problems, with their status), and for
pages Django's handlers in `golfclub.core.errors` (`NotFoundInClub` is an `Http404`: the site's 404
page; `NotAnOwner` a `PermissionDenied`: `permission_denied`, which reads how the refusal asks to
be answered, `login_first` and `page`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.http import Http404

from scoring.game_errors import GameError
from scoring.rules.errors import Problem


class ClubError(GameError):
    """Bad input for a club write (400)."""

    http_status = 400


class NotFoundInClub(GameError, Http404):
    """No such club, member or season, or a private club the person is not an owner of (404)."""

    http_status = 404


class NotAnOwner(GameError, PermissionDenied):
    """The person may see the club but only its owners may do this (403).

    How a page answers it is decided with it (`clubs.access.club_for_user`): `login_first` sends
    an anonymous visitor to log in, then back; `page` names the template that says who may (shown
    with the problems); neither: the site's plain 403 page. The API answers its problems alike."""

    http_status = 403

    def __init__(
        self, problems: Iterable[Problem] | Problem | str, *, login_first: bool = False, page: str = ""
    ) -> None:
        super().__init__(problems)
        self.login_first = login_first
        self.page = page


class ClubConflict(GameError):
    """The club is not in a state that allows this now, e.g. merging a member into themselves (409)."""

    http_status = 409
