"""How the clubs' read-only pages reach their club: by id (owners; anyone for a public club) or by
a public club's read-only link (`/clubs/p/<token>/...`). One access call, made by the decorator;
a club, member or season the person may not see is a 404."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from clubs.access import ClubGrant, club_by_public_token, club_for_user
from clubs.errors import NotFoundInClub


@dataclass(frozen=True, slots=True)
class ClubPage:
    """The club a page shows, what the person may do, and how its links are made (the public link
    keeps its visitors on public URLs)."""

    grant: ClubGrant
    token: str | None = None  # the public link's token when reached by it

    @property
    def club(self) -> Any:
        """The club."""
        return self.grant.club

    @property
    def can_manage(self) -> bool:
        """Owners see the links to manage the club and start a game (never on the public link)."""
        return self.grant.can_manage and self.token is None

    def url(self, name: str, *args: Any) -> str:
        """The URL of the club's page `name` ("club", "season", "member"), public when reached so.
        A member's page is always the club's page's URL + `members/<id>/` (the templates rely on it)."""
        if self.token is not None:
            return reverse(f"clubs:public-{name}", args=[self.token, *args])
        return reverse(f"clubs:{name}", args=[self.club.pk, *args])


PageView = Callable[..., HttpResponse]


def club_page(view: PageView) -> PageView:
    """`view(request, page, **kwargs)` reached by `<id:club_id>`: the club's owners, or anyone for
    a public club."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, club_id: int, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, ClubPage(club_for_user(request.user, club_id)), **kwargs)
        except NotFoundInClub as error:
            raise Http404(str(error)) from None

    return wrapper


def public_club_page(view: PageView) -> PageView:
    """`view(request, page, **kwargs)` reached by a public club's `<token:token>`."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, ClubPage(club_by_public_token(token, request.user), token), **kwargs)
        except NotFoundInClub as error:
            raise Http404(str(error)) from None

    return wrapper
