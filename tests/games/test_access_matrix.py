"""Permission matrix: every live-game page and API route, for every actor (tests/games/access_helpers.py).

Each row names a route, a method, the state of the game and the status each actor gets, in the order
view, edit, table, official, director, stranger, wrong. A refused write is 403 (the read-only answer),
`manage` through a managed game's table link 409, an unknown token 404.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import selectors
from scoring.api.games import concurrency
from scoring.models import Game

from .access_helpers import ACTORS, expected, reach, shared_games_fixture, staff  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("staff")]

ALL = (200, 200, 200, 200, 200, 200, 404)  # reading: everyone with a link
SCORER = (403, 200, 200, 200, 200, 403, 404)  # the scorer's pages: score
MANAGER = (403, 200, 409, 403, 200, 403, 404)  # names and rules: manage
MANAGER_SAVED = (403, 302, 409, 403, 302, 403, 404)
HOLE_FORM = {"p0-total": "1", "p1-total": "2", "p2-total": "3"}

# (path under /games/, method, state, form data, statuses)
PAGES: list[tuple[str, str, str, dict[str, str], tuple[int, ...]]] = [
    ("e/{t}/", "GET", "played", {}, SCORER),
    ("e/{t}/", "POST", "played", {}, (403, 405, 405, 405, 405, 403, 404)),
    ("e/{t}/scoreboard/", "GET", "played", {}, SCORER),
    ("e/{t}/holes/new/", "GET", "played", {}, SCORER),
    ("e/{t}/holes/new/", "POST", "played", HOLE_FORM, (403, 302, 302, 302, 302, 403, 404)),
    ("e/{t}/holes/1/", "GET", "played", {}, SCORER),
    ("e/{t}/holes/1/delete/", "GET", "played", {}, SCORER),
    ("e/{t}/holes/1/scores/", "GET", "played", {}, SCORER),
    ("e/{t}/playoff/new/", "GET", "playoff", {}, SCORER),
    ("e/{t}/playoff/1/", "GET", "playoff", {}, SCORER),
    ("e/{t}/playoff/1/delete/", "GET", "playoff", {}, SCORER),
    ("e/{t}/playoff/1/scores/", "GET", "playoff", {}, SCORER),
    ("e/{t}/preview/", "POST", "played", HOLE_FORM, SCORER),
    ("e/{t}/preview/", "GET", "played", {}, (403, 405, 405, 405, 405, 403, 404)),
    ("e/{t}/undo/", "POST", "played", {}, (403, 302, 302, 302, 302, 403, 404)),
    ("e/{t}/undo/confirm/", "GET", "played", {}, (403, 302, 302, 302, 302, 403, 404)),
    ("e/{t}/redo/", "POST", "undone", {}, (403, 302, 302, 302, 302, 403, 404)),
    # Ending early: a family's game (edit); a managed game's links go back to the scoreboard, refused.
    ("e/{t}/end/confirm/", "GET", "played", {}, (403, 200, 302, 302, 302, 403, 404)),
    ("e/{t}/end/", "POST", "played", {}, (403, 302, 302, 302, 302, 403, 404)),
    ("e/{t}/resume/", "POST", "played", {}, (403, 302, 302, 302, 302, 403, 404)),
    ("e/{t}/history/", "GET", "played", {}, SCORER),
    ("e/{t}/share/", "GET", "played", {}, SCORER),
    ("e/{t}/settings/", "GET", "played", {}, MANAGER),
    ("e/{t}/settings/", "POST", "played", {"action": "title", "title": "Renamed"}, MANAGER_SAVED),
    ("v/{t}/", "GET", "played", {}, (200, 302, 302, 200, 200, 200, 404)),
    ("v/{t}/", "POST", "played", {}, (403, 403, 403, 403, 403, 403, 404)),
    ("v/{t}/scoreboard/", "GET", "played", {}, ALL),
    ("v/{t}/history/", "GET", "played", {}, ALL),
    ("v/{t}/holes/1/scores/", "GET", "played", {}, ALL),
    ("v/{t}/playoff/1/scores/", "GET", "playoff", {}, ALL),
    ("v/{t}/holes/new/", "GET", "played", {}, (403, 404, 404, 403, 403, 403, 404)),
]  # fmt: skip


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(("path", "method", "state", "data", "statuses"), PAGES)
def test_each_page_answers_each_actor(actor, path, method, state, data, statuses, shared_games):
    client = Client()
    _game, token = reach(actor, state, client, shared_games)
    url = "/games/" + path.format(t=token)
    response = client.post(url, data) if method == "POST" else client.get(url)
    assert response.status_code == expected(statuses, actor), (actor, method, url)


def _hole_tag(game: Game, number: int = 1, playoff: bool = False) -> str:
    line = selectors.hole_detail(game, number, playoff=playoff)
    assert line is not None
    return concurrency.etag("hole", line.id, line.version)


def _seat_tag(game: Game, seat: int = 2) -> str:
    return concurrency.etag("seat", game.seats.get(seat=seat).pk)


def _undo_body(game: Game) -> dict[str, Any]:
    target = selectors.undo_target(game)
    assert target is not None
    return {"change": target.id}


def _redo_body(game: Game) -> dict[str, Any]:
    target = selectors.redo_target_change(game)
    assert target is not None
    return {"change": target.pk}


Body = dict[str, Any] | Callable[[Game], dict[str, Any]] | None
IfMatch = str | Callable[[Game], str] | None
ENTRIES = {"entries": {"Ann": 1, "Bob": 2, "Cy": 3}}
TIMES = {"holes": [{"number": 1, "seats": [{"seat": 0, "milliseconds": 900, "turns": 1}]}]}
READ_ALL = (200, 200, 200, 200, 200, 200, 404)
SCORE = (403, 200, 200, 200, 200, 403, 404)
MANAGE = (403, 200, 409, 403, 200, 403, 404)
SCORED = (403, 201, 201, 201, 201, 403, 404)

# (path under /api/v1/games/{t}/, method, state, body, If-Match, statuses)
API: list[tuple[str, str, str, Body, IfMatch, tuple[int, ...]]] = [
    ("", "GET", "played", None, None, READ_ALL),
    ("", "PATCH", "played", {"title": "Renamed"}, None, MANAGE),
    ("", "DELETE", "played", None, None, (403, 204, 409, 403, 204, 403, 404)),
    ("players/", "GET", "played", None, None, READ_ALL),
    ("players/", "POST", "new", {"name": "Dee"}, None, (403, 201, 409, 403, 201, 403, 404)),
    ("players/0/", "GET", "played", None, None, READ_ALL),
    ("players/0/", "PATCH", "played", {"name": "Annie"}, None, MANAGE),
    ("players/2/", "DELETE", "new", None, _seat_tag, (403, 204, 409, 403, 204, 403, 404)),
    ("holes/", "GET", "played", None, None, READ_ALL),
    ("holes/", "POST", "played", ENTRIES, None, SCORED),
    ("holes/1/", "GET", "played", None, None, READ_ALL),
    ("holes/1/", "PUT", "played", ENTRIES, "*", SCORE),
    ("holes/1/", "PATCH", "played", {"entries": {"Ann": 0}}, "*", SCORE),
    ("holes/1/", "DELETE", "played", None, _hole_tag, (403, 204, 204, 204, 204, 403, 404)),
    ("holes/1/entries/", "GET", "played", None, None, READ_ALL),
    ("holes/1/entries/0/", "GET", "played", None, None, READ_ALL),
    ("holes/1/entries/0/", "PUT", "played", {"total": 4}, "*", SCORE),
    ("playoff-holes/", "GET", "playoff", None, None, READ_ALL),
    ("playoff-holes/", "POST", "playoff", {"entries": {"Ann": 2, "Bob": 3}}, None, SCORED),
    ("playoff-holes/1/", "GET", "playoff", None, None, READ_ALL),
    ("playoff-holes/1/", "PATCH", "playoff", {"entries": {"Ann": 1}}, "*", SCORE),
    ("playoff-holes/1/entries/", "GET", "playoff", None, None, READ_ALL),
    ("playoff-holes/1/entries/0/", "GET", "playoff", None, None, READ_ALL),
    ("scoreboard/", "GET", "played", None, None, READ_ALL),
    ("history/", "GET", "played", None, None, READ_ALL),
    ("undo/", "POST", "played", _undo_body, None, SCORE),
    ("redo/", "POST", "undone", _redo_body, None, SCORE),
    # Ending early needs `score` and a family's game: every managed game's link is refused (409).
    ("end/", "POST", "played", {}, None, (403, 200, 409, 409, 409, 403, 404)),
    ("resume/", "POST", "played", {}, None, (403, 409, 409, 409, 409, 403, 404)),
    ("export.csv", "GET", "played", None, None, READ_ALL),
    ("export.json", "GET", "played", None, None, READ_ALL),
    ("results/", "GET", "played", None, None, READ_ALL),
    # The turn timer's times: read with any link, written with any link that scores.
    ("turn-times/", "GET", "played", None, None, READ_ALL),
    ("turn-times/", "PUT", "played", TIMES, None, SCORE),
    # A tournament table's confirmation (tournaments.api): needs `score`; these games are no tables (404).
    ("confirm/", "POST", "played", {"by": "Ann"}, None, (403, 404, 404, 404, 404, 403, 404)),
]  # fmt: skip


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(("path", "method", "state", "body", "if_match", "statuses"), API)
def test_each_api_route_answers_each_actor(
    actor, path, method, state, body, if_match, statuses, shared_games
):
    api = APIClient()
    game, token = reach(actor, state, api, shared_games)
    headers = {}
    if if_match is not None:
        headers["If-Match"] = if_match(game) if callable(if_match) else if_match
    data = body(game) if callable(body) else body
    url = f"/api/v1/games/{token}/{path}"
    response = api.generic(method, url, **({} if data is None else {"data": _json(data)}), headers=headers,
                           content_type="application/json")  # fmt: skip
    assert response.status_code == expected(statuses, actor), (actor, method, url, response.content[:300])
    if response.status_code >= 400:
        assert set(response.json()) == {"detail", "errors"}


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data)


def test_the_matrix_covers_every_game_route():
    """A new route under /games/<token>/ or /api/v1/games/<token>/ needs a row here."""
    from django.urls import get_resolver

    def patterns(resolver: Any, prefix: str = "") -> list[str]:
        out = []
        for entry in resolver.url_patterns:
            route = prefix + str(entry.pattern)
            out.extend(patterns(entry, route) if hasattr(entry, "url_patterns") else [route])
        return out

    def shape(path: str) -> str:
        for name in ("token", "number", "seat"):
            path = path.replace(f"<token:{name}>", "T").replace(f"<number:{name}>", "N")
        return path

    # Other apps' routes holding a game's token (a tournament table's page) have their own matrix.
    routes = {
        shape(p)
        for p in patterns(get_resolver())
        if "<token:token>" in p and "<path:rest>" not in p and p.startswith(("games/", "api/v1/games/"))
    }
    covered = {
        shape(prefix + path.format(t="<token:token>")).replace("/1/", "/N/").replace("/0/", "/N/")
        for prefix, rows in (("games/", PAGES), ("api/v1/games/<token:token>/", API))
        for path, *_rest in rows
    }
    covered = {c.replace("/2/", "/N/").replace("<token:token>", "T") for c in covered}
    assert len(routes) >= 40 and routes - covered == set(), sorted(routes - covered)
