"""The one interface through which another app manages or follows `scoring`'s games.

A game may belong to something scoring knows nothing of: a tournament's table (`Game.managed_by`
= "tournaments.table": its players, rules and deletion are the tournament's) or a club's live game
(`Game.followed_by` = "clubs.game": the club keeps its members' results and ratings from it). The
app that owns such games implements ONE `GameManager` and registers it ONCE, under the label its
games carry, from its `AppConfig.ready()`, without `scoring` importing it:

    from scoring.game_managers import GameManager, register_game_manager

    class TableManager(GameManager):
        name = _("the tournament's directors")  # who sets a table's players, rules and deletion

        def capabilities(self, game, user, token_kind): ...  # what its staff may do to a table
        def check_hole_change(self, change): ...  # when a table's holes may change
        def board_links(self, game, grant): ...  # "Confirm the scorecard" on the table's board
        def after_change(self, change): ...  # what the tournament writes with each change

    register_game_manager("tournaments.table", TableManager())

A club's manager also links a new game from the games API's extra fields (`link_fields` and
`link_new_game`, asked by `scoring.game_links.link_for` before anything is written).

`scoring` calls up into the manager of a game (`manager_of(game)`) by name, where the call belongs:
the access decision asks `capabilities` (`scoring.access.grant_for`); every hole write asks
`check_hole_change` and then tells `after_change`, inside the change's transaction, under the
game's lock (`scoring.services`). Whatever the manager writes in `after_change` is committed with
the change or rolled back with it (its exception reaches the person who made the change): there is
no signal, and no receiver after the commit whose failure could only be logged and leave the data
behind (issue 31). What only needs to be read fresh (a tournament's versions, ETags and cached
standings) is derived from the game's `version`, which every change moves in its own transaction.

A game without a manager (a friends' game, or a label nobody registered) gets `NO_MANAGER`, whose
methods do nothing and cost nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise

if TYPE_CHECKING:
    from scoring.access import Capability, GameGrant, TokenKind
    from scoring.game_links import GameLink, LinkRequest
    from scoring.models import Game

__all__ = [
    "NO_MANAGER",
    "GameManager",
    "HoleChange",
    "ManagedChange",
    "game_managers",
    "manager_of",
    "register_game_manager",
    "unregister_game_manager",
]


@dataclass(frozen=True, slots=True)
class HoleChange:
    """A request to record or change a hole, as `GameManager.check_hole_change` sees it (before it
    is written).

    `action` is "record", "edit", "delete", "undo" or "redo"; `later_holes` counts the holes of
    the same kind (regular or playoff) recorded after this one (0 when recording); `capabilities`
    are what the person asking was granted by the access decision ("score", "officiate",
    "manage"...), or None for a call made by the code itself (a manager's own service call).
    """

    game_id: int
    managed_by: str
    hole_number: int
    playoff: bool
    action: str
    later_holes: int
    capabilities: frozenset[str] | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ManagedChange:
    """One change of a game, as `GameManager.after_change` sees it (written, not yet committed).

    `kind` is "recorded", "corrected" or "deleted" for a hole (undo and redo are one of those),
    "finished" or "reopened" for the game's status, "game_deleted" for a game about to be deleted;
    `managed_by` is the manager's label; `hole_number` is None for a status change; `actor` and
    `reason` are as kept in the game's history; `hole_id` is the hole's row (a deleted hole's
    former id), None for a status change.
    """

    game_id: int
    managed_by: str
    kind: str
    hole_number: int | None = None
    playoff: bool = False
    actor: str = ""
    reason: str = ""
    hole_id: int | None = None


class GameManager:
    """What an app does for the games it manages or follows. Override what applies; each default
    does nothing (a club's game grants nothing more and refuses no hole change).

    The four methods about one game (`capabilities`, `check_hole_change`, `board_links`,
    `after_change`) are called on a hot path (each access decision, each board render, each hole)
    for the manager's own games only, with the game row already loaded: answer what the row says
    without a query where possible, and take no row lock (the game's is held while a hole changes;
    rows the manager locks before the game would invert its lock order).
    """

    #: Who sets a managed game's players, rules and deletion, in the refusal of its table link
    #: ("the tournament's directors"); empty for a manager that only follows its games.
    name: str | Promise = ""
    #: The fields of `POST /api/v1/games/` it links a new game from (a field has one manager).
    link_fields: tuple[str, ...] = ()

    def capabilities(self, game: Game, user: Any, token_kind: TokenKind) -> Iterable[Capability | str]:
        """What `user`, holding the game's `token_kind` link, may do to `game` beyond what the link
        gives (`Capability` members or their names). It only adds: the link's own grant stays."""
        return ()

    def check_hole_change(self, change: HoleChange) -> None:
        """Refuse `change` by raising `scoring.hole_policies.HoleChangeRefused` or
        `ReasonRequired` (asked before every hole write, under the game's lock)."""

    def board_links(self, game: Game, grant: GameGrant) -> Iterable[tuple[str | Promise, str]]:
        """(label, url) pairs shown on the game's board (every render and poll: no query for what
        the row says, its status and tokens)."""
        return ()

    def after_change(self, change: ManagedChange) -> None:
        """Write what the manager keeps with `change`, in the change's transaction (an exception
        rolls the change back). Return at once for what it does not follow: a new hole is the hot
        path."""

    def games_followed_by(self, follower: str, owner_id: int) -> Iterable[Any]:
        """Those of its games that the app following games under `follower` counts for its
        `owner_id` (a tournament's finalized tables, for "clubs.game" and the event's club), each
        as that app describes a game (`clubs.services.results.CountedGame`)."""
        return ()

    def link_new_game(self, request: LinkRequest) -> GameLink | None:
        """Check the request's `link_fields` of a new game (raising a `GameError` kind, before
        anything is written) and answer the writer of its links, run in the game's creating
        transaction (`scoring.game_links`)."""
        return None


#: The manager of every game whose label nobody registered (a friends' game).
NO_MANAGER = GameManager()

_managers: dict[str, GameManager] = {}


def register_game_manager(label: str, manager: GameManager) -> None:
    """Make `manager` manage (or follow) every game whose `managed_by` or `followed_by` is `label`
    (an app's `ready()` calls this once; registering the label again replaces its manager)."""
    if not label:
        raise ValueError("A game manager needs the label of the games it manages.")
    taken = {name for other, owner in _managers.items() if other != label for name in owner.link_fields}
    if taken & set(manager.link_fields):
        raise ValueError(f"Another game manager links {sorted(taken & set(manager.link_fields))}.")
    _managers[label] = manager


def unregister_game_manager(label: str) -> None:
    """Forget the manager of `label` (tests; nothing happens if there is none)."""
    _managers.pop(label, None)


def game_managers() -> dict[str, GameManager]:
    """The registered managers by label (a copy)."""
    return dict(_managers)


def manager_of(game: Game) -> GameManager:
    """The manager of `game`: the one of its `managed_by`, else of its `followed_by` (a game has
    one at most), else `NO_MANAGER`. No query: the labels are on the row."""
    label = game.managed_by or game.followed_by
    if not label:
        return NO_MANAGER
    return _managers.get(label, NO_MANAGER)
