"""The turn timer on the game pages: its settings for static/js/turn-timer.js and the summary of
the times the phone reported (each player's total and average per turn)."""

from __future__ import annotations

import json
from typing import Any

from golfclub.core.limits import MAX_TURN_MILLISECONDS, MAX_TURN_TIME_HOLES, MAX_TURNS_PER_HOLE
from scoring import selectors

#: What the script bounds its reports by (the API's limits), as JSON for a data attribute.
LIMITS_JSON = json.dumps(
    {"maxMs": MAX_TURN_MILLISECONDS, "maxTurns": MAX_TURNS_PER_HOLE, "maxHoles": MAX_TURN_TIME_HOLES}
)


def turn_timer_config(board: selectors.Scoreboard, token: str) -> str:
    """The timer's settings as JSON (a data attribute): the game's link, its players in seat order
    and the hole to time (its first player is left of its dealer), null once no hole is left (the
    script then only sends what the last hole left unsent); "" for a tournament's table (its pace
    is the round's clock, run by the director)."""
    if board.game.is_managed:
        return ""
    names = [p.name for p in board.players]
    next_hole = board.next_hole
    hole = None
    if next_hole is not None:
        hole = {
            "number": next_hole.number,
            "playoff": next_hole.is_playoff,
            "first_seat": next_hole.first_player_seat,
            "seats": [names.index(name) for name in next_hole.players if name in names],
        }
    return json.dumps({"token": token, "players": names, "hole": hole})


def format_ms(milliseconds: int) -> str:
    """A duration as the timer shows it: "0:07", "12:34", "1:02:03"."""
    seconds = max(0, milliseconds) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def turn_time_rows(game_id: int, names: list[str]) -> list[dict[str, Any]]:
    """The summary's lines: each player's total time and average per turn; empty when nothing was timed."""
    return [
        {
            "name": p.name,
            "total": format_ms(p.milliseconds),
            "average": format_ms(p.average_ms) if p.average_ms is not None else "\u2013",
            "turns": p.turns,
        }
        for p in selectors.game_turn_times(game_id, names)
    ]
