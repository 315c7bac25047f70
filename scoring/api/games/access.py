"""The access call of the live-game API: `grant = game_for_api(request, token, writes=capability)`.

The first line of every view reached by a game's link. It resolves the URL's token, decides with
`scoring.access.decide` (token and authenticated user, the same decision as the pages') and
returns the `GameGrant`, or raises the refusal, answered in the API's error shape by its one
exception handler (`scoring.api.errors.exception_handler`):

- no game has the token: 404;
- the grant may only watch and the method writes: 403 (the read-only link's message);
- `manage` through the table link of a managed game: 409 naming what manages the game.

The token is the credential, so a token alone needs no CSRF token (as before). A logged-in user is
known too (session, or any other authentication the project configures), for what the game's
manager adds (`GameManager.capabilities`); when a write needs what only the user brings (an
official scoring through the view link) and the user came by the session cookie, Django's CSRF
check applies, as for any session write.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import (
    APIException,
    AuthenticationFailed,
    MethodNotAllowed,
    NotAuthenticated,
    NotFound,
    PermissionDenied,
)
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.settings import api_settings

from scoring.access import (
    Capability,
    GameGrant,
    Refusal,
    TokenKind,
    decide,
    grant_for,
    managed_refusal_message,
)
from scoring.game_managers import NO_MANAGER, manager_of
from scoring.models import Game


class GameManaged(APIException):
    """409: the players, rules and deletion of a managed game are not the table link's to change."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "managed"


def request_user(request: Request) -> tuple[Any, bool]:
    """Who sends this token request, and whether they came by the session cookie.

    Token views run without DRF authentication (the link is the credential, and a token request
    never fails for a stale login), so the user is found here: by any non-session authentication
    the project configures (DRF's `TokenAuthentication` for scripts, when added to the settings),
    else the session's user (Django's, no CSRF check yet: see `grant_or_refuse`).
    """
    for auth_class in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        if issubclass(auth_class, SessionAuthentication):
            continue
        try:
            found = auth_class().authenticate(request)
        except AuthenticationFailed:
            found = None  # a bad credential for a link that needs none: the token still counts
        if found is not None:
            return found[0], False
    if not hasattr(request._request, "session"):
        return None, False
    # From the session itself: DRF has set the request's user to anonymous (no authenticators here).
    user = get_user(request._request)
    return user, bool(user.is_authenticated)


def grant_or_refuse(request: Request, token: str, capability: Capability) -> GameGrant:
    """The grant of this request on the game behind `token`, if it allows `capability`; else raise
    the refusal (404, 403, 409)."""
    user, by_session = request_user(request)
    grant = decide(token, user)
    if grant is None:
        raise NotFound(_("No game has this link. Check that it was copied whole."))
    return _allowed(request, grant, capability, by_session)


def _allowed(request: Request, grant: GameGrant, capability: Capability, by_session: bool) -> GameGrant:
    """`grant` if it allows `capability`, else the refusal (403, 409); CSRF when the user carries it."""
    reason = grant.refusal(capability)
    if reason is Refusal.MANAGED:
        raise GameManaged(managed_refusal_message(grant.game))
    if reason is not None:
        raise PermissionDenied(
            _("This is the game's read-only link: only the edit link can change it. Ask the scorer for it.")
        )
    if capability not in grant.token_capabilities and request.method not in SAFE_METHODS and by_session:
        # The write rests on the session's user, not on the token: a forged cross-site request
        # must not borrow that user's rights.
        SessionAuthentication().enforce_csrf(request)
    return grant


def require_login(request: Request, refusal: str) -> None:
    """The access check of the views of one's own things (games list, players): nothing for a
    logged-in user (session or token), else 401 (DRF's NotAuthenticated) saying `refusal`."""
    if not request.user.is_authenticated:
        raise NotAuthenticated(refusal)


def game_for_api(request: Request, token: str, *, writes: Capability | None = None) -> GameGrant:
    """The access call of a view reached by a game's link, its first line: the grant of this
    request on the game behind `token`, if it allows what the request's method needs (reading,
    GET and HEAD: `view`; any other method: `writes`, which a view that only reads leaves None),
    else raise the refusal (404, 403, 409), answered by the API's exception handler.
    """
    return grant_or_refuse(request, token, _needed(request, writes))


def game_for_api_deferring(
    request: Request, token: str, *, writes: Capability, deferred: Collection[str]
) -> GameGrant | DeferredGrant:
    """`game_for_api`, except for the `deferred` methods (the hole POST): their decision is the
    view's to make, on the game its one-query lookup by the edit token finds (a `DeferredGrant`,
    no query here), or by the token when that finds nothing."""
    capability = _needed(request, writes)
    if request.method in deferred:
        return DeferredGrant(request, token, capability)
    return grant_or_refuse(request, token, capability)


def _needed(request: Request, writes: Capability | None) -> Capability:
    """What the request's method needs: `view` to read, `writes` to write (a view that only reads
    takes no write: DRF's `api_view` answers 405 before the view, and so does this)."""
    if request.method in SAFE_METHODS:
        return Capability.VIEW
    if writes is None:
        raise MethodNotAllowed(request.method or "")
    return writes


@dataclass(frozen=True)
class DeferredGrant:
    """The access decision of a method whose view first tries a one-query path by the edit token
    (the hole POST): the same decision as `grant_or_refuse`, made either on the game that lookup
    found and locked (`on_edit_token_game`, no query of its own for an anonymous phone) or, when it
    found none, by the token (`require`: 404, 403, or an official's grant)."""

    request: Request
    token: str
    capability: Capability

    def require(self) -> GameGrant:
        """Decide by the token (a lookup of its own), as `game_for_api` does for other methods."""
        return grant_or_refuse(self.request, self.token, self.capability)

    def on_edit_token_game(self, game: Game) -> frozenset[Capability]:
        """Decide on `game`, found by this request's token as its edit token: the capabilities."""
        if manager_of(game) is NO_MANAGER:
            # Only the link grants anything on a game nobody manages: who sends it cannot change the
            # decision, so the user is not looked up (no session read, no Vary: Cookie), as before
            # the decision was made here. A table's phone pays nothing for the officials' case.
            return _allowed(
                self.request, grant_for(game, TokenKind.EDIT, token=self.token), self.capability, False
            ).capabilities
        user, by_session = request_user(self.request)
        grant = grant_for(game, TokenKind.EDIT, user, token=self.token)
        return _allowed(self.request, grant, self.capability, by_session).capabilities
