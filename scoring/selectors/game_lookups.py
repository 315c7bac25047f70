"""Finding games: by a link token, the games of a user or of a browser's tokens, a used
Idempotency-Key, a hole a retried request recorded, a user's list of players and the player names
used lately (to suggest them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Q, QuerySet

from golfclub.core.inputs import is_token
from scoring.idempotent_request_model import IdempotentRequest, game_scope
from scoring.models import Game, Player, Seat


@dataclass(frozen=True)
class GameAccess:
    """A game reached through a link, and whether that link may change it (edit vs view token)."""

    game: Game
    can_edit: bool


def game_for_token(token: str) -> GameAccess | None:
    """The game whose edit or view token is `token` (one indexed query), or None.

    A value outside the token alphabet (a NUL, a space, more than 64 characters) is None at once,
    without a query: it names no game, and PostgreSQL would refuse a NUL.
    """
    if not is_token(token):
        return None
    game = Game.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if game is None:
        return None
    return GameAccess(game=game, can_edit=game.edit_token == token)


def games_for_user(user: AbstractBaseUser | None) -> QuerySet[Game]:
    """The games a logged-in user created, most recently changed first, seats prefetched."""
    if user is None or not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(owner=user).prefetch_related("seats").order_by("-updated_at", "-pk")


def games_for_tokens(tokens: Iterable[str]) -> QuerySet[Game]:
    """The games whose edit tokens are among `tokens` (e.g. those kept in a browser session)."""
    return (
        Game.objects.filter(edit_token__in=list(tokens)[:200])
        .prefetch_related("seats")
        .order_by("-updated_at")
    )


def games_for_view_tokens(tokens: Iterable[str]) -> QuerySet[Game]:
    """The games whose view (watch-only) tokens are among `tokens`: games this browser watched."""
    return Game.objects.filter(view_token__in=list(tokens)[:200]).prefetch_related("seats")


def idempotency_key_used(game: Game, key: str | None) -> bool:
    """Whether a hole of `game` was already recorded with this Idempotency-Key (a resent form)."""
    return bool(key) and IdempotentRequest.objects.filter(scope=game_scope(game.pk), key=key).exists()


def recent_player_names(
    user: AbstractBaseUser | None = None, *, edit_tokens: Iterable[str] = (), limit: int = 12
) -> list[str]:
    """Names this user (their roster and games) or this browser (games by edit token) used lately.

    Most recent first, each name once (ignoring case). Two queries at most.
    """
    names: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        if name.casefold() not in seen and len(names) < limit:
            seen.add(name.casefold())
            names.append(name)

    if user is not None and user.is_authenticated:
        for name in (
            Player.objects.filter(owner=user)
            .order_by("-last_played_at", "name")
            .values_list("name", flat=True)[: limit * 2]
        ):
            add(name)
    tokens = list(edit_tokens)[:200]
    if tokens:
        for name in (
            Seat.objects.filter(game__edit_token__in=tokens)
            .order_by("-game__updated_at", "seat")
            .values_list("name", flat=True)[: limit * 4]
        ):
            add(name)
    return names


def owned_players(user: AbstractBaseUser) -> QuerySet[Player]:
    """A logged-in user's list of players, by name."""
    return Player.objects.filter(owner=user).order_by("name")


def owned_player(user: AbstractBaseUser, player_id: int) -> Player | None:
    """One player of a logged-in user's list, or None (another user's player is None too)."""
    return Player.objects.filter(owner=user, pk=player_id).first()
