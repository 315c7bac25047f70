"""Pages of live games: start a game, score holes, the scorecard, corrections, history and sharing.

Views stay thin: writes go through `scoring.services`, reads through `scoring.selectors`, every
score comes from the rules engine. Two kinds of link reach a game: the edit link (`e/<token>/`)
scores without an account; the view link (`v/<token>/`) only reads, and its scoreboard refreshes
itself by polling a partial that answers 304 while the game's version is unchanged. What a request
may do is decided by `scoring.access` through `@game_page(capability)`: views get a `GameGrant`.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import selectors, services
from scoring.access import Capability, GameGrant, TokenKind
from scoring.error_statuses import ANSWERED_ERRORS, status_for
from scoring.game_errors import (
    ChangeNotCurrent,
    GameError,
    HoleAlreadyRecorded,
    HoleGone,
    IdempotencyConflict,
    StaleVersion,
)
from scoring.inputs import SMALL_INT_MAX, clean_text, int_or_none, optional_int, text_or_none
from scoring.models import ChangeAction, Game, GameChange
from scoring.rules import PRESETS, RulesError, Ruleset
from scoring.rules.errors import Problem
from scoring.web.games import display
from scoring.web.games.access import game_page, grant_or_404, refuse_read_only
from scoring.web.games.charts import Series, cumulative_chart, legend
from scoring.web.games.forms import (
    DEFAULT_SEATS,
    MAX_PLAYERS,
    OPTION_FIELDS,
    ChangeForm,
    HoleDeleteForm,
    HoleForm,
    PlayersForm,
    StartForm,
    describe_preset,
    hole_initial,
    ruleset_choices,
)
from scoring.web.games.settings_forms import SeatRenameForm, TitleForm, cleaned_or_refuse
from scoring.web.qr import qr_svg

SESSION_GAMES = "golf_recent_games"  # [[token, can_edit], ...], newest first
SESSION_STARTED = "golf_started_games"  # {start_key: edit token}: a resubmitted start form opens its game
START_KEY = re.compile(r"[0-9a-f]{32}")  # uuid.uuid4().hex, as game_new hands it out
SESSION_SCORER = "golf_scorer_name"
RECENT_LIMIT = 30
HISTORY_ON_PAGE = 5


# --------------------------------------------------------------------------------------------
# Session, small helpers (access: scoring.access, decided by @game_page)


def _remember(request: HttpRequest, game: Game, can_edit: bool) -> None:
    """Keep the game in this browser's recent list (the session), the edit link winning over the view link."""
    recent = [
        item for item in request.session.get(SESSION_GAMES, []) if isinstance(item, list) and len(item) == 2
    ]
    if not can_edit and [game.edit_token, True] in recent:
        can_edit = True
    entry = [game.edit_token if can_edit else game.view_token, can_edit]
    if recent[:1] == [entry]:
        return  # already the latest: no session write
    recent = [item for item in recent if item[0] not in (game.edit_token, game.view_token)]
    request.session[SESSION_GAMES] = [entry, *recent][:RECENT_LIMIT]


def _recent_edit_tokens(request: HttpRequest) -> list[str]:
    """Edit tokens of the games this browser opened lately."""
    return [
        item[0]
        for item in request.session.get(SESSION_GAMES, [])
        if isinstance(item, list) and item[1:] == [True]
    ]


def _actor(request: HttpRequest) -> str:
    """Who is changing the game, for its history: the account, else the name this phone gave.

    A name typed in the hole form's "Scored by" field is kept in the session for the next holes.
    """
    if request.user.is_authenticated:
        return request.user.get_username()
    typed = " ".join(clean_text(request.POST.get("scorer", ""), _("Scored by")).split())[:40]
    if typed:
        request.session[SESSION_SCORER] = typed
    return typed or str(request.session.get(SESSION_SCORER, "")) or _("someone with the edit link")


def _etag(game: Game, can_edit: bool) -> str:
    """The scoreboard partial's ETag: the game's version, and which link is looking."""
    return f'W/"game-{game.pk}-v{game.version}-{"e" if can_edit else "v"}"'


def _problems_of(error: RulesError | GameError) -> list[Problem]:
    return list(getattr(error, "problems", ()) or [Problem("request", str(error))])


def _status_of(error: RulesError | GameError) -> int:
    return status_for(error)


# --------------------------------------------------------------------------------------------
# The scoreboard as the templates show it


