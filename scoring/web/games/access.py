"""The access call of the live-game pages: `grant = game_for_page(request, token, capability)`.

The first line of every page reached by a game's link. It resolves the URL's token, decides with
`scoring.access.decide` (token and logged-in user) and returns the `GameGrant`, or raises the
refusal, which no view answers itself (`golfclub.core.errors.refused_page` does, from
`golfclub.middleware.PageRefusalMiddleware`):

- no game has the token: `Http404` (the site's 404 page);
- the grant may only watch and the page writes (or any method but GET/HEAD on a read-only page):
  `ReadOnlyLink`, 403, the "This link can only watch" page;
- `manage` through the table link of a managed game: `ManagedGame`, 409, a page saying what
  manages the game;
- a method the page does not take: `MethodNotTaken`, 405.

The capability is checked before the method, so a read-only link gets its 403 whatever it tries.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from golfclub.core.errors import MethodNotTaken, PageRefusal
from golfclub.core.page_methods import FORM_METHODS as FORM_METHODS
from golfclub.core.page_methods import POST_ONLY as POST_ONLY
from golfclub.core.page_methods import READ_METHODS as READ_METHODS
from scoring.access import Capability, GameGrant, Refusal, decide, managed_refusal_message
from scoring.models import Game
from scoring.web.games import display

#: `methods=ANY_METHOD`: the page takes whatever method it is sent.
ANY_METHOD: None = None


class ReadOnlyLink(PageRefusal):
    """403: this link (or this user) may only watch the game."""

    def __init__(self, game: Game) -> None:
        context = {"game": game, "title": display.game_title(game)}
        super().__init__(403, "scoring/game_forbidden.html", context)


class ManagedGame(PageRefusal):
    """409: the players, rules and deletion of a managed game are set by what manages it."""

    def __init__(self, grant: GameGrant) -> None:
        game = grant.game
        super().__init__(
            409,
            "scoring/game_managed.html",
            {
                "game": game,
                "title": display.game_title(game),
                "message": managed_refusal_message(game),
                "token": grant.token,
            },
        )


def grant_or_404(request: HttpRequest, token: str) -> GameGrant:
    """The grant of this request on the game behind `token`, whatever it allows, or a 404."""
    grant = decide(token, getattr(request, "user", None))
    if grant is None:
        raise Http404(_("No game has this link. Check that the whole link was copied."))
    return grant


def game_for_page(
    request: HttpRequest,
    token: str,
    capability: Capability,
    *,
    methods: Sequence[str] | None = READ_METHODS,
) -> GameGrant:
    """The grant of this request on the game behind `token` if it allows `capability` and the page
    takes the request's method (`methods`; `ANY_METHOD`: any); else raise the refusal (404, 403,
    409, 405: see the module docstring).

    A page for either link (`e/` and `v/` share it) passes `link_capability(can_edit)`. A read-only
    page (`capability` is `view`) answers any method but its own with the 403 too: it writes nothing.
    """
    grant = grant_or_404(request, token)
    reason = grant.refusal(capability)
    if reason is Refusal.MANAGED:
        raise ManagedGame(grant)
    if reason is not None:
        raise ReadOnlyLink(grant.game)
    if methods is not None and request.method not in methods:
        if capability is Capability.VIEW:
            raise ReadOnlyLink(grant.game)
        raise MethodNotTaken(methods)
    return grant


def link_capability(can_edit: bool) -> Capability:
    """What a page both links have needs "as the link says": the scorer's `e/` URL (`can_edit`)
    `score`, the watchers' `v/` URL `view`."""
    return Capability.SCORE if can_edit else Capability.VIEW
