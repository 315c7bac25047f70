"""The links a table's game shows on its board (`TableManager.board_links`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.access import GameGrant, TokenKind

if TYPE_CHECKING:
    from scoring.models import Game


def table_board_links(game: Game, grant: GameGrant) -> list[tuple[str, str]]:
    """The table's page from its board, for its players (the table link): "Call an official" (and
    the round clock) while the game is played; once it is over, "Confirm the scorecard".

    No query: the game's status and token are on the row already.
    """
    if grant.token_kind is not TokenKind.EDIT:
        return []
    url = reverse("tournaments:table", args=[game.edit_token])
    if game.is_finished:
        return [(_("Confirm the scorecard"), url), (_("Call an official"), f"{url}#call-title")]
    return [(_("Call an official · round clock"), f"{url}#call-title")]
