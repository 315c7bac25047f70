"""What the owners' pages of a club (settings, members, seasons) share once their one access call
(`clubs.access.club_for_user(..., owners_page=True)`, at the top of each view) let the request in:
`page_answer` (the methods a page takes, and a POST carried out once per form key), the log-in
check of an invitation (`login_first`) and the club's home link.

A refusal is never answered here: the access call raises it and the one place answering every
page's refusal answers it (`clubs.errors`: the site's 404 page, `PageRefusalMiddleware`): a private
club of someone else is a 404; a public club's visitor who is not an owner is told who may change
it (403), or asked to log in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse

from clubs.access import ClubGrant
from golfclub.core.errors import MethodNotTaken
from scoring.form_once import write_form_once


def page_answer(
    request: HttpRequest, methods: Sequence[str], view: Callable[..., HttpResponse], *args: Any
) -> HttpResponse:
    """`view(request, *args)` once the access call let the request in: a method the page does not
    take is refused (405, raised and answered with every page's refusals); a POST is carried out
    once per form key (`write_form_once`: a double tap writes once). After the access call, so that
    a refused visitor is told so, not about the method or key."""
    if request.method not in methods:
        raise MethodNotTaken(methods)
    if request.method != "POST":
        return view(request, *args)
    return write_form_once(request, lambda: view(request, *args))


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
