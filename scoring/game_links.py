"""What another app links to a new game from extra fields of `POST /api/v1/games/`: a linker it supplies.

A game may belong to something scoring knows nothing of: a club's game has its seats linked to the
club's members. The app that keeps such links registers ONE linker for the request fields it owns
in its app's `ready()`, without `scoring` importing it:

    from scoring import game_links

    def link_club_game(request: game_links.LinkRequest) -> game_links.GameLink:
        club = check_the_club(request.user, request.fields["club"])  # raises a GameError kind
        return game_links.GameLink(followed_by="clubs.game", write=lambda game: save_links(game))

    game_links.register_game_linker(("club", "members"), link_club_game)

The games API calls `link_for` with the fields given BEFORE anything is written: a linker checks
everything (raising `scoring.game_errors.GameError` kinds, each with its own `http_status`, each
problem naming its field, e.g. "members[2]") and answers the writer
that `create_game` runs with the new game inside its creating transaction (`after_create`), so the
game and its links are saved together or not at all; `followed_by` names the change follower that
keeps what the app derives from the game (`scoring.managed_changes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from scoring.game_errors import GameError
from scoring.rules.errors import Problem

if TYPE_CHECKING:
    from scoring.models import Game

__all__ = [
    "GameLink",
    "GameLinker",
    "LinkRequest",
    "link_for",
    "linked_fields",
    "register_game_linker",
    "unregister_game_linker",
]


@dataclass(frozen=True, slots=True)
class LinkRequest:
    """A new game's request as a linker sees it: who asks, the players in seat order, and the
    linker's own fields that the request gave (absent fields are missing from `fields`)."""

    user: Any
    players: tuple[str, ...]
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameLink:
    """What a linker answers: the follower label of the new game and the writer of its links."""

    followed_by: str
    write: Callable[[Game], None]


GameLinker = Callable[[LinkRequest], GameLink | None]

_linkers: dict[tuple[str, ...], GameLinker] = {}


def register_game_linker(fields: Sequence[str], linker: GameLinker) -> None:
    """Make `linker` check and link the request fields `fields` of a new game (a field has one linker)."""
    names = tuple(fields)
    if not names:
        raise ValueError("A game linker needs the request fields it links.")
    taken = {name for owned in _linkers if owned != names for name in owned}
    if taken & set(names):
        raise ValueError(f"Another linker owns {sorted(taken & set(names))}.")
    _linkers[names] = linker


def unregister_game_linker(fields: Sequence[str]) -> None:
    """Forget the linker of `fields` (tests use it to leave the registry as they found it)."""
    _linkers.pop(tuple(fields), None)


def linked_fields() -> frozenset[str]:
    """Every request field some linker owns."""
    return frozenset(name for owned in _linkers for name in owned)


def link_for(user: Any, players: Sequence[str], data: Mapping[str, Any]) -> GameLink | None:
    """The link the request `data` asks for, or None: each linker whose fields `data` gives checks
    them (raising a `GameError` kind, before anything is written) and answers its link, or None.

    A game follows one app at most, so two links at once are refused (400 naming the body)."""
    links: list[GameLink] = []
    for owned, linker in _linkers.items():
        given = {name: data[name] for name in owned if name in data}
        if not given:
            continue
        link = linker(LinkRequest(user=user, players=tuple(players), fields=given))
        if link is not None:
            links.append(link)
    if len(links) > 1:
        raise GameError(Problem("body", _("A game can belong to one thing at most.")))
    return links[0] if links else None
