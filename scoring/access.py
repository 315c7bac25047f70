"""What a request may do to a game: one decision for pages and API alike.

A game is reached by a token in the URL (its edit token or its view token) and, maybe, by a logged-in
user. `decide(token, user)` answers a `GameGrant`: the game, the capabilities the request holds on it,
who or what granted each, and whether the game is managed by something else. The access calls that
begin every page (`scoring.web.games.access.game_for_page`) and API view
(`scoring.api.games.access.game_for_api`) call it, check the capability the view needs and either
return the grant or raise the refusal. The API's hole POST finds and locks the game by its edit token in one
query and then decides on the game found with `grant_for(game, TokenKind.EDIT, user)`: the same
decision, without a lookup of its own.

Capabilities:
- `view`: read the game (scoreboard, holes, history, exports).
- `score`: record and correct holes, delete a hole, undo and redo.
- `manage`: seats (add, rename, remove), ruleset, title, deleting the game.
- `officiate`: correct earlier holes with a reason (used by officiating).

Built-in rules: the view token gives `view`; the edit token gives `view`, `score` and `manage`, but
on a *managed* game (a tournament's table, `Game.managed_by` set) the edit token is a table link and
gives `view` and `score` only: the players, rules and deletion belong to what manages the game.

The app that manages or follows a game adds capabilities through its one `GameManager`
(`scoring.game_managers`, registered once from its `AppConfig.ready()`): `grant_for` asks
`manager_of(game).capabilities(game, user, token_kind)`, only for the manager's own games, with the
game already loaded (a tournament's staff reach a table's game through its view link and get what
their role gives). A manager only adds: it cannot take away what the token grants (refusing a
table's scoring while its round is not open is the manager's `check_hole_change`, asked by the
services, so that the API's fast path obeys it too). `scoring` never imports a manager.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from scoring.game_managers import manager_of
from scoring.models import Game
from scoring.selectors import game_for_token


class Capability(StrEnum):
    """One thing a request may do to a game."""

    VIEW = "view"
    SCORE = "score"
    MANAGE = "manage"
    OFFICIATE = "officiate"

    @classmethod
    def all(cls) -> frozenset[Capability]:
        """Every capability (a director's)."""
        return frozenset(cls)


class TokenKind(StrEnum):
    """Which of the game's two links the URL holds."""

    EDIT = "edit"
    VIEW = "view"


class Refusal(StrEnum):
    """Why a grant does not cover a capability (the answer is chosen by the page or API layer)."""

    READ_ONLY = "read_only"  # a view-only grant asked to write: 403
    MANAGED = "managed"  # `manage` on a managed game through its table link: 409


#: What the edit token always gives, managed game or not (a table link scores).
EDIT_TOKEN_SCORES = frozenset({Capability.VIEW, Capability.SCORE})
_EDIT_TOKEN_OF_UNMANAGED = EDIT_TOKEN_SCORES | {Capability.MANAGE}
_VIEW_TOKEN = frozenset({Capability.VIEW})


@dataclass(frozen=True)
class GameGrant:
    """What this request may do to this game, and why.

    `granted_by` maps each source ("edit link", "view link" or a provider's name) to what it gave;
    `token_capabilities` is what the token alone gives (no user needed: the API's CSRF check applies
    only when a write needs more than that).
    """

    game: Game
    token: str
    token_kind: TokenKind
    capabilities: frozenset[Capability]
    token_capabilities: frozenset[Capability]
    granted_by: tuple[tuple[str, frozenset[Capability]], ...]
    managed: bool

    def allows(self, capability: Capability) -> bool:
        """True when this request may do `capability`."""
        return capability in self.capabilities

    def refusal(self, capability: Capability) -> Refusal | None:
        """Why `capability` is refused (None when it is allowed)."""
        if capability in self.capabilities:
            return None
        if capability is Capability.MANAGE and self.managed and self.token_kind is TokenKind.EDIT:
            return Refusal.MANAGED
        return Refusal.READ_ONLY

    @property
    def can_score(self) -> bool:
        """True when the request may record and correct holes (the scorer's pages and links)."""
        return Capability.SCORE in self.capabilities

    @property
    def can_manage(self) -> bool:
        """True when the request may change seats, ruleset, title, or delete the game."""
        return Capability.MANAGE in self.capabilities

    @property
    def needs_user(self) -> bool:
        """True when some capability came from a provider (the user), not from the token."""
        return self.capabilities != self.token_capabilities


# --------------------------------------------------------------------------------------------
# Managed games: who sets their players, rules and deletion, and their boards' links


def managed_refusal_message(game: Game) -> str:
    """ "This game is a table of Spring Open, round 2, table 3: its players, rules and deletion are set
    by the tournament's directors." (the game's manager's `name`)."""
    what = game.managed_label or game.managed_by
    who = manager_of(game).name or _("whoever runs it")
    return _("This game is a table of %(what)s: its players, rules and deletion are set by %(who)s.") % {
        "what": what,
        "who": who,
    }


def managed_game_links(game: Game, grant: GameGrant) -> list[tuple[str, str]]:
    """The links the game's manager (or the app following it: a club game's way back to its club)
    shows on its board."""
    return [(str(label), url) for label, url in manager_of(game).board_links(game, grant)]


# --------------------------------------------------------------------------------------------
# The decision


def decide(token: str, user: Any = None) -> GameGrant | None:
    """The grant of a request holding `token` (edit or view token) as `user`; None when no game has it.

    One query (the token lookup) plus whatever the game's manager does.
    """
    found = game_for_token(token)
    if found is None:
        return None
    return grant_for(found.game, TokenKind.EDIT if found.can_edit else TokenKind.VIEW, user, token=token)


def grant_for(game: Game, token_kind: TokenKind, user: Any = None, *, token: str | None = None) -> GameGrant:
    """The grant on `game` through its `token_kind` link for `user`: built-in rules, then the game's
    manager."""
    user = AnonymousUser() if user is None else user
    managed = bool(game.managed_by)
    if token_kind is TokenKind.EDIT:
        from_token = EDIT_TOKEN_SCORES if managed else _EDIT_TOKEN_OF_UNMANAGED
        sources: list[tuple[str, frozenset[Capability]]] = [("edit link", from_token)]
    else:
        from_token = _VIEW_TOKEN
        sources = [("view link", from_token)]
    capabilities = set(from_token)
    # What the game's manager adds (a tournament's staff on its table); nothing for a friends' game.
    extra = frozenset(
        Capability(value) for value in manager_of(game).capabilities(game, user, token_kind) or ()
    )
    if extra:
        sources.append((game.managed_by or game.followed_by, extra))
        capabilities |= extra
    if token is None:
        token = game.edit_token if token_kind is TokenKind.EDIT else game.view_token
    return GameGrant(
        game=game,
        token=token,
        token_kind=token_kind,
        capabilities=frozenset(capabilities),
        token_capabilities=from_token,
        granted_by=tuple(sources),
        managed=managed,
    )
