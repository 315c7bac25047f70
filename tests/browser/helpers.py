"""Small steps the phone browser tests share: where a new hole is entered, tapping the keypad."""

from __future__ import annotations

from scoring.models import Game


def hole_url(game: Game) -> str:
    """The scorer's page for entering the next hole of `game`."""
    return f"/games/e/{game.edit_token}/holes/new/"


def tap(page, *ranks: str) -> None:
    """Tap the card keypad's keys for `ranks`, in order."""
    for rank in ranks:
        page.click(f"[data-card-keypad] [data-rank='{rank}']")
