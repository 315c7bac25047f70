"""A player's own page, reached by their personal link or its QR (`/tournaments/player/<token>/`),
its polled part (ETag and 304 while the event has not moved, as the public leaderboard), the
one-tap check-in a staff member gets there after scanning the player's QR, and the director's
printable sheet of every player's QR.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from golfclub.core.errors import flash_refusal
from golfclub.core.qr import qr_svg
from scoring.form_once import write_form_once
from tournaments import services
from tournaments.access import Action, grant_on, player_link_grant
from tournaments.models import Entrant
from tournaments.web.access import refuse_page_unless, tournament_page_for
from tournaments.web.event_day_views import LEADERBOARD_SECONDS
from tournaments.web.player_page import PlayerPage, page_etag, player_page


class UnknownLink(Http404):
    """No player has the link: answered by `unknown_link` (a page that says so in words)."""


def _entrant_of_link(token: str) -> Entrant:
    """The player whose personal link this is, or `UnknownLink`."""
    entrant = Entrant.objects.select_related("tournament").filter(token=token).first() if token else None
    if entrant is None:
        raise UnknownLink()
    return entrant


def unknown_link(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer an unknown link with a 404 page that says what happened and what to do."""

    @functools.wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except UnknownLink:
            message = _(
                "No player has this link. Check that the whole link was copied, or ask the director "
                "for your QR code again."
            )
            return render(request, "404.html", {"message": message}, status=404)

    return answer


def player_link(request: HttpRequest, entrant: Entrant) -> str:
    """The absolute URL of `entrant`'s own page (what their QR code holds)."""
    return request.build_absolute_uri(reverse("tournaments:player-home", args=[entrant.token]))


def _context(request: HttpRequest, found: PlayerPage) -> dict[str, object]:
    return {"tournament": found.tournament, "found": found, "poll_seconds": LEADERBOARD_SECONDS}


@require_http_methods(["GET", "HEAD"])
@unknown_link
def player_home(request: HttpRequest, token: str) -> HttpResponse:
    """The player's page: their table now, their scores, their place, the calls that concern them."""
    entrant = _entrant_of_link(token)
    grant = player_link_grant(request.user, entrant.tournament)
    found = player_page(entrant, grant)
    context = _context(request, found)
    context["qr"] = qr_svg(player_link(request, found.entrant), label=_("QR code of this page's link"))
    response = render(request, "tournaments/player_home.html", context)
    response["ETag"] = page_etag(entrant, grant)
    response["Cache-Control"] = "private, no-cache"
    # The link is the key: the page is not for search engines, nor sent on as a referrer.
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "same-origin"  # no-referrer would make the form's Origin "null" (CSRF)
    return response


@require_http_methods(["GET", "HEAD"])
@unknown_link
def player_home_live(request: HttpRequest, token: str) -> HttpResponse:
    """The page's live part alone (polled): 304 while the tournament has not moved."""
    entrant = _entrant_of_link(token)
    grant = player_link_grant(request.user, entrant.tournament)
    # The ETag needs only the tournament's version and who asks: a poll that finds nothing new
    # reads no standings at all.
    etag = page_etag(entrant, grant)
    if (unchanged := get_conditional_response(request, etag=etag)) is not None:
        response = unchanged
    else:
        found = player_page(entrant, grant)
        response = render(request, "tournaments/player_home.html#live", _context(request, found))
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@require_http_methods(["POST"])
@unknown_link
def player_home_check_in(request: HttpRequest, token: str) -> HttpResponse:
    """ "Check in <name>": a staff member who scanned the player's QR marks them present."""
    entrant = _entrant_of_link(token)
    grant = grant_on(request.user, entrant.tournament)
    login_then = reverse("tournaments:player-home", args=[token])
    refuse_page_unless(request, grant, Action.CHECK_IN, login_then=login_then)
    # After the access decision, so that a refused copy is refused again, not "carried out once".
    return write_form_once(
        request, lambda: _check_in(request, entrant), about=f"tournament:{grant.tournament.pk}"
    )


def _check_in(request: HttpRequest, entrant: Entrant) -> HttpResponse:
    with flash_refusal(request):
        services.set_checked_in(entrant.tournament, entrant.pk, True, actor=request.user)
        messages.success(request, _("%(name)s is checked in.") % {"name": entrant.name})
    return redirect("tournaments:player-home", token=entrant.token)


def player_qr_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Every player's name and QR code on A4, to cut out and hand over (or to scan at check-in)."""
    page = tournament_page_for(request, pk, Action.RUN)
    entrants = list(page.tournament.entrants.order_by("name_key", "pk"))
    cards = [
        (
            entrant,
            qr_svg(
                player_link(request, entrant),
                label=_("QR code of %(name)s's own page") % {"name": entrant.name},
            ),
        )
        for entrant in entrants
    ]
    return render(request, "tournaments/print_player_qr.html", page.context(cards=cards))
