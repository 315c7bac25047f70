"""A tournament's club and its players' links to the club's members (`/tournaments/<id>/club/`):
choose the club (one the director owns), confirm the name matches offered, link a player by hand,
clear a link. Each button is a POST answered by the page again (or its errors)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.access import clubs_of
from golfclub.core.errors import catch_refusal
from tournaments.access import Action
from tournaments.services import club_links
from tournaments.web.access import FORM_METHODS, TournamentPage, tournament_page_for


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


def tournament_club(request: HttpRequest, pk: int) -> HttpResponse:
    """The club setting and the players' member links."""
    page = tournament_page_for(request, pk, Action.RUN, methods=FORM_METHODS)
    return page.write_once(request, lambda: _tournament_club(request, page))


def _tournament_club(request: HttpRequest, page: TournamentPage) -> HttpResponse:
    if request.method != "POST":
        return _page(request, page)
    tournament = page.tournament
    verb, _sep, argument = request.POST.get("action", "").partition(":")
    with catch_refusal() as refused:
        if verb == "club":
            chosen = request.POST.get("club", "")
            club_links.set_tournament_club(tournament, _whole(chosen) if chosen else None, actor=request.user)
            messages.success(request, _("The tournament's club is saved."))
        elif verb in ("confirm", "clear", "link") or verb == "confirm_all":
            changed = _links(request, page, verb, argument)
            messages.success(
                request, ngettext("%(n)s link saved.", "%(n)s links saved.", changed) % {"n": changed}
            )
    if refused:
        return _page(request, page, errors=refused.messages, status=refused.status)
    return redirect("tournaments:club", pk=tournament.pk)


def _links(request: HttpRequest, page: TournamentPage, verb: str, argument: str) -> int:
    """Carry out one of the link buttons; answer the links changed."""
    tournament = page.tournament
    if verb == "confirm_all":
        return club_links.confirmed_suggestions(tournament, actor=request.user)
    entrant_id = _whole(argument if verb != "link" else request.POST.get("player", ""))
    if entrant_id is None:
        return 0
    if verb == "confirm":
        return club_links.confirmed_suggestions(tournament, [entrant_id], actor=request.user)
    member_id = _whole(request.POST.get("member", "")) if verb == "link" else None
    return club_links.link_entrants(tournament, {entrant_id: member_id}, actor=request.user)


def _page(
    request: HttpRequest, page: TournamentPage, *, errors: list[str] | None = None, status: int = 200
) -> HttpResponse:
    tournament = page.tournament
    links = club_links.entrant_links(tournament)
    members = club_links.linkable_members(tournament)
    context = page.context(
        clubs=clubs_of(tournament.director),
        links=links,
        members=members,
        unlinked=[link.entrant for link in links if link.member is None],
        suggestions=sum(1 for link in links if link.suggestion is not None),
        errors=errors or [],
    )
    return render(request, "tournaments/club.html", context, status=status)
