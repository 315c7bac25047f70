"""The access call of the tournament pages: `page = tournament_page_for(request, pk, Action.RUN)`.

The first line of every page reached by a tournament's id (`<id:pk>` in its URL). It makes the one
access call of `tournaments.access` and returns a `TournamentPage` (its `TournamentGrant`: the
tournament, the user's role and what they may do), or raises the refusal, which no view answers
itself (`golfclub.core.errors.refused_page` does, from `golfclub.middleware.PageRefusalMiddleware`;
a 404 is the site's 404 page, Django's handler):

- no such tournament, or a private one the user may not see: `Http404`;
- anonymous on a page that needs a role: `LoginFirst`, to the login page, back here afterwards;
- logged in without the role: `Forbidden`, 403, a page saying who may;
- a method the page does not take: `MethodNotTaken`, 405 (after access, as for every page).

A page that takes POST then carries it out through `page.write_once(request, write)`
(`scoring.form_once.write_form_once`): sent twice with its form's one-time key, it is carried out
once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from golfclub.core.errors import LoginFirst, MethodNotTaken, PageRefusal
from golfclub.core.page_methods import FORM_METHODS as FORM_METHODS
from golfclub.core.page_methods import POST_ONLY as POST_ONLY
from golfclub.core.page_methods import READ_METHODS as READ_METHODS
from scoring.access import Capability, TokenKind
from scoring.form_once import write_form_once
from scoring.rules.errors import Problem
from scoring.web.games.access import grant_or_404
from tournaments.access import Action, TournamentGrant, refuse_unless_allowed, tournament_grant
from tournaments.errors import NotAllowed, NotFoundInTournament
from tournaments.models import TABLE_MANAGER, Table, Tournament


class TournamentPage(TournamentGrant):
    """What a page knows of its request: the tournament, the user's role and their actions (the
    `TournamentGrant` of `tournament_for_user`), and the context every tournament page shares."""

    def context(self, **extra: Any) -> dict[str, Any]:
        """The template context every tournament page shares, plus `extra`."""
        return {"tournament": self.tournament, "page": self, **extra}

    def write_once(self, request: HttpRequest, write: Callable[[], HttpResponse]) -> HttpResponse:
        """`write()` (the page's answer) once per form key of a POST (`write_form_once`, about this
        tournament, whose deletion takes its keys along); any other method: `write()`."""
        return write_form_once(request, write, about=f"tournament:{self.tournament.pk}")


def tournament_page_for(
    request: HttpRequest, pk: int, action: Action, *, methods: Sequence[str] = READ_METHODS
) -> TournamentPage:
    """THE access call of a tournament page, its first line: `page = tournament_page_for(request,
    pk, Action.RUN)`. The tournament `pk` with the user's role and actions when they include
    `action` (what the page needs: its forms may check more, a VIEW page shows its forms to those
    who RUN) and the page takes the request's method (`methods`); else raise the refusal (see the
    module docstring), answered in one place. The method is checked after access: a refused
    visitor is told so, not about the method."""
    grant = tournament_grant(request.user, pk)
    if grant is None:
        raise Http404(_("No such tournament."))
    refuse_page_unless(request, grant, action)
    if request.method not in methods:
        raise MethodNotTaken(methods)
    return TournamentPage(grant.tournament, grant.role, grant.actions)


def refuse_page_unless(
    request: HttpRequest, grant: TournamentGrant, action: Action, *, login_then: str | None = None
) -> None:
    """Nothing when `grant` allows `action`; else raise its refusal as a page's: 404 for a tournament
    the user may not see, the login page (then `login_then`, else this page) for an anonymous user,
    else `Forbidden` (403, who may)."""
    try:
        refuse_unless_allowed(request.user, grant.actions, action)
    except NotFoundInTournament:
        raise Http404(_("No such tournament.")) from None
    except NotAllowed as refused:
        if not request.user.is_authenticated:
            raise LoginFirst(login_then) from None  # None: back to the page it was asked from
        raise Forbidden(grant.tournament, refused.problems) from None


class Forbidden(PageRefusal):
    """403: the page that says who may do this."""

    def __init__(self, tournament: Tournament | None, problems: Sequence[Problem]) -> None:
        super().__init__(403, "tournaments/forbidden.html", {"tournament": tournament, "problems": problems})


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
