"""The tournament as the manager of its tables' games: everything `scoring` asks of it, in one class.

A table's game is a `scoring` game marked `managed_by = "tournaments.table"`. `scoring` calls up
into `TableManager` (registered once, in `TournamentsConfig.ready()`) by name, where each question
belongs; each answer is written where the tournament keeps that part of its rules:

- `capabilities`: what the event's staff may do to a table's game (`tournaments.access`);
- `check_hole_change`: when a table's holes may be recorded and corrected (`tournaments.access`);
- `board_links`: the table's page from its board, "Confirm the scorecard" (`tournaments.web.links`);
- `after_change`: what the tournament writes with a change of a table's holes, in the change's
  transaction (`tournaments.services.tables`);
- `games_followed_by`: a club's tournaments' finalized tables, which count for its members'
  results and ratings (`tournaments.services.club_results`).

The tournament's versions, ETags and cached standings need nothing here: they add the tables'
games' versions at read time (`tournaments.live_versions`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _

from clubs.models import CLUB_GAME
from clubs.services.results import CountedGame
from scoring.game_managers import GameManager, HoleChange, ManagedChange
from tournaments.access import table_hole_policy, table_staff_capabilities
from tournaments.services.club_results import club_tables
from tournaments.services.tables import follow_table_change
from tournaments.web.links import table_board_links

if TYPE_CHECKING:
    from scoring.access import Capability, GameGrant, TokenKind
    from scoring.models import Game


class TableManager(GameManager):
    """What the tournament does for its tables' games."""

    name = _("the tournament's directors")

    def capabilities(self, game: Game, user: Any, token_kind: TokenKind) -> Iterable[Capability]:
        """The role of `user` in the table's event (one query; none for anonymous users)."""
        return table_staff_capabilities(game, user, token_kind)

    def check_hole_change(self, change: HoleChange) -> None:
        """The round's state and the table's correction rule."""
        table_hole_policy(change)

    def board_links(self, game: Game, grant: GameGrant) -> list[tuple[str, str]]:
        """The table's page, for its players."""
        return table_board_links(game, grant)

    def after_change(self, change: ManagedChange) -> None:
        """A finalized round's corrections: the event's log and the club's results."""
        follow_table_change(change)

    def games_followed_by(self, follower: str, owner_id: int) -> list[CountedGame]:
        """For a club (`owner_id`), its tournaments' finalized tables: they count for its members."""
        return club_tables(owner_id) if follower == CLUB_GAME else []
