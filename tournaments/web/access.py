"""The access decorator of the tournament pages: `@tournament_page(Action.RUN)`.

It makes the one access call of `tournaments.access` for the URL's `pk` and either calls the view
with a `TournamentPage` (its `TournamentGrant`: the tournament, the user's role and what they may
do) or answers:

- no such tournament, or a private one the user may not see: 404;
- anonymous on a page that needs a role: to the login page, back here afterwards;
- logged in without the role: 403, a page saying who may;
- a method the page does not take: 405.

A POST goes through `scoring.form_once.write_form_once`: sent twice with its form's one-time key, it is
carried out once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.access import Capability, TokenKind
from scoring.form_once import write_form_once
from scoring.rules.errors import Problem
from scoring.web.games.access import grant_or_404
from tournaments.access import Action, TournamentGrant, refuse_unless_allowed, tournament_grant
from tournaments.errors import NotAllowed, NotFoundInTournament
from tournaments.models import TABLE_MANAGER, Table, Tournament

READ_METHODS = ("GET", "HEAD")
WRITE_METHODS = ("POST",)
PageView = Callable[..., HttpResponse]


class TournamentPage(TournamentGrant):
    """What a page knows of its request: the tournament, the user's role and their actions (the
    `TournamentGrant` of `tournament_for_user`), and the context every tournament page shares."""

    def context(self, **extra: Any) -> dict[str, Any]:
        """The template context every tournament page shares, plus `extra`."""
        return {"tournament": self.tournament, "page": self, **extra}


def tournament_page(
    action: Action, *, methods: Sequence[str] = READ_METHODS
) -> Callable[[PageView], PageView]:
    """Decorate `view(request, page, **kwargs)` reached by `<id:pk>` in its URL; `action` is what
    the page needs (its forms may check more: a VIEW page shows its forms to those who RUN).

    A thin wrapper of the one access call (`tournament_for_user`, in its two steps: the grant, then
    its refusal) that answers the refusals as pages.
    """

    def decorate(view: PageView) -> PageView:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
            grant = tournament_grant(request.user, pk)
            if grant is None:
                raise Http404(_("No such tournament."))
            refused = refusal_page(request, grant, action)
            if refused is not None:
                return refused
            if request.method not in methods:
                return HttpResponseNotAllowed(list(methods))
            page = TournamentPage(grant.tournament, grant.role, grant.actions)
            if request.method in WRITE_METHODS:  # a form's one-time key: a double tap writes once
                return write_form_once(
                    request, lambda: view(request, page, **kwargs), about=f"tournament:{grant.tournament.pk}"
                )
            return view(request, page, **kwargs)

        return wrapper

    return decorate


def refusal_page(
    request: HttpRequest, grant: TournamentGrant, action: Action, *, login_then: str | None = None
) -> HttpResponse | None:
    """None when `grant` allows `action`; else its refusal as a page: 404 for a tournament the user
    may not see, the login page (then `login_then`, else this page) for an anonymous user, else 403."""
    try:
        refuse_unless_allowed(request.user, grant.actions, action)
    except NotFoundInTournament:
        raise Http404(_("No such tournament.")) from None
    except NotAllowed as refused:
        if not request.user.is_authenticated:
            return redirect_to_login(login_then or request.get_full_path())
        return refusal(request, grant.tournament, refused.problems)
    return None


def refusal(request: HttpRequest, tournament: Tournament | None, problems: Sequence[Problem]) -> HttpResponse:
    """403: the page that says who may do this."""
    return render(
        request,
        "tournaments/forbidden.html",
        {"tournament": tournament, "problems": problems},
        status=403,
    )


def table_of_link(request: HttpRequest, token: str) -> Table:
    """The access call of a table's pages: the table whose game has this edit token (decided by
    `scoring.access`, as every path to a game is: the table link scores), or 404 for any other
    link or game."""
    grant = grant_or_404(request, token)
    table = None
    if (
        grant.token_kind is TokenKind.EDIT
        and grant.allows(Capability.SCORE)
        and grant.game.managed_by == TABLE_MANAGER
    ):
        table = (
            Table.objects.select_related("round__tournament", "confirmed_by", "disputed_by")
            .filter(game_id=grant.game.pk)
            .first()
        )
    if table is None:
        raise Http404(_("No table has this link. Check that the whole link was copied."))
    table.game = grant.game
    return table
