"""What another app links to a new game from extra fields of `POST /api/v1/games/`: asked of the
game managers (`scoring.game_managers`) that own those fields.

A game may belong to something scoring knows nothing of: a club's game has its seats linked to the
club's members. The app that keeps such links names the request fields it owns in its
`GameManager.link_fields` and answers them in `link_new_game`:

    class ClubGameManager(GameManager):
        link_fields = ("club", "members")

        def link_new_game(self, request: LinkRequest) -> GameLink:
            club = check_the_club(request.user, request.fields["club"])  # raises a GameError kind
            return GameLink(followed_by="clubs.game", write=lambda game: save_links(game))

The games API calls `link_for` with the fields given BEFORE anything is written: a manager checks
everything (raising `scoring.game_errors.GameError` kinds, each with its own `http_status`, each
problem naming its field, e.g. "members[2]") and answers the writer
that `create_game` runs with the new game inside its creating transaction (`after_create`), so the
game and its links are saved together or not at all; `followed_by` names the manager told of the
game's changes from then on (`GameManager.after_change`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from scoring.game_errors import GameError
from scoring.game_managers import game_managers
from scoring.rules.errors import Problem

if TYPE_CHECKING:
    from scoring.models import Game

__all__ = [
    "GameLink",
    "LinkRequest",
    "link_for",
    "linked_fields",
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


def linked_fields() -> frozenset[str]:
    """Every request field some game manager links."""
    return frozenset(name for manager in game_managers().values() for name in manager.link_fields)


def link_for(user: Any, players: Sequence[str], data: Mapping[str, Any]) -> GameLink | None:
    """The link the request `data` asks for, or None: each manager whose fields `data` gives checks
    them (raising a `GameError` kind, before anything is written) and answers its link, or None.

    A game follows one app at most, so two links at once are refused (400 naming the body)."""
    links: list[GameLink] = []
    for manager in game_managers().values():
        given = {name: data[name] for name in manager.link_fields if name in data}
        if not given:
            continue
        link = manager.link_new_game(LinkRequest(user=user, players=tuple(players), fields=given))
        if link is not None:
            links.append(link)
    if len(links) > 1:
        raise GameError(Problem("body", _("A game can belong to one thing at most.")))
    return links[0] if links else None
