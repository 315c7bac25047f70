"""The club as the follower of its live games: everything `scoring` asks of it, in one class.

A club's live game is an ordinary `scoring` game marked `followed_by = "clubs.game"`: it grants and
refuses nothing more than any game, but the club keeps its members' results and ratings from it.
`scoring` calls up into `ClubGameManager` (registered once, in `ClubsConfig.ready()`):

- `link_fields`, `link_new_game`: `club` and `members` of a new game (`POST /api/v1/games/`),
  checked before anything is written, its links written with the game (`clubs.services.club_games`);
- `board_links`: a finished game's way back to its club (`clubs.web.board_links`);
- `after_change`: the members' results and ratings, rewritten in the change's transaction
  (`clubs.services.game_follower`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clubs.services.club_games import link_club_game
from clubs.services.game_follower import follow_club_game
from clubs.web.board_links import club_board_links
from scoring.game_managers import GameManager, ManagedChange

if TYPE_CHECKING:
    from scoring.access import GameGrant
    from scoring.game_links import GameLink, LinkRequest
    from scoring.models import Game


class ClubGameManager(GameManager):
    """What a club does for its live games."""

    link_fields = ("club", "members")

    def link_new_game(self, request: LinkRequest) -> GameLink:
        """The club and its members seated at a new game of the games API."""
        return link_club_game(request)

    def board_links(self, game: Game, grant: GameGrant) -> list[tuple[str, str]]:
        """Back to the club, once the game is over."""
        return club_board_links(game, grant)

    def after_change(self, change: ManagedChange) -> None:
        """Count, uncount or recount the game for the club."""
        follow_club_game(change)
