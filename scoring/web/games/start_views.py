"""The games list and starting a game: players, dealer, rules (`/games/`, `/games/new/`)."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from golfclub.core.errors import catch_refusal
from golfclub.core.form_fields import place_problems
from golfclub.core.inputs import text_or_none
from scoring import selectors, services
from scoring.models import Game
from scoring.rules import PRESETS
from scoring.web.games import display
from scoring.web.games._page_helpers import (
    SESSION_GAMES,
    SESSION_STARTED,
    START_KEY,
    recent_edit_tokens,
    remember_game,
)
from scoring.web.games.start_forms import (
    DEFAULT_SEATS,
    MAX_PLAYERS,
    OPTION_FIELDS,
    PlayersForm,
    StartForm,
    describe_preset,
)

# --------------------------------------------------------------------------------------------
# Games list and start


@require_http_methods(["GET"])
def games_list(request: HttpRequest) -> HttpResponse:
    """Your games (logged in) and the games this browser opened lately."""
    mine = list(selectors.games_for_user(request.user)[:50])  # none for an anonymous user
    recent_items = [item for item in request.session.get(SESSION_GAMES, []) if isinstance(item, list)]
    edit_tokens = [token for token, can_edit in recent_items if can_edit]
    view_tokens = [token for token, can_edit in recent_items if not can_edit]
    found: dict[str, tuple[Game, bool]] = {}
    if edit_tokens:
        for game in selectors.games_for_tokens(edit_tokens):
            found[game.edit_token] = (game, True)
    if view_tokens:
        for game in selectors.games_for_view_tokens(view_tokens):
            found[game.view_token] = (game, False)
    mine_ids = {game.pk for game in mine}
    recent = [found[token] for token, _can_edit in recent_items if token in found]
    recent = [(game, can_edit) for game, can_edit in recent if game.pk not in mine_ids]
    return render(
        request,
        "scoring/games_list.html",
        {
            "mine": [_list_item(game, True) for game in mine],
            "recent": [_list_item(game, can_edit) for game, can_edit in recent],
        },
    )


def _list_item(game: Game, can_edit: bool) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
    names = [seat.name for seat in seats]
    played = max((seat.holes_played for seat in seats), default=0)
    holes = selectors.holes_to_play(game.ruleset)
    return {
        "title": display.game_title(game, names),
        "url": reverse(
            "games:edit" if can_edit else "games:view",
            args=[game.edit_token if can_edit else game.view_token],
        ),
        "can_edit": can_edit,
        "preset": game.preset,
        "status": game.get_status_display(),
        "finished": game.status == "finished",
        "winners": game.winners,
        # "Ended early after hole 5 of 9": said beside the winner, so nobody takes it for a full game.
        "ended_early": selectors.ended_early_text(holes, played) if game.ended_early else "",
        "played": played,
        "holes": holes,
        "updated": game.updated_at,
        "players": ", ".join(f"{seat.name} {seat.total}" for seat in seats),
    }


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    """Start a game in two screens: rules and players, then the first dealer.

    Screen 1 is a GET form, so its answers sit in the URL: reload and back keep them. Screen 2 posts
    them back in hidden fields; a start key makes a resubmitted screen 2 open the game it created.
    """
    if request.method == "POST":
        return _start_game(request)
    if request.GET.get("step") == "dealer" and "add" not in request.GET:
        form = PlayersForm(request.GET)
        if form.is_valid():
            start = StartForm(
                initial={"start_key": uuid.uuid4().hex, "first_dealer": 0}, names=form.player_names
            )
            return _dealer_screen(request, start, form)
        return _players_screen(request, form, status=400)
    ruleset = request.GET.get("ruleset", "official")
    initial = {name: request.GET.get(name, "") for name in OPTION_FIELDS}
    shown = PlayersForm(initial={**initial, "ruleset": ruleset if ruleset in PRESETS else "official"})
    shown.raw_players = request.GET.getlist("player")
    return _players_screen(request, shown, extra_seat="add" in request.GET)


def _players_screen(
    request: HttpRequest, form: PlayersForm, *, status: int = 200, extra_seat: bool = False
) -> HttpResponse:
    """Screen 1: the ruleset and the seats (four to start with, one more per "Add a player")."""
    typed = [" ".join(str(name).split()) for name in form.raw_players][:MAX_PLAYERS]
    if extra_seat:
        typed = [*[name for name in typed if name][: MAX_PLAYERS - 1], ""]
    seats = typed + [""] * max(0, DEFAULT_SEATS - len(typed))
    recent_names = selectors.recent_player_names(request.user, edit_tokens=recent_edit_tokens(request))
    return render(
        request,
        "scoring/game_new_players.html",
        {"form": form, "seats": seats, "recent_names": recent_names, "max_players": MAX_PLAYERS},
        status=status,
    )


def _dealer_screen(
    request: HttpRequest, form: StartForm, answers: PlayersForm, *, status: int = 200
) -> HttpResponse:
    """Screen 2: who deals first (and an optional title), with screen 1's answers carried along."""
    names = answers.player_names
    ruleset_name = answers.cleaned_data["ruleset"]
    back_query = [("ruleset", ruleset_name), *answers.options_query(), *(("player", n) for n in names)]
    resolved = answers.cleaned_data.get("resolved") or PRESETS[ruleset_name]
    return render(
        request,
        "scoring/game_new_dealer.html",
        {
            "form": form,
            "names": names,
            "options": answers.options_query(),
            "ruleset_name": ruleset_name,
            "ruleset_label": describe_preset(resolved),
            "back_url": f"{reverse('games:new')}?{urlencode(back_query)}",
        },
        status=status,
    )


