"""The links a table's game shows on its board (registered with `scoring.access` by the app's `ready()`)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.access import GameGrant, TokenKind
from scoring.models import Game, GameStatus


def table_board_links(game: Game, grant: GameGrant) -> list[tuple[str, str]]:
    """Once the table's game is over, its players (the table link) are asked to confirm the scorecard.

    No query: the game's status and token are on the row already.
    """
    if grant.token_kind is not TokenKind.EDIT or game.status != GameStatus.FINISHED:
        return []
    return [(_("Confirm the scorecard"), reverse("tournaments:table", args=[game.edit_token]))]
