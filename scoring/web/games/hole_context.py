"""What the hole screen (`scoring/game_hole.html`) shows, for a new hole and a correction alike."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from scoring import selectors
from scoring.models import Game
from scoring.web.games import display
from scoring.web.games.hole_forms import HoleForm
from scoring.web.games.start_forms import describe_preset


def hole_context(
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
    """What the hole screen shows for hole `number` (a new one, or `editing` a recorded one): the
    form, who deals and plays first, the rules in force and, once the form is sent, the preview."""
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


def first_player_of(board: selectors.Scoreboard, line: selectors.HoleLine) -> str | None:
    """The player on the dealer's left (the next seat clockwise) who played this hole."""
    seats = sorted(board.players, key=lambda p: p.seat)
    playing = {e.name for e in line.entries}
    count = len(seats)
    for step in range(1, count + 1):
        candidate = seats[(line.dealer_seat + step) % count]
        if candidate.name in playing:
            return candidate.name
    return None
