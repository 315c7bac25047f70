"""What a request may do to a game: one decision for pages and API alike.

A game is reached by a token in the URL (its edit token or its view token) and, maybe, by a logged-in
user. `decide(token, user)` answers a `GameGrant`: the game, the capabilities the request holds on it,
who or what granted each, and whether the game is managed by something else. The decorators of the
pages (`scoring.web.games.access.game_page`) and of the API (`scoring.api.games.access.
game_grant_required`) call it, check the capability a view needs and either call the view with the
grant or answer the refusal. The API's hole POST finds and locks the game by its edit token in one
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

Other apps add capabilities through providers, registered from their `AppConfig.ready()`:

    from scoring.access import Capability, register_access_provider

    def tournament_staff(game, user, token_kind):
        if game.managed_by != "tournaments.table" or not user.is_authenticated:
            return ()  # cheap: decided without a query for every other game
        if is_director(user, game):
            return Capability.all()
        if is_official(user, game):
            return {Capability.VIEW, Capability.SCORE, Capability.OFFICIATE}
        return ()

    register_access_provider("tournaments.staff", tournament_staff)

A provider is called for every decision (anonymous users included) with the game already loaded, so
it must answer at once, without a query, when the game is not one of its own. Providers only add:
no provider can take away what the token grants (refusing a table's scoring while its round is not
open is a guard of the services on managed games, so that the API's fast path obeys it too).
`scoring` never imports a provider: the registry is filled by the apps that own them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.functional import Promise
from django.utils.translation import gettext as _

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
# Providers


AccessProvider = Callable[[Game, Any, TokenKind], Iterable[Capability | str] | None]
_PROVIDERS: dict[str, AccessProvider] = {}


def register_access_provider(name: str, provider: AccessProvider) -> None:
    """Register `provider` under `name` (an app's `ready()` calls this; registering again replaces it).

    `provider(game, user, token_kind)` answers the capabilities it adds (an iterable of `Capability`
    or their names), or None/empty when it has nothing to add.
    """
    _PROVIDERS[name] = provider


def unregister_access_provider(name: str) -> None:
    """Remove the provider registered under `name` (tests; nothing happens if there is none)."""
    _PROVIDERS.pop(name, None)


def access_providers() -> dict[str, AccessProvider]:
    """The registered providers by name (a copy)."""
    return dict(_PROVIDERS)


# --------------------------------------------------------------------------------------------
# Managed games: who sets their players, rules and deletion


_MANAGERS: dict[str, str | Promise] = {}


def register_game_manager(managed_by: str, who: str | Promise) -> None:
    """Name who manages the games marked `managed_by` (e.g. "tournaments.table" -> "the tournament's
    directors"), for the refusal message of their table links."""
    _MANAGERS[managed_by] = who


def unregister_game_manager(managed_by: str) -> None:
    """Forget who manages the games marked `managed_by` (tests)."""
    _MANAGERS.pop(managed_by, None)


def managed_refusal_message(game: Game) -> str:
    """ "This game is a table of Spring Open, round 2, table 3: its players, rules and deletion are set
    by the tournament's directors." """
    what = game.managed_label or game.managed_by
    who = _MANAGERS.get(game.managed_by) or _("whoever runs it")
    return _("This game is a table of %(what)s: its players, rules and deletion are set by %(who)s.") % {
        "what": what,
        "who": who,
    }


ManagedGameLinks = Callable[[Game, GameGrant], Iterable[tuple[str | Promise, str]]]
_MANAGED_LINKS: dict[str, ManagedGameLinks] = {}


def register_managed_game_links(managed_by: str, links: ManagedGameLinks) -> None:
    """Let the app managing (or following) the games marked `managed_by` (or `followed_by`) add links to
    their board (from its `ready()`):
    `links(game, grant)` answers (label, url) pairs, e.g. a tournament table's "Confirm the scorecard".
    It is called on every board render and poll of such a game, so it must not query the database
    for what the game row already says (its status, its tokens)."""
    _MANAGED_LINKS[managed_by] = links


def unregister_managed_game_links(managed_by: str) -> None:
    """Forget the links of the games marked `managed_by` (tests)."""
    _MANAGED_LINKS.pop(managed_by, None)


def managed_game_links(game: Game, grant: GameGrant) -> list[tuple[str, str]]:
    """The links the game's manager shows on its board, then those of the app following its changes
    (registered under its `followed_by` label, e.g. a club game's way back to its club)."""
    found: list[tuple[str, str]] = []
    for key in dict.fromkeys(key for key in (game.managed_by, game.followed_by) if key):
        links = _MANAGED_LINKS.get(key)
        if links is not None:
            found.extend((str(label), url) for label, url in links(game, grant))
    return found


# --------------------------------------------------------------------------------------------
# The decision


def decide(token: str, user: Any = None) -> GameGrant | None:
    """The grant of a request holding `token` (edit or view token) as `user`; None when no game has it.

    One query (the token lookup) plus whatever the registered providers do.
    """
    found = game_for_token(token)
    if found is None:
        return None
    return grant_for(found.game, TokenKind.EDIT if found.can_edit else TokenKind.VIEW, user, token=token)


def grant_for(game: Game, token_kind: TokenKind, user: Any = None, *, token: str | None = None) -> GameGrant:
    """The grant on `game` through its `token_kind` link for `user`: built-in rules, then providers."""
    user = AnonymousUser() if user is None else user
    managed = bool(game.managed_by)
    if token_kind is TokenKind.EDIT:
        from_token = EDIT_TOKEN_SCORES if managed else _EDIT_TOKEN_OF_UNMANAGED
        sources: list[tuple[str, frozenset[Capability]]] = [("edit link", from_token)]
    else:
        from_token = _VIEW_TOKEN
        sources = [("view link", from_token)]
    capabilities = set(from_token)
    for name, provider in _PROVIDERS.items():
        extra = frozenset(Capability(value) for value in (provider(game, user, token_kind) or ()))
        if extra:
            sources.append((name, extra))
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
