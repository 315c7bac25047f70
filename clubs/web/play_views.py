"""Starting a club's game (`/clubs/<id>/games/new/`, owners only): members picked in seat order,
guests typed, the first dealer and the rules as /games/new/ offers them; it starts the game and
opens its board.

The page keeps its state in the form (hidden `seat` fields, "m:<id>" or "g:<name>"), so each tap
(add a member, move or remove a seat, add a guest) is a plain POST that shows the page again: it
works on any phone without JavaScript. A start key (as /games/new/ hands out) makes a double
submit start one game.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from clubs.access import ClubCapability, ClubGrant, club_for_user
from clubs.models import Member
from clubs.services.club_games import start_club_game
from clubs.web.play_forms import GUEST, ClubGameForm, parse_seats, seat_name, seat_value
from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from golfclub.core.limits import MAX_PLAYERS
from scoring.web.games._page_helpers import START_KEY, remember_game
from scoring.web.games.start_forms import OPTION_FIELDS

_KEPT_FIELDS = ("ruleset", *OPTION_FIELDS, "first_dealer", "title", "start_key")


@require_http_methods(["GET", "POST"])
def new_club_game(request: HttpRequest, club_id: int) -> HttpResponse:
    """The start page of a club's game; a POST either edits the seats or starts the game."""
    grant = club_for_user(request.user, club_id, ClubCapability.MANAGE)
    members = {m.pk: m for m in grant.club.members.filter(retired_at__isnull=True).order_by("name_key")}
    if request.method == "GET":
        form = ClubGameForm(initial={"ruleset": "official", "start_key": uuid.uuid4().hex})
        return _page(request, grant, form, [], members)
    seats, seat_errors = parse_seats(request.POST.getlist("seat"), members)
    action = request.POST.get("action", "start")
    if action != "start":
        seats = _edited(seats, action, request.POST.get("guest", ""), members)
        kept = {name: request.POST.get(name, "") for name in _KEPT_FIELDS}
        return _page(request, grant, ClubGameForm(initial=kept, seats=seats), seats, members)
    form = ClubGameForm(request.POST, seats=seats)
    status = 400
    if form.is_valid() and not seat_errors:
        start_key = form.cleaned_data.get("start_key") or ""
        with catch_refusal() as refused:
            game = start_club_game(
                grant.club,
                seats=seats,
                ruleset=form.ruleset_spec(form.cleaned_data),
                first_dealer=form.cleaned_data.get("first_dealer") or 0,
                title=form.cleaned_data.get("title", ""),
                owner=request.user,
                start_key=start_key if START_KEY.fullmatch(start_key) else None,
            )
        if refused:
            place_problems(form, refused.problems)
            status = refused.status
        else:
            remember_game(request, game, True)
            return redirect("games:edit", token=game.edit_token)
    for message in seat_errors:
        form.add_error(None, message)
    return _page(request, grant, form, seats, members, status=status)


def _edited(
    seats: list[Member | str], action: str, guest: str, members: dict[int, Member]
) -> list[Member | str]:
    """The seats after one tap: "add:m:<id>", "guest" (the typed name), "up:<i>", "down:<i>", "remove:<i>"."""
    verb, _sep, argument = action.partition(":")
    seats = list(seats)
    if verb == "add" and len(seats) < MAX_PLAYERS:
        added, _errors = parse_seats([argument], members)
        seats.extend(seat for seat in added if seat not in seats)
    elif verb == "guest" and guest.strip() and len(seats) < MAX_PLAYERS:
        seats.extend(parse_seats([GUEST + guest], members)[0])
    elif verb in ("up", "down", "remove") and argument.isdigit() and int(argument) < len(seats):
        index = int(argument)
        if verb == "remove":
            seats.pop(index)
        else:
            other = index - 1 if verb == "up" else index + 1
            if 0 <= other < len(seats):
                seats[index], seats[other] = seats[other], seats[index]
    return seats


def _page(
    request: HttpRequest,
    grant: ClubGrant,
    form: ClubGameForm,
    seats: list[Member | str],
    members: dict[int, Member],
    *,
    status: int = 200,
) -> HttpResponse:
    seated = {seat.pk for seat in seats if isinstance(seat, Member)}
    context: dict[str, Any] = {
        "club": grant.club,
        "form": form,
        "seats": [
            {"value": seat_value(seat), "name": seat_name(seat), "guest": isinstance(seat, str)}
            for seat in seats
        ],
        "available": [member for pk, member in members.items() if pk not in seated],
        "full": len(seats) >= MAX_PLAYERS,
        "max_players": MAX_PLAYERS,
    }
    return render(request, "clubs/play_new_game.html", context, status=status)
