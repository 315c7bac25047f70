"""The access decorator of the live-game pages: `@game_page(capability)`.

It resolves the URL's token, decides with `scoring.access.decide` (token and logged-in user) and
either calls the view with the `GameGrant` in place of the token, or answers the refusal:

- no game has the token: 404;
- the grant may only watch and the page writes (or any method but GET/HEAD on a read-only page):
  403, the "This link can only watch" page;
- `manage` through the table link of a managed game: 409, a page saying what manages the game;
- a method the page does not take: 405.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.access import Capability, GameGrant, Refusal, decide, managed_refusal_message
from scoring.models import Game
from scoring.web.games import display

READ_METHODS = ("GET", "HEAD")
PageView = Callable[..., HttpResponse]


def grant_or_404(request: HttpRequest, token: str) -> GameGrant:
    """The grant of this request on the game behind `token`, or a 404."""
    grant = decide(token, getattr(request, "user", None))
    if grant is None:
        raise Http404(_("No game has this link. Check that the whole link was copied."))
    return grant


def refuse_read_only(request: HttpRequest, game: Game) -> HttpResponse:
    """403: this link (or this user) may only watch the game."""
    return render(
        request, "scoring/game_forbidden.html", {"game": game, "title": display.game_title(game)}, status=403
    )


def refuse_managed(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """409: the players, rules and deletion of a managed game are set by what manages it."""
    game = grant.game
    return render(
        request,
        "scoring/game_managed.html",
        {
            "game": game,
            "title": display.game_title(game),
            "message": managed_refusal_message(game),
            "token": grant.token,
        },
        status=409,
    )


def refusal_page(request: HttpRequest, grant: GameGrant, capability: Capability) -> HttpResponse | None:
    """The page answering a refused `capability`, or None when the grant allows it."""
    reason = grant.refusal(capability)
    if reason is None:
        return None
    if reason is Refusal.MANAGED:
        return refuse_managed(request, grant)
    return refuse_read_only(request, grant.game)


def game_page(
    capability: Capability | None = None, *, methods: Sequence[str] = READ_METHODS
) -> Callable[[PageView], PageView]:
    """Decorate a page `view(request, grant, **kwargs)` reached by `<token>` in its URL.

    `capability` is what the page needs; None means "as the link says": the URL's `can_edit` argument
    (the scorer's `e/` pages, True) needs `score`, the watchers' `v/` pages (False) `view`. The
    capability is checked before the method, so a read-only link gets its 403 whatever it tries;
    a read-only page answers any method but GET/HEAD with that 403 too (it writes nothing).
    """

    def decorate(view: PageView) -> PageView:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
            needed = capability or (Capability.SCORE if kwargs.get("can_edit") else Capability.VIEW)
            grant = grant_or_404(request, token)
            refused = refusal_page(request, grant, needed)
            if refused is not None:
                return refused
            if request.method not in methods:
                if needed is Capability.VIEW:
                    return refuse_read_only(request, grant.game)
                return HttpResponseNotAllowed(list(methods))
            return view(request, grant, **kwargs)

        return wrapper

    return decorate
