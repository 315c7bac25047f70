"""The owners' pages of a club (settings, members, seasons): the one access call, made by
`club_page`, and the refusal pages. A private club of someone else is a 404; a public club's
visitor who is not an owner is told who may change it (403), or asked to log in."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render

from clubs.access import ClubCapability, ClubGrant, club_for_user
from clubs.errors import NotAnOwner, NotFoundInClub
from scoring.form_once import form_once

PageView = Callable[..., HttpResponse]


def club_page(
    need: ClubCapability = ClubCapability.MANAGE, *, methods: Sequence[str] = ("GET", "HEAD")
) -> Callable[[PageView], PageView]:
    """Decorate `view(request, grant, **kwargs)` reached by `<id:club_id>`: the club if the user may
    do `need` to it. Every POST is carried out once per form key (a double tap writes once)."""

    def decorate(view: PageView) -> PageView:
        once = form_once(view)

        @functools.wraps(view)
        def wrapper(request: HttpRequest, club_id: int, **kwargs: Any) -> HttpResponse:
            try:
                grant = club_for_user(request.user, club_id, need)
            except NotFoundInClub as missing:
                raise Http404(missing.message) from None
            except NotAnOwner as refused:
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                return render(
                    request, "clubs/manage_forbidden.html", {"problems": refused.problems}, status=403
                )
            if request.method not in methods:
                return HttpResponseNotAllowed(list(methods))
            try:
                return once(request, grant, **kwargs)
            except NotFoundInClub as missing:  # a member or season of the URL not in this club
                raise Http404(missing.message) from None

        return wrapper

    return decorate


def login_first(request: HttpRequest, why: str) -> HttpResponse | None:
    """The access check of a page for any logged-in user (an invitation): None when logged in,
    else the login page (then back here), telling `why`."""
    if request.user.is_authenticated:
        return None
    messages.info(request, why)
    return redirect_to_login(request.get_full_path())


def club_home_url(grant: ClubGrant) -> str:
    """The club's home page (its leaderboard)."""
    return f"/clubs/{grant.club.pk}/"
