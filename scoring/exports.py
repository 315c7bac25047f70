"""Exports of a game: CSV for spreadsheets, JSON for other tools, and a results summary per player.

The JSON carries `players`, `scores` and `winner` at the top level, the shape score-tracking apps
such as BG Stats import, plus every hole and entry. The results summary has seed 003's fields:
`total_points` (authoritative, lower wins), `holes_played` and `low_hole_score` (diagnostic counts).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from golfclub.core.spreadsheets import formula_safe
from scoring.models import Game
from scoring.rules import PlayedHole, holes_won
from scoring.selectors import HoleLine, Scoreboard, scoreboard

EXPORT_FORMAT = "golfclub.game/1"


def results_summary(game: Game, board: Scoreboard | None = None) -> list[dict[str, Any]]:
    """One line per player in seat order: rank, total_points, holes_played, low_hole_score, winner.

    `low_hole_score` counts the regular holes in which the player had the lowest score (a shared
    lowest counts for each); `best_hole_score` is their lowest single-hole score.
    """
    board = board or scoreboard(game)
    lows = holes_won(
        (PlayedHole(hole.number, {e.name: e.score for e in hole.entries}) for hole in board.holes),
        (player.name for player in board.players),
    )
    best: dict[str, int | None] = {player.name: None for player in board.players}
    for hole in board.holes:
        for entry in hole.entries:
            current = best[entry.name]
            best[entry.name] = entry.score if current is None else min(current, entry.score)
    return [
        {
            "player": player.name,
            "seat": player.seat,
            "rank": player.rank,
            "total_points": player.total,
            "holes_played": player.holes_played,
            "low_hole_score": lows[player.name],
            "best_hole_score": best[player.name],
            "winner": player.is_winner,
        }
        for player in board.players
    ]


def _hole_dict(hole: HoleLine) -> dict[str, Any]:
    return {
        "number": hole.number,
        "playoff": hole.is_playoff,
        "dealer": hole.dealer,
        "ender": hole.ender,
        "entries": [
            {
                "player": entry.name,
                "cards": entry.cards,
                "typed_total": entry.typed_total,
                "typed": entry.typed,
                "grid_score": entry.grid_score,
                "blocks_marked": entry.blocks_marked,
                "adjustments": entry.adjustments,
                "score": entry.score,
            }
            for entry in hole.entries
        ],
    }


def game_as_json(game: Game) -> dict[str, Any]:
    """The whole game as a JSON-able dict (players, scores, winner, ruleset, every hole and entry)."""
    board = scoreboard(game)
    winners = list(board.winners)
    results = {line["player"]: line for line in results_summary(game, board)}
    return {
        "format": EXPORT_FORMAT,
        "game": {
            "title": game.title,
            "created_at": game.created_at.isoformat(),
            "updated_at": game.updated_at.isoformat(),
            "status": board.status,
            "low_score_wins": True,
            "reason": board.reason,
        },
        "players": [{"name": p.name, "seat": p.seat} for p in board.players],
        "scores": [
            {
                "player": p.name,
                "score": p.total,
                "rank": p.rank,
                "winner": p.is_winner,
                "holes_played": p.holes_played,
                "low_hole_score": results[p.name]["low_hole_score"],
            }
            for p in board.players
        ],
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "shared_victory": board.shared_victory,
        "ruleset": board.ruleset.to_dict(),
        "first_dealer": game.first_dealer,
        "holes": [_hole_dict(hole) for hole in board.holes],
        "playoff_holes": [_hole_dict(hole) for hole in board.playoff_holes],
        "totals": dict(board.totals),
        "outcome": (
            {
                "status": board.outcome.status,
                "winners": list(board.outcome.winners),
                "order": [list(group) for group in board.outcome.order],
                "explanation": list(board.outcome.explanation),
            }
            if board.outcome
            else None
        ),
    }


def _cards_text(cards: list[list[str]] | None) -> str:
    """A grid as text: rows separated by " / ", cards by spaces ("Q 7 K / Q 7 3")."""
    return " / ".join(" ".join(row) for row in cards) if cards else ""


def _text(value: str) -> str:
    """A text cell made safe for spreadsheets: a leading = + - @ (full-width too) would be run as a
    formula (`golfclub.core.spreadsheets`)."""
    return formula_safe(value)


def game_as_csv(game: Game) -> str:
    """The game as CSV: three sections split by a blank line (game, one row per entry, totals)."""
    board = scoreboard(game)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["title", "preset", "ruleset", "status", "winners", "created_at"])
    writer.writerow(
        [
            _text(game.title),
            board.ruleset.preset,
            json.dumps(board.ruleset.to_dict(), sort_keys=True),
            board.status,
            _text(" & ".join(board.winners)),
            game.created_at.isoformat(),
        ]
    )
    writer.writerow([])
    writer.writerow(
        ["hole", "playoff", "dealer", "ender", "seat", "player", "cards", "typed_total", "grid_score",
         "adjustments", "score", "running_total"]
    )  # fmt: skip
    running = {p.name: 0 for p in board.players}
    for hole in (*board.holes, *board.playoff_holes):
        for entry in hole.entries:
            if not hole.is_playoff:
                running[entry.name] += entry.score
            writer.writerow(
                [
                    hole.number,
                    "yes" if hole.is_playoff else "no",
                    _text(hole.dealer),
                    _text(hole.ender or ""),
                    entry.seat,
                    _text(entry.name),
                    _cards_text(entry.cards),
                    "" if entry.typed_total is None else entry.typed_total,
                    entry.grid_score,
                    _text("; ".join(f"{a['reason']} ({a['points']:+d})" for a in entry.adjustments)),
                    entry.score,
                    running[entry.name] if not hole.is_playoff else "",
                ]
            )
    writer.writerow([])
    writer.writerow(["seat", "player", "rank", "total_points", "holes_played", "low_hole_score", "winner"])
    for line in results_summary(game, board):
        writer.writerow(
            [
                line["seat"],
                _text(line["player"]),
                line["rank"],
                line["total_points"],
                line["holes_played"],
                line["low_hole_score"],
                "yes" if line["winner"] else "no",
            ]
        )
    return out.getvalue()
