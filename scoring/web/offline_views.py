"""The offline shell: one page, `/offline/`, that the service worker keeps and serves whenever a
game page (or "Start a live game") cannot be loaded. Its script (static/js/offline/app*.js) draws
the game from the phone's own storage, so the page itself holds nothing of any user or game: no
CSRF token, no session, no account menu. One copy per language can be cached for everyone.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from golfclub.core.limits import MAX_NAME_LENGTH, MAX_PLAYERS, MAX_TITLE_LENGTH, MIN_PLAYERS
from scoring.rules import PRESETS
from scoring.web.games.start_forms import PlayersForm, describe_preset
from scoring.web.games.turn_timer import LIMITS_JSON

#: Browsers and the service worker may keep the shell for a day; the worker refreshes its copy on
#: every online visit anyway. `private` is not needed: the page is the same for everyone.
SHELL_CACHE_CONTROL = "public, max-age=86400"


@require_http_methods(["GET", "HEAD"])
def offline_shell(request: HttpRequest) -> HttpResponse:
    """The page every offline screen is drawn in: the texts, the keypad, the scripts; no data."""
    presets = [{"name": name, "description": describe_preset(ruleset)} for name, ruleset in PRESETS.items()]
    context = {
        "presets": presets,
        "form": PlayersForm(initial={"ruleset": "official"}),
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
        "max_name_length": MAX_NAME_LENGTH,
        "max_title_length": MAX_TITLE_LENGTH,
        "turn_timer_limits": LIMITS_JSON,
    }
    response = render(request, "offline/shell.html", context)
    response["Cache-Control"] = SHELL_CACHE_CONTROL
    return response
