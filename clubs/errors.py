"""What the clubs services refuse, as `scoring`'s error kinds (each with its problems, "where" and
"message"), so that the API and the pages answer them as they answer a game's errors.

Statuses (each kind's `http_status`, which `golfclub.core.errors` answers): a bad value is a 400
(`ClubError`), a club or member the person may not even see a 404 (`NotFoundInClub`), a change only
the club's owners may make a 403 (`NotAnOwner`), a change against a version no longer current a 412
(`StaleVersion`, scoring's).

A view only raises the two refusals of `clubs.access`, and one place answers each: the API's
exception handler (their problems, with their status); for a page, `NotFoundInClub` is an `Http404`
(the site's 404 page, as for every page) and `NotAnOwner` carries the page refusal it is for a page
(`page_refusal`, a `golfclub.core.errors.PageRefusal`), answered by `PageRefusalMiddleware` as every
page's refusal is.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import Http404

from golfclub.core.errors import NotAllowedHere, PageRefusal
from scoring.game_errors import GameError
from scoring.rules.errors import Problem


class ClubError(GameError):
    """Bad input for a club write (400)."""

    http_status = 400


class NotFoundInClub(GameError, Http404):
    """No such club, member or season, or a private club the person is not an owner of (404)."""

    http_status = 404


class NotAnOwner(GameError):
    """The person may see the club but only its owners may do this (403).

    The API answers its problems; a page its `page_refusal`, decided with it
    (`clubs.access.club_for_user`): the login page for an anonymous visitor, the page that says who
    may, or by default the site's plain 403 page."""

    http_status = 403

    def __init__(
        self, problems: Iterable[Problem] | Problem | str, *, page_refusal: PageRefusal | None = None
    ) -> None:
        super().__init__(problems)
        self.page_refusal = page_refusal or NotAllowedHere()


class ClubConflict(GameError):
    """The club is not in a state that allows this now, e.g. merging a member into themselves (409)."""

    http_status = 409
