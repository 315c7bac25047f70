"""Ending a live game before its last hole on the page ("End the game now", after a confirmation),
and resuming it. The services decide (`scoring.services.game_ending`); these pages ask and tell."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from golfclub.core.errors import flash_refusal
from scoring import selectors, services
from scoring.access import Capability, GameGrant
from scoring.web.games import display
from scoring.web.games._page_helpers import scorer_name
from scoring.web.games.access import POST_ONLY, game_for_page


def _board_url(token: str) -> str:
    return f"{reverse('games:edit', args=[token])}#news"


def end_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Ask before ending: after which hole, and who would win by the holes played (the engine's
    ranking of the game as if ended, computed on an unsaved copy: nothing is written)."""
    grant = game_for_page(request, token, Capability.SCORE)
    game = grant.game
    board = selectors.scoreboard(game)
    if game.is_managed or board.match_over or not board.holes:
        return redirect(_board_url(token))  # the button is not offered then: back to the scoreboard
    game.ended_early = True  # in memory only, to show the outcome the ending would give
    ended = selectors.scoreboard(game)
    return render(
        request,
        "scoring/game_end_confirm.html",
        {
            "game": game,
            "title": display.game_title(game),
            "token": token,
            "board": ended,
            "outcome": display.outcome_context(ended),
            "played": len(board.holes),
            "holes": board.ruleset.holes,
            "back_url": _board_url(token),
        },
    )


def game_end(request: HttpRequest, token: str) -> HttpResponse:
    """End the game now, after the holes played; the scoreboard then says so and who won."""
    grant = game_for_page(request, token, Capability.SCORE, methods=POST_ONLY)
    return _end_or_resume(request, grant, end=True)


def game_resume(request: HttpRequest, token: str) -> HttpResponse:
    """Take back an early ending: the game is in progress again."""
    grant = game_for_page(request, token, Capability.SCORE, methods=POST_ONLY)
    return _end_or_resume(request, grant, end=False)


def _end_or_resume(request: HttpRequest, grant: GameGrant, *, end: bool) -> HttpResponse:
    game = grant.game
    change = services.EndRequest(actor=scorer_name(request))
    with flash_refusal(request):
        (services.end_game_early if end else services.resume_game)(game, change)
        board = selectors.scoreboard(game)
        if end:
            messages.success(request, _("%(ended)s.") % {"ended": board.ended_early})
        else:
            messages.success(
                request, _("The game goes on: hole %(n)s is next.") % {"n": len(board.holes) + 1}
            )
    return redirect(_board_url(grant.token))
