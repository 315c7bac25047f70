"""The addresses the live-games API answers: a route's absolute URL on the host the request came to,
a game's links, and the route of one hole."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework.request import Request

from scoring.models import Game


def absolute_url(request: Request, name: str, *args: Any) -> str:
    """The absolute URL of the route `name` with `args`, on the host the request came to."""
    return request.build_absolute_uri(reverse(name, args=args))


def game_links(request: Request, game: Game, token: str, can_edit: bool) -> dict[str, str]:
    """Where a client goes next from a game reached by `token`; the edit links only when `can_edit`."""
    links = {
        "self": absolute_url(request, "api-game", token),
        "scoreboard": absolute_url(request, "api-game-scoreboard", token),
        "holes": absolute_url(request, "api-game-holes", token),
        "players": absolute_url(request, "api-game-players", token),
        "history": absolute_url(request, "api-game-history", token),
        "export_csv": absolute_url(request, "api-game-export-csv", token),
        "export_json": absolute_url(request, "api-game-export-json", token),
        "results": absolute_url(request, "api-game-results", token),
        "view": absolute_url(request, "api-game", game.view_token),
        "view_page": absolute_url(request, "games:view", game.view_token),
    }
    if can_edit:
        links["edit"] = absolute_url(request, "api-game", game.edit_token)
        links["edit_page"] = absolute_url(request, "games:edit", game.edit_token)
    return links


def hole_url_name(playoff: bool) -> str:
    """The URL name of one hole: a playoff hole's or a regular hole's."""
    return "api-game-playoff-hole" if playoff else "api-game-hole"