def _shared_start_key(start_key: str) -> str | None:
    """The start key to keep in the database: only one as unguessable as those we hand out.

    In the database the key finds its game for any browser and answers its edit link, so a
    made-up key ("k1") that another client could make up too is only remembered in this session.
    """
    return start_key if START_KEY.fullmatch(start_key) else None


def _start_game(request: HttpRequest) -> HttpResponse:
    """Screen 2 posted: start the game, or open the one this start form already started.

    The start key is unique in the database (`Game.start_key`), so a form sent twice, even by two
    requests at the same moment, makes one game and both answers open it. The session copy only
    spares this browser a query and a validation when it resends a form.
    """
    form = StartForm(request.POST)
    start_key = text_or_none(request.POST.get("start_key"), max_length=64) or ""
    started = request.session.get(SESSION_STARTED, {})
    if start_key and start_key in started:
        # The start screen was submitted again (back button, double tap): open the game it made.
        return redirect("games:edit", token=started[start_key])
    if not form.is_valid():
        screen_1 = ("ruleset", *OPTION_FIELDS)
        if (
            form.player_errors
            or "resolved" not in form.cleaned_data
            or any(f in form.errors for f in screen_1)
        ):
            return _players_screen(request, form, status=400)
        return _dealer_screen(request, form, form, status=400)
    with catch_refusal() as refused:
        game = services.create_game(
            players=form.player_names,
            ruleset=form.ruleset_spec(form.cleaned_data),
            first_dealer=form.cleaned_data["first_dealer"],
            owner=request.user,  # none for an anonymous user (the service decides)
            title=form.cleaned_data.get("title", ""),
            start_key=_shared_start_key(start_key),
        )
    if refused:
        place_problems(form, refused.problems)
        return _dealer_screen(request, form, form, status=refused.status)
    if start_key:
        started = {**started, start_key: game.edit_token}
        request.session[SESSION_STARTED] = dict(list(started.items())[-20:])
    remember_game(request, game, True)
    messages.success(request, _("Game started. Bookmark this page: its link is the scorer's link."))
    return redirect("games:edit", token=game.edit_token)
