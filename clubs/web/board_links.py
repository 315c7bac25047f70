"""The way back from a club game's board to its club (`ClubGameManager.board_links`)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.models import ClubGame
from scoring.access import GameGrant, TokenKind


def club_board_links(game: Any, grant: GameGrant) -> list[tuple[str, str]]:
    """Once a club game is over, its scorer (the edit link) is offered the club's leaderboard, where
    the game now counts: without it the finished board is a dead end for the club.

    One query (the game's club), and only on a finished game's board: a game in play shows nothing.
    """
    if grant.token_kind is not TokenKind.EDIT or not game.is_finished:
        return []
    link = ClubGame.objects.filter(game=game).select_related("club").first()
    if link is None:
        return []
    return [(_("Back to %(club)s") % {"club": link.club.name}, reverse("clubs:club", args=[link.club.pk]))]