def _board_context(
    request: HttpRequest, board: selectors.Scoreboard, grant: GameGrant, can_edit: bool
) -> dict[str, Any]:
    """Everything the scoreboard partial draws: the scorer's (`can_edit`) or the watchers' one."""
    game = board.game
    # The scorer's links carry the URL's token (an official may score through the view link); the
    # watchers' links always the view token.
    token = grant.token if can_edit else game.view_token
    names = [p.name for p in board.players]
    series = [Series(name, board.cumulative.get(name, ())) for name in names]
    history = selectors.game_history(game, limit=HISTORY_ON_PAGE + 1)
    replay_query = urlencode([("ruleset", board.ruleset.preset)] + [("player", name) for name in names])
    return {
        "game": game,
        "board": board,
        "title": display.game_title(game, names),
        "rows": display.score_rows(board, token, can_edit),
        "chart": cumulative_chart(series),
        "legend": legend(series),
        "outcome": display.outcome_context(board),
        "can_edit": can_edit,
        "token": token,
        "etag": _etag(game, can_edit),
        "poll_url": reverse("games:edit-scoreboard" if can_edit else "games:view-scoreboard", args=[token]),
        "history": [display.history_item(line) for line in history[:HISTORY_ON_PAGE]],
        "more_history": len(history) > HISTORY_ON_PAGE,
        "ruleset_label": describe_preset(board.ruleset),
        "managed_label": game.managed_label if game.is_managed else "",
        "can_manage": can_edit and grant.can_manage,
        "replay_url": f"{reverse('games:new')}?{replay_query}",
        "undo": _undo_item(game) if can_edit else None,
        "redo": _redo_item(game) if can_edit else None,
        "holes_total": board.ruleset.holes,
    }


def _undo_item(game: Game) -> dict[str, Any] | None:
    """The undo button: the change it reverts, and whether reverting it deletes a recorded hole (such an
    undo asks first, on its own page; undoing an edit or a delete stays one tap)."""
    line = selectors.undo_target(game)
    if line is None:
        return None
    return display.history_item(line) | {"deletes_hole": _undo_deletes_hole(line)}


def _undo_deletes_hole(line: selectors.HistoryLine) -> bool:
    """True when undoing this change removes a hole: it recorded one, or it redid such a recording."""
    if line.action == ChangeAction.CREATE:
        return True
    if line.action != ChangeAction.REDO:
        return False
    change = GameChange.objects.filter(pk=line.id).first()
    return change is not None and selectors.change_origin(change).action == ChangeAction.CREATE


def _redo_item(game: Game) -> dict[str, Any] | None:
    """The redo button: the undo it reverts (its id) and what it would apply again."""
    undo = selectors.redo_target_change(game)
    if undo is None:
        return None
    summary = display.change_summary(selectors.change_origin(undo))
    return {"id": undo.pk, "label": summary["label"], "subject": capfirst(summary["subject"])}


def _exports(game: Game, token: str) -> list[tuple[str, str]]:
    """Links to the backend's exports of this game."""
    return [
        (_("Scores as CSV"), reverse("api-game-export-csv", args=[token])),
        (_("Game as JSON"), reverse("api-game-export-json", args=[token])),
        (_("Results"), reverse("api-game-results", args=[token])),
    ]


# --------------------------------------------------------------------------------------------
# Games list and start


@require_http_methods(["GET"])
def games_list(request: HttpRequest) -> HttpResponse:
    """Your games (logged in) and the games this browser opened lately."""
    mine = list(selectors.games_for_user(request.user)[:50]) if request.user.is_authenticated else []
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
    holes = game.ruleset.get("holes") if isinstance(game.ruleset, dict) else None
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
    recent_names = selectors.recent_player_names(request.user, edit_tokens=_recent_edit_tokens(request))
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
    try:
        game = services.create_game(
            players=form.player_names,
            ruleset=form.ruleset_spec(form.cleaned_data),
            first_dealer=form.cleaned_data["first_dealer"],
            owner=request.user if request.user.is_authenticated else None,
            title=form.cleaned_data.get("title", ""),
            start_key=_shared_start_key(start_key),
        )
    except ANSWERED_ERRORS as error:
        for problem in _problems_of(error):
            form.add_error(None, problem.message)
        return _dealer_screen(request, form, form, status=_status_of(error))
    if start_key:
        started = {**started, start_key: game.edit_token}
        request.session[SESSION_STARTED] = dict(list(started.items())[-20:])
    _remember(request, game, True)
    messages.success(request, _("Game started. Bookmark this page: its link is the scorer's link."))
    return redirect("games:edit", token=game.edit_token)


