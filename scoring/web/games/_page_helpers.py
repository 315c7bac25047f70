"""Helpers shared by the live-game pages: the session's recent games, the scorer's name, error
answers, and the game page's context (scoreboard, undo and redo items, export links)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from golfclub.core.inputs import clean_text
from scoring import selectors
from scoring.access import GameGrant, managed_game_links
from scoring.models import ChangeAction, Game
from scoring.web.games import display
from scoring.web.games.charts import Series, cumulative_chart, legend
from scoring.web.games.start_forms import describe_preset
from scoring.web.games.turn_timer import turn_time_rows

SESSION_GAMES = "golf_recent_games"  # [[token, can_edit], ...], newest first
SESSION_STARTED = "golf_started_games"  # {start_key: edit token}: a resubmitted start form opens its game
START_KEY = re.compile(r"[0-9a-f]{32}")  # uuid.uuid4().hex, as game_new hands it out
SESSION_SCORER = "golf_scorer_name"
RECENT_LIMIT = 30
HISTORY_ON_PAGE = 5


# --------------------------------------------------------------------------------------------
# Session, small helpers (access: scoring.access, decided by each page's game_for_page call)


def remember_game(request: HttpRequest, game: Game, can_edit: bool) -> None:
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


def recent_edit_tokens(request: HttpRequest) -> list[str]:
    """Edit tokens of the games this browser opened lately."""
    return [
        item[0]
        for item in request.session.get(SESSION_GAMES, [])
        if isinstance(item, list) and item[1:] == [True]
    ]


def scorer_name(request: HttpRequest) -> str:
    """Who is changing the game, for its history: the account, else the name this phone gave.

    A name typed in the hole form's "Scored by" field is kept in the session for the next holes.
    """
    if username := request.user.get_username():  # "" for an anonymous user
        return username
    typed = " ".join(clean_text(request.POST.get("scorer", ""), _("Scored by")).split())[:40]
    if typed:
        request.session[SESSION_SCORER] = typed
    return typed or str(request.session.get(SESSION_SCORER, "")) or _("someone with the edit link")


def board_etag(game: Game, can_edit: bool) -> str:
    """The scoreboard partial's ETag: the game's version, and which link is looking."""
    return f'W/"game-{game.pk}-v{game.version}-{"e" if can_edit else "v"}"'


# --------------------------------------------------------------------------------------------
# The scoreboard as the templates show it


def board_context(
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
        "etag": board_etag(game, can_edit),
        "poll_url": reverse("games:edit-scoreboard" if can_edit else "games:view-scoreboard", args=[token]),
        "history": [display.history_item(line) for line in history[:HISTORY_ON_PAGE]],
        "more_history": len(history) > HISTORY_ON_PAGE,
        "ruleset_label": describe_preset(board.ruleset),
        "managed_label": game.managed_label if game.is_managed else "",
        "managed_links": managed_game_links(game, grant),
        "can_manage": can_edit and grant.can_manage,
        "replay_url": f"{reverse('games:new')}?{replay_query}",
        "undo": undo_item(game) if can_edit else None,
        "redo": redo_item(game) if can_edit else None,
        "holes_total": board.ruleset.holes,
        "turn_times": turn_time_rows(game.pk, names),
    }


def undo_item(game: Game) -> dict[str, Any] | None:
    """The undo button: the change it reverts, and whether reverting it deletes a recorded hole (such an
    undo asks first, on its own page; undoing an edit or a delete stays one tap)."""
    line = selectors.undo_target(game)
    if line is None:
        return None
    return display.history_item(line) | {"deletes_hole": undo_deletes_hole(line)}


def undo_deletes_hole(line: selectors.HistoryLine) -> bool:
    """True when undoing this change removes a hole: it recorded one, or it redid such a recording."""
    if line.action == ChangeAction.CREATE:
        return True
    if line.action != ChangeAction.REDO:
        return False
    change = selectors.change_by_id(line.id)
    return change is not None and selectors.change_origin(change).action == ChangeAction.CREATE


def redo_item(game: Game) -> dict[str, Any] | None:
    """The redo button: the undo it reverts (its id) and what it would apply again."""
    undo = selectors.redo_target_change(game)
    if undo is None:
        return None
    summary = display.change_summary(selectors.change_origin(undo))
    return {"id": undo.pk, "label": summary["label"], "subject": capfirst(summary["subject"])}


def export_links(game: Game, token: str) -> list[tuple[str, str]]:
    """Links to the backend's exports of this game."""
    return [
        (_("Scores as CSV"), reverse("api-game-export-csv", args=[token])),
        (_("Game as JSON"), reverse("api-game-export-json", args=[token])),
        (_("Results"), reverse("api-game-results", args=[token])),
    ]


def hole_or_404(game: Game, number: int, playoff: bool) -> selectors.HoleLine:
    line = selectors.hole_detail(game, number, playoff=playoff)
    if line is None:
        raise Http404(_("This game has no hole %(n)s.") % {"n": number})
    return line
