"""A game's pages: the scorer's and the watchers' game page, its live partial, a hole's score
breakdown, the history, sharing and the settings (names, rules, title, deletion)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from golfclub.core.errors import catch_refusal
from golfclub.core.qr import qr_svg
from scoring import selectors, services
from scoring.access import Capability, GameGrant, TokenKind
from scoring.api.games.concurrency import not_modified
from scoring.rules import PRESETS
from scoring.web.games import display
from scoring.web.games._page_helpers import (
    board_context,
    board_etag,
    export_links,
    hole_or_404,
    redo_item,
    remember_game,
    scorer_name,
    undo_item,
)
from scoring.web.games.access import ANY_METHOD, FORM_METHODS, ReadOnlyLink, game_for_page, link_capability
from scoring.web.games.settings_forms import SeatRenameForm, TitleForm, cleaned_or_refuse
from scoring.web.games.start_forms import describe_preset, ruleset_choices
from scoring.web.games.turn_timer import LIMITS_JSON, turn_timer_config

# --------------------------------------------------------------------------------------------
# The game page and its live partial


def game_edit(request: HttpRequest, token: str) -> HttpResponse:
    """The scorer's page: scoreboard, next hole, corrections, undo, history, sharing, exports."""
    grant = game_for_page(request, token, Capability.SCORE)
    remember_game(request, grant.game, grant.token_kind is TokenKind.EDIT)
    board = selectors.scoreboard(grant.game)
    context = board_context(request, board, grant, True)
    context.update(
        {
            "exports": export_links(grant.game, grant.token),
            "wake_lock": True,
            "turn_timer_config": turn_timer_config(board, grant.token),
            "turn_timer_limits": LIMITS_JSON,
        }
    )
    return render(request, "scoring/game_detail.html", context)


def game_view(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only live page: the scoreboard refreshes itself while the page is visible."""
    grant = game_for_page(request, token, Capability.VIEW)
    if grant.token_kind is TokenKind.EDIT:
        return redirect("games:edit", token=token)  # the scorer's link opens the scorer's page
    remember_game(request, grant.game, False)
    board = selectors.scoreboard(grant.game)
    context = board_context(request, board, grant, False)
    context["exports"] = export_links(grant.game, token)
    context["view_qr"] = qr_svg(
        request.build_absolute_uri(reverse("games:view", args=[token])),
        label=_("QR code of this page's link"),
    )
    return render(request, "scoring/game_detail.html", context)


def scoreboard_partial(request: HttpRequest, token: str, can_edit: bool) -> HttpResponse:
    """The live part of the game page; 304 when the If-None-Match ETag still matches the version.

    The ETag is checked right after the one token lookup, before any scoreboard query.
    """
    grant = game_for_page(request, token, link_capability(can_edit))
    etag = board_etag(grant.game, can_edit)
    if (unchanged := not_modified(request, etag)) is not None:
        unchanged["Cache-Control"] = "no-cache"
        return unchanged
    board = selectors.scoreboard(grant.game)
    response = render(
        request, "scoring/game_detail.html#scoreboard", board_context(request, board, grant, can_edit)
    )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def hole_scores(
    request: HttpRequest, token: str, number: int, can_edit: bool, playoff: bool = False
) -> HttpResponse:
    """How each player's score of one recorded hole was made (a tap on a score of the scorecard)."""
    grant = game_for_page(request, token, link_capability(can_edit))
    game = grant.game
    board = selectors.scoreboard(game)
    line = hole_or_404(game, number, playoff)
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


def game_history(request: HttpRequest, token: str, can_edit: bool) -> HttpResponse:
    """Every change to the game, newest first: who, when, before and after."""
    grant = game_for_page(request, token, link_capability(can_edit))
    game = grant.game
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
            "undo": undo_item(game) if can_edit else None,
            "redo": redo_item(game) if can_edit else None,
            "token": token,
        },
    )


def game_share(request: HttpRequest, token: str) -> HttpResponse:
    """The two links of the game, each with its QR code (the edit link only to those who hold it)."""
    grant = game_for_page(request, token, Capability.SCORE)
    game = grant.game
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


def game_settings(request: HttpRequest, token: str) -> HttpResponse:
    """Names and rules: rename the game or a player (any time), change the ruleset (before hole 1).

    Each form on the page makes one change through one service call, so a change is never half-made.
    A managed game's table link gets a 409 instead: its names and rules are set by what manages it.
    """
    grant = game_for_page(request, token, Capability.MANAGE, methods=FORM_METHODS)
    game = grant.game
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        action = str(request.POST.get("action", ""))
        with catch_refusal() as refused:
            done = _apply_setting(request, grant, action)
        if refused:
            errors[action] = refused.messages
            status = refused.status
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


def _apply_setting(request: HttpRequest, grant: GameGrant, action: str) -> str | None:
    """Make the one change a settings form asks for; the message to show, or None if incomplete."""
    data, game, allowed = request.POST, grant.game, grant.capabilities
    if action == "title":
        services.game_rename(game, cleaned_or_refuse(TitleForm, data)["title"], capabilities=allowed)
        return _("Title saved.")
    if action == "rename" and data.get("seat"):
        rename = cleaned_or_refuse(SeatRenameForm, data)
        seat = services.seat_rename(game, rename["seat"], rename["name"], capabilities=allowed)
        return _("Seat %(n)s is now %(name)s.") % {"n": seat.seat + 1, "name": seat.name}
    if action == "ruleset" and data.get("ruleset") in PRESETS:
        services.set_game_ruleset(
            game, str(data["ruleset"]), actor=scorer_name(request), capabilities=allowed
        )
        return _("Ruleset changed to %(name)s.") % {"name": data["ruleset"]}
    return None


def read_only_refusal(request: HttpRequest, token: str, rest: str) -> HttpResponse:
    """Anything but reading under a view link: 403 with a page that says why.

    No capability opens these paths (they are the scorer's pages under the watchers' `v/` prefix),
    so the access call only finds the game (an unknown token is a 404); the answer does not depend
    on what the link may do: an edit token gets a 404 (no such page), a view token the 403.
    """
    grant = game_for_page(request, token, Capability.VIEW, methods=ANY_METHOD)
    if grant.token_kind is TokenKind.EDIT:
        raise Http404(_("No such page."))
    raise ReadOnlyLink(grant.game)
