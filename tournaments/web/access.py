"""The access decorator of the tournament pages: `@tournament_page(Action.RUN)`.

It loads the tournament of the URL's `pk`, asks `tournaments.access.require` and either calls the
view with a `TournamentPage` (the tournament, the user's role and what they may do) or answers:

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
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.form_once import write_form_once
from scoring.rules.errors import Problem
from tournaments.access import Action, Role, allowed_actions, require
from tournaments.errors import NotAllowed, NotFoundInTournament
from tournaments.models import Tournament

READ_METHODS = ("GET", "HEAD")
WRITE_METHODS = ("POST",)
PageView = Callable[..., HttpResponse]


@dataclass(frozen=True)
class TournamentPage:
    """What a page knows of its request: the tournament, the user's role and their actions."""

    tournament: Tournament
    role: Role | None
    actions: frozenset[Action]

    @property
    def can_run(self) -> bool:
        """Settings, players, seating, publishing, finalizing."""
        return Action.RUN in self.actions

    @property
    def is_staff(self) -> bool:
        """The dashboard, live standings, the log, the table links."""
        return Action.SEE_LIVE in self.actions

    @property
    def can_staff(self) -> bool:
        """Adding and removing co-directors and officials (the director only)."""
        return Action.STAFF in self.actions

    def context(self, **extra: Any) -> dict[str, Any]:
        """The template context every tournament page shares, plus `extra`."""
        return {"tournament": self.tournament, "page": self, **extra}


def tournament_page(
    action: Action, *, methods: Sequence[str] = READ_METHODS
) -> Callable[[PageView], PageView]:
    """Decorate `view(request, page, **kwargs)` reached by `<id:pk>` in its URL; `action` is what
    the page needs (its forms may check more: a VIEW page shows its forms to those who RUN)."""

    def decorate(view: PageView) -> PageView:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
            tournament = Tournament.objects.filter(pk=pk).first() if pk < 2**63 else None
            if tournament is None:
                raise Http404(_("No such tournament."))
            try:
                role = require(request.user, tournament, action)
            except NotFoundInTournament:
                raise Http404(_("No such tournament.")) from None
            except NotAllowed as refused:
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                return refusal(request, tournament, refused.problems)
            if request.method not in methods:
                return HttpResponseNotAllowed(list(methods))
            page = TournamentPage(tournament, role, allowed_actions(request.user, tournament, role))
            if request.method in WRITE_METHODS:  # a form's one-time key: a double tap writes once
                return write_form_once(
                    request, lambda: view(request, page, **kwargs), about=f"tournament:{tournament.pk}"
                )
            return view(request, page, **kwargs)

        return wrapper

    return decorate


def refusal(request: HttpRequest, tournament: Tournament | None, problems: Sequence[Problem]) -> HttpResponse:
    """403: the page that says who may do this."""
    return render(
        request,
        "tournaments/forbidden.html",
        {"tournament": tournament, "problems": problems},
        status=403,
    )