# --------------------------------------------------------------------------------------------
# The game page and its live partial


@game_page(Capability.SCORE)
def game_edit(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """The scorer's page: scoreboard, next hole, corrections, undo, history, sharing, exports."""
    _remember(request, grant.game, grant.token_kind is TokenKind.EDIT)
    board = selectors.scoreboard(grant.game)
    context = _board_context(request, board, grant, True)
    context.update(
        {
            "exports": _exports(grant.game, grant.token),
            "wake_lock": True,
        }
    )
    return render(request, "scoring/game_detail.html", context)


@game_page(Capability.VIEW)
def game_view(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """The read-only live page: the scoreboard refreshes itself while the page is visible."""
    token = grant.token
    if grant.token_kind is TokenKind.EDIT:
        return redirect("games:edit", token=token)  # the scorer's link opens the scorer's page
    _remember(request, grant.game, False)
    board = selectors.scoreboard(grant.game)
    context = _board_context(request, board, grant, False)
    context["exports"] = _exports(grant.game, token)
    context["view_qr"] = qr_svg(
        request.build_absolute_uri(reverse("games:view", args=[token])),
        label=_("QR code of this page's link"),
    )
    return render(request, "scoring/game_detail.html", context)


@game_page()
def scoreboard_partial(request: HttpRequest, grant: GameGrant, can_edit: bool) -> HttpResponse:
    """The live part of the game page; 304 when the If-None-Match ETag still matches the version.

    The ETag is checked right after the one token lookup, before any scoreboard query.
    """
    etag = _etag(grant.game, can_edit)
    sent = [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]
    if etag in sent or etag.removeprefix("W/") in sent:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        return response
    board = selectors.scoreboard(grant.game)
    response = render(
        request, "scoring/game_detail.html#scoreboard", _board_context(request, board, grant, can_edit)
    )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@game_page()
def hole_scores(
    request: HttpRequest, grant: GameGrant, number: int, can_edit: bool, playoff: bool = False
) -> HttpResponse:
    """How each player's score of one recorded hole was made (a tap on a score of the scorecard)."""
    game, token = grant.game, grant.token
    board = selectors.scoreboard(game)
    line = _hole_or_404(game, number, playoff)
    label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
    return render(
        request,
        "scoring/game_hole_scores.html",
        {
            "game": game,
            "title": display.game_title(game),
            "hole_label": label % {"n": number},
            "line": line,
            "players": [display.entry_breakdown(entry, board.ruleset) for entry in line.entries],
            "ruleset_label": describe_preset(board.ruleset),
            "back_url": reverse("games:edit" if can_edit else "games:view", args=[token]),
            "edit_url": reverse("games:playoff-edit" if playoff else "games:hole-edit", args=[token, number])
            if can_edit
            else "",
        },
    )


@game_page()
def game_history(request: HttpRequest, grant: GameGrant, can_edit: bool) -> HttpResponse:
    """Every change to the game, newest first: who, when, before and after."""
    game, token = grant.game, grant.token
    history = selectors.game_history(game)
    return render(
        request,
        "scoring/game_history.html",
        {
            "game": game,
            "title": display.game_title(game),
            "history": [display.history_item(line) for line in history],
            "can_edit": can_edit,
            "back_url": reverse("games:edit" if can_edit else "games:view", args=[token]),
            "undo": _undo_item(game) if can_edit else None,
            "redo": _redo_item(game) if can_edit else None,
            "token": token,
        },
    )


@game_page(Capability.SCORE)
def game_share(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """The two links of the game, each with its QR code (the edit link only to those who hold it)."""
    game, token = grant.game, grant.token
    edit_url = (
        request.build_absolute_uri(reverse("games:edit", args=[game.edit_token]))
        if grant.token_kind is TokenKind.EDIT
        else ""
    )
    view_url = request.build_absolute_uri(reverse("games:view", args=[game.view_token]))
    return render(
        request,
        "scoring/game_share.html",
        {
            "game": game,
            "title": display.game_title(game),
            "token": token,
            "edit_url": edit_url,
            "view_url": view_url,
            "edit_qr": qr_svg(edit_url, label=_("QR code of the scorer's link")) if edit_url else "",
            "view_qr": qr_svg(view_url, label=_("QR code of the watch-only link")),
        },
    )


@game_page(Capability.MANAGE, methods=("GET", "HEAD", "POST"))
def game_settings(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """Names and rules: rename the game or a player (any time), change the ruleset (before hole 1).

    Each form on the page makes one change through one service call, so a change is never half-made.
    A managed game's table link gets a 409 instead: its names and rules are set by what manages it.
    """
    game, token = grant.game, grant.token
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        action = str(request.POST.get("action", ""))
        try:
            done = _apply_setting(request, game, action)
        except ANSWERED_ERRORS as error:
            errors[action] = [problem.message for problem in _problems_of(error)]
            status = _status_of(error)
        else:
            if done is None:
                errors["form"] = [_("Nothing to change: the form was incomplete. Use the forms below.")]
                status = 400
            else:
                messages.success(request, done)
                return redirect("games:settings", token=token)
    seats = list(game.seats.order_by("seat"))
    posted = request.POST if request.method == "POST" else {}
    if "rename" in errors and posted.get("seat") not in {str(seat.seat) for seat in seats}:
        errors["form"] = errors.pop("rename")  # no such seat: say it at the top
    return render(
        request,
        "scoring/game_settings.html",
        {
            "game": game,
            "title": display.game_title(game, [seat.name for seat in seats]),
            "token": token,
            "seats": [
                {
                    "index": seat.seat,
                    "name": seat.name,
                    "value": posted.get("name", seat.name)
                    if posted.get("seat") == str(seat.seat)
                    else seat.name,
                    "errors": errors.get("rename", []) if posted.get("seat") == str(seat.seat) else [],
                }
                for seat in seats
            ],
            "errors": errors,
            "title_value": posted.get("title", game.title) if posted else game.title,
            "frozen": game.is_frozen,
            "preset": game.preset,
            "presets": ruleset_choices(),
            "ruleset_label": describe_preset(selectors.game_ruleset(game)),
        },
        status=status,
    )


def _apply_setting(request: HttpRequest, game: Game, action: str) -> str | None:
    """Make the one change a settings form asks for; the message to show, or None if incomplete."""
    data = request.POST
    if action == "title":
        services.game_rename(game, cleaned_or_refuse(TitleForm, data)["title"])
        return _("Title saved.")
    if action == "rename" and data.get("seat"):
        rename = cleaned_or_refuse(SeatRenameForm, data)
        seat = services.seat_rename(game, rename["seat"], rename["name"])
        return _("Seat %(n)s is now %(name)s.") % {"n": seat.seat + 1, "name": seat.name}
    if action == "ruleset" and data.get("ruleset") in PRESETS:
        services.set_game_ruleset(game, str(data["ruleset"]), actor=_actor(request))
        return _("Ruleset changed to %(name)s.") % {"name": data["ruleset"]}
    return None


def read_only_refusal(request: HttpRequest, token: str, rest: str) -> HttpResponse:
    """Anything but reading under a view link: 403 with a page that says why.

    No capability opens these paths (they are the scorer's pages under the watchers' `v/` prefix),
    so this is not an access decision: an unknown token is a 404, an edit token a page that is not.
    """
    grant = grant_or_404(request, token)
    if grant.token_kind is TokenKind.EDIT:
        raise Http404(_("No such page."))
    return refuse_read_only(request, grant.game)


# --------------------------------------------------------------------------------------------
# Holes


def _request_hash(cleaned: dict[str, Any]) -> str:
    body = {"entries": cleaned["entries"], "ender": cleaned["ender_name"], "blocks": cleaned["blocks_marked"]}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _hole_context(
    game: Game,
    token: str,
    form: HoleForm,
    *,
    number: int,
    playoff: bool,
    dealer: str,
    first_player: str | None,
    board: selectors.Scoreboard,
    editing: selectors.HoleLine | None = None,
) -> dict[str, Any]:
    names = form.players
    dealer_index = names.index(dealer) if dealer in names else None
    first_index = names.index(first_player) if first_player in names else None
    preview_query = urlencode({"hole": editing.number if editing else "new", "playoff": int(playoff)})
    return {
        "game": game,
        "title": display.game_title(game, [p.name for p in board.players]),
        "form": form,
        "players": form.player_fields(dealer=dealer_index, first=first_index),
        "number": number,
        "playoff": playoff,
        "dealer": dealer,
        "first_player": first_player,
        "editing": editing,
        "token": token,
        "preview_url": f"{reverse('games:preview', args=[token])}?{preview_query}",
        "holes_total": board.ruleset.holes,
        "ruleset": board.ruleset,
        "ruleset_label": describe_preset(board.ruleset),
        "has_ender_penalty": board.ruleset.ender_penalty is not None,
        "wake_lock": True,
        "preview": display.preview_scores(form, board, editing=editing) if form.is_bound else None,
        "error_summary": form.error_summary() if form.is_bound else [],
    }


@game_page(Capability.SCORE, methods=("GET", "HEAD", "POST"))
def hole_new(request: HttpRequest, grant: GameGrant, playoff: bool = False) -> HttpResponse:
    """Record the next hole (or the next playoff hole): each grid by keypad or a typed total."""
    game, token = grant.game, grant.token
    board = selectors.scoreboard(game)
    upcoming = board.next_hole
    if upcoming is None or upcoming.is_playoff != playoff:
        if request.method == "POST" and _said_saved_meanwhile(request, game, playoff):
            return redirect("games:edit", token=token)
        if upcoming is None:
            messages.error(request, _("The match is over: no more holes to score."))
        elif playoff:
            messages.error(request, _("No sudden death is pending: score the next regular hole."))
        else:
            messages.error(request, _("The regular holes are over: the tie is settled by a playoff hole."))
        return redirect("games:edit", token=token)
    players = list(upcoming.players)
    ruleset = board.ruleset
    status = 200
    if request.method == "POST":
        form = HoleForm(request.POST, players=players, ruleset=ruleset)
        key = text_or_none(request.POST.get("idempotency_key"), max_length=64)  # the form names a bad one
        if form.is_valid():
            try:
                # The number the form was filled for is checked under the game lock: of two phones
                # saving the same hole, one records it and the other is told, its cards kept.
                hole = services.hole_record(
                    game,
                    entries=form.cleaned_data["entries"],
                    ender=form.cleaned_data["ender_name"],
                    playoff=playoff,
                    blocks_marked=form.cleaned_data["blocks_marked"] or None,
                    actor=_actor(request),
                    idempotency_key=key,
                    request_hash=_request_hash(form.cleaned_data),
                    expected_number=form.cleaned_data.get("number") or upcoming.number,
                )
            except HoleAlreadyRecorded as moved:
                return _hole_moved_on(request, grant, moved, playoff)
            except services.IdempotentReplay:
                messages.info(request, _("That hole was already saved (the form was sent twice)."))
                return _draft_done(
                    request, redirect("games:edit", token=token), game, upcoming.number, playoff
                )
            except IdempotencyConflict:
                messages.error(
                    request,
                    _(
                        "This form was already used to save a hole, so it was not saved again. "
                        "To change that hole, tap its number on the scorecard."
                    ),
                )
                return redirect("games:edit", token=token)
            except ANSWERED_ERRORS as error:
                form.add_problems(_problems_of(error))
                status = _status_of(error)
            else:
                messages.success(request, _saved_message(game, hole.number, playoff))
                response = redirect(f"{reverse('games:edit', args=[token])}#news")
                return _draft_done(
                    request, response, game, form.cleaned_data.get("number") or upcoming.number, playoff
                )
        else:
            status = 400
    else:
        form = HoleForm(initial={"idempotency_key": uuid.uuid4().hex}, players=players, ruleset=ruleset)
    return _new_hole_page(request, grant, form, upcoming, board, playoff, status=status)


def _new_hole_page(
    request: HttpRequest,
    grant: GameGrant,
    form: HoleForm,
    upcoming: selectors.NextHole,
    board: selectors.Scoreboard,
    playoff: bool,
    *,
    status: int,
    moved_saved: str = "",
) -> HttpResponse:
    """The hole screen for the next hole (`moved_saved`: what another phone saved meanwhile)."""
    context = _hole_context(
        grant.game,
        grant.token,
        form,
        number=upcoming.number,
        playoff=playoff,
        dealer=upcoming.dealer,
        first_player=upcoming.first_player,
        board=board,
    )
    context["scorer_name"] = request.session.get(SESSION_SCORER, "")
    context["moved_saved"] = moved_saved
    return render(request, "scoring/game_hole.html", context, status=status)


# The hole page keeps what is typed in the browser (localStorage, static/js/game.js) until the server
# has accepted the hole: this cookie, set only on that answer, names the draft the next page drops.
DRAFT_DONE_COOKIE = "golf_draft_done"


def draft_key(game: Game, number: int, playoff: bool) -> str:
    """The hole form's data-draft-key: "<game id>-<number>", "<game id>-p<number>" for a playoff hole."""
    return f"{game.pk}-{'p' if playoff else ''}{number}"


def _draft_done(
    request: HttpRequest, response: HttpResponse, game: Game, number: int, playoff: bool
) -> HttpResponse:
    """Tell the browser that the draft of this hole can go: the hole is saved."""
    response.set_cookie(
        DRAFT_DONE_COOKIE,
        draft_key(game, number, playoff),
        max_age=3600,
        path="/",
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def _said_saved_meanwhile(request: HttpRequest, game: Game, playoff: bool) -> bool:
    """For a hole form posted once the match (or the tie) is over: if its hole was saved, say by
    whom it was saved (this form, sent twice, or another phone) and what; True when said."""
    number = int_or_none(request.POST.get("number"), minimum=1, maximum=SMALL_INT_MAX)
    if number is None or selectors.hole_detail(game, number, playoff=playoff) is None:
        return False
    key = text_or_none(request.POST.get("idempotency_key"), max_length=64)
    if selectors.idempotency_key_used(game, key):
        messages.info(request, _("That hole was already saved (the form was sent twice)."))
        return True
    label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
    messages.error(
        request,
        _("%(hole)s was just saved by someone else, so yours was not saved. Check the scores below.")
        % {"hole": label % {"n": number}},
    )
    messages.info(request, _saved_message(game, number, playoff))
    return True


def _hole_moved_on(
    request: HttpRequest, grant: GameGrant, moved: HoleAlreadyRecorded, playoff: bool
) -> HttpResponse:
    """409: the hole these cards were for was saved meanwhile from another phone.

    The page shows what was saved and the scorer's own entries, now for the next hole (nothing they
    typed is lost, nothing is filed under the next number without them seeing it).
    """
    game = grant.game
    board = selectors.scoreboard(game)
    upcoming = board.next_hole
    saved = _saved_message(game, moved.saved_number, playoff)
    if upcoming is None or upcoming.is_playoff != playoff:
        messages.error(request, " ".join(p.message for p in moved.problems))
        messages.info(request, saved)
        return redirect("games:edit", token=grant.token)
    form = HoleForm(request.POST, players=list(upcoming.players), ruleset=board.ruleset)
    form.is_valid()  # bound, so the entries are shown again as typed
    form.moved_from = moved.saved_number
    return _new_hole_page(request, grant, form, upcoming, board, playoff, status=409, moved_saved=saved)


def _saved_message(game: Game, number: int, playoff: bool) -> str:
    """ "Hole 3 saved: Ann 5, Bob 12." so the scorer sees at once what the engine made of it."""
    line = selectors.hole_detail(game, number, playoff=playoff)
    scores = ", ".join(f"{e.name} {e.score}" for e in line.entries) if line else ""
    if playoff:
        return _("Playoff hole %(n)s saved: %(scores)s.") % {"n": number, "scores": scores}
    return _("Hole %(n)s saved: %(scores)s.") % {"n": number, "scores": scores}


def _hole_or_404(game: Game, number: int, playoff: bool) -> selectors.HoleLine:
    line = selectors.hole_detail(game, number, playoff=playoff)
    if line is None:
        raise Http404(_("This game has no hole %(n)s.") % {"n": number})
    return line


def _edit_form(line: selectors.HoleLine, ruleset: Ruleset, data: Any = None) -> HoleForm:
    players = [entry.name for entry in line.entries]
    grids = {entry.name: entry.cards for entry in line.entries if entry.cards}
    initial = hole_initial(players, line.entries, line.ender) | {"version": line.version, "hole_id": line.id}
    return HoleForm(data, initial=initial, players=players, ruleset=ruleset, grids=grids)


@game_page(Capability.SCORE, methods=("GET", "HEAD", "POST"))
def hole_edit(request: HttpRequest, grant: GameGrant, number: int, playoff: bool = False) -> HttpResponse:
    """Correct a recorded hole. The form carries the hole's version: a stale edit is refused."""
    game, token = grant.game, grant.token
    board = selectors.scoreboard(game)
    line = _hole_or_404(game, number, playoff)
    status = 200
    form = _edit_form(line, board.ruleset)
    if request.method == "POST":
        form = _edit_form(line, board.ruleset, request.POST)
        if form.is_valid():
            version = form.cleaned_data.get("version")
            if version is None or form.cleaned_data.get("hole_id") is None:
                form.add_error(
                    None, _("The form lost the hole's version: open the hole again from the scorecard.")
                )
                status = 400
            else:
                try:
                    services.hole_update(
                        game,
                        number,
                        expected_id=form.cleaned_data["hole_id"],
                        expected_version=version,
                        entries=form.cleaned_data["entries"],
                        ender=form.cleaned_data["ender_name"],
                        blocks_marked=form.cleaned_data["blocks_marked"] or None,
                        actor=_actor(request),
                        playoff=playoff,
                    )
                except StaleVersion:
                    # Never overwrite silently: show the hole as it is now, with what happened.
                    line = _hole_or_404(game, number, playoff)
                    form = _edit_form(line, board.ruleset)
                    form.stale = True
                    status = 409
                except ANSWERED_ERRORS as error:
                    form.add_problems(_problems_of(error))
                    status = _status_of(error)
                else:
                    label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
                    messages.success(request, _("%(hole)s corrected.") % {"hole": label % {"n": number}})
                    return redirect(f"{reverse('games:edit', args=[token])}#news")
        else:
            status = 400
    context = _hole_context(
        game,
        token,
        form,
        number=number,
        playoff=playoff,
        dealer=line.dealer,
        first_player=_first_player_of(board, line),
        board=board,
        editing=line,
    )
    context["stale"] = form.stale
    context["scorer_name"] = request.session.get(SESSION_SCORER, "")
    context["delete_url"] = reverse(
        "games:playoff-delete" if playoff else "games:hole-delete", args=[token, number]
    )
    return render(request, "scoring/game_hole.html", context, status=status)


def _first_player_of(board: selectors.Scoreboard, line: selectors.HoleLine) -> str | None:
    """The player on the dealer's left (the next seat clockwise) who played this hole."""
    seats = sorted(board.players, key=lambda p: p.seat)
    playing = {e.name for e in line.entries}
    count = len(seats)
    for step in range(1, count + 1):
        candidate = seats[(line.dealer_seat + step) % count]
        if candidate.name in playing:
            return candidate.name
    return None


@game_page(Capability.SCORE, methods=("GET", "HEAD", "POST"))
def hole_delete(request: HttpRequest, grant: GameGrant, number: int, playoff: bool = False) -> HttpResponse:
    """Ask, then delete a hole (later holes move down one number; undo brings it back)."""
    game, token = grant.game, grant.token
    line = _hole_or_404(game, number, playoff)
    status = 200
    error_message = ""
    if request.method == "POST":
        confirm = HoleDeleteForm(request.POST)
        if not confirm.is_valid():
            # A form without the hole it confirms could delete whichever hole has this number now.
            problems = [str(e) for errors in confirm.errors.values() for e in errors]
            error_message = " ".join(
                [_("The confirmation lost which hole it was for: nothing was deleted."), *problems]
            )
            return _delete_page(request, game, line, playoff, token, error_message, status=400)
        try:
            services.hole_delete(
                game,
                number,
                expected_id=confirm.cleaned_data["hole_id"],
                expected_version=confirm.cleaned_data["version"],
                actor=_actor(request),
                playoff=playoff,
            )
        except HoleGone:
            # The confirmation was sent twice (a double tap, a resent form): it was deleted once.
            label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
            messages.info(
                request,
                _("%(hole)s was already deleted: nothing more was deleted.")
                % {"hole": label % {"n": number}},
            )
            return redirect(f"{reverse('games:edit', args=[token])}#news")
        except StaleVersion:
            line = _hole_or_404(game, number, playoff)
            error_message = _(
                "Someone changed this hole since you opened it, so it was not deleted. "
                "Check the scores below and delete again if you still want to."
            )
            status = 409
        except ANSWERED_ERRORS as error:
            error_message = " ".join(p.message for p in _problems_of(error))
            status = _status_of(error)
        else:
            label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
            messages.success(
                request, _("%(hole)s deleted. “Undo” brings it back.") % {"hole": label % {"n": number}}
            )
            return redirect(f"{reverse('games:edit', args=[token])}#news")
    return _delete_page(request, game, line, playoff, token, error_message, status=status)


def _delete_page(
    request: HttpRequest,
    game: Game,
    line: selectors.HoleLine,
    playoff: bool,
    token: str,
    error_message: str,
    *,
    status: int,
) -> HttpResponse:
    """The delete confirmation page (with what went wrong, if anything)."""
    return render(
        request,
        "scoring/game_hole_delete.html",
        {
            "game": game,
            "title": display.game_title(game),
            "line": line,
            "playoff": playoff,
            "token": token,
            "error_message": error_message,
            "edit_url": reverse(
                "games:playoff-edit" if playoff else "games:hole-edit", args=[token, line.number]
            ),
        },
        status=status,
    )


@game_page(Capability.SCORE, methods=("POST",))
def hole_preview(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """The live preview (htmx): every hole score the engine gives for what is entered so far."""
    game = grant.game
    board = selectors.scoreboard(game)
    playoff = request.GET.get("playoff") == "1"
    which = request.GET.get("hole", "new")
    number = None if which == "new" else optional_int(which, _("hole"), minimum=1, maximum=SMALL_INT_MAX)
    editing = None
    if number is not None:
        editing = selectors.hole_detail(game, number, playoff=playoff)
        if editing is None:
            raise Http404(_("This game has no hole %(n)s.") % {"n": which})
        players = [entry.name for entry in editing.entries]
    elif board.next_hole is not None:
        players = list(board.next_hole.players)
    else:
        players = [p.name for p in board.players]
    form = HoleForm(request.POST, players=players, ruleset=board.ruleset)
    context = {"preview": display.preview_scores(form, board, editing=editing), "game": game}
    return render(request, "scoring/game_hole.html#preview", context)


@game_page(Capability.SCORE)
def undo_confirm(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """Ask before an undo that deletes a recorded hole: what it deletes, "Keep it" and "Delete it".

    Asked for by the undo button when the latest change recorded a hole, so a second tap on Undo (one
    for an edit, one more by reflex) never deletes a hole unseen. The page's form is the ordinary undo
    form, naming the change: if another change came first, the undo refuses as it always does.
    """
    game, token = grant.game, grant.token
    back = request.GET.get("next", "") == "history"
    undo = _undo_item(game)
    wanted = int_or_none(request.GET.get("change"), minimum=1, maximum=2**63 - 1)
    if undo is None or undo["id"] != wanted:
        messages.info(request, _("That change is no longer the latest one: nothing was undone."))
        return (
            redirect("games:edit-history", token=token)
            if back
            else redirect(f"{reverse('games:edit', args=[token])}#news")
        )
    change = GameChange.objects.only("hole_number", "is_playoff").get(pk=undo["id"])
    line = None
    if undo["deletes_hole"] and change.hole_number is not None:
        line = selectors.hole_detail(game, change.hole_number, playoff=change.is_playoff)
    return render(
        request,
        "scoring/game_undo_confirm.html",
        {
            "game": game,
            "title": display.game_title(game),
            "token": token,
            "undo": undo,
            "line": line,
            "next": "history" if back else "",
            "back_url": reverse("games:edit-history", args=[token])
            if back
            else f"{reverse('games:edit', args=[token])}#news",
        },
    )


@game_page(Capability.SCORE, methods=("POST",))
def game_undo(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """One tap: revert the latest hole change (recorded in the history as an undo).

    The form names the change it undoes, so a resent form never undoes a second one.
    """
    return _undo_or_redo(request, grant, redo=False)


@game_page(Capability.SCORE, methods=("POST",))
def game_redo(request: HttpRequest, grant: GameGrant) -> HttpResponse:
    """One tap: apply again what the latest undo reverted (recorded in the history as a redo)."""
    return _undo_or_redo(request, grant, redo=True)


def _undo_or_redo(request: HttpRequest, grant: GameGrant, *, redo: bool) -> HttpResponse:
    token = grant.token
    named = ChangeForm(request.POST)
    if not named.is_valid():
        messages.error(request, _("The button lost which change it was for: nothing was changed. Try again."))
    else:
        service = services.redo_change if redo else services.undo_last_change
        try:
            change = service(grant.game, actor=_actor(request), expected_change=named.cleaned_data["change"])
        except ChangeNotCurrent as error:
            level = messages.info if error.already else messages.error
            level(request, error.message)
        except ANSWERED_ERRORS as error:
            for problem in _problems_of(error):
                messages.error(request, problem.message)
        else:
            messages.success(request, _change_done_message(change, redo))
    back = request.POST.get("next", "")
    if back == "history":
        return redirect("games:edit-history", token=token)
    return redirect(f"{reverse('games:edit', args=[token])}#news")


def _change_done_message(change: GameChange, redo: bool) -> str:
    """ "Undone: hole 5 recorded." / "Redone: hole 5 recorded." """
    target = selectors.change_origin(change.undoes) if change.undoes else None
    item = display.change_summary(target) if target else None
    if not item:
        return _("Redone.") if redo else _("The last change was undone.")
    values = {"what": item["label"].lower(), "subject": item["subject"]}
    return (
        _("Redone: %(what)s %(subject)s.") % values if redo else _("Undone: %(what)s %(subject)s.") % values
    )
